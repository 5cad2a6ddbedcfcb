// adapter: writes one day of flight-log rows with DuckDB to LOG/day=YYYY-MM-DD/legs.parquet
// (zstd), Hive-partitioned. the file is written under a hidden temporary name in the same folder,
// synced, then renamed over the old one: a killed run leaves the previous file or none, never half
// a file, and readers globbing */legs.parquet never see the temporary.
import { existsSync } from 'node:fs';
import { mkdir, open, readdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { BIGINT, BOOLEAN, DuckDBDataChunk, DuckDBInstance, JSToDuckDBValueConverter, VARCHAR, type DuckDBConnection } from '@duckdb/node-api';
import type { LegRow } from './legs.ts';

/** column order and DuckDB types of legs.parquet; the day column comes from the folder name */
const LEG_COLUMNS = [
  ['hex', 'VARCHAR'],
  ['callsign', 'VARCHAR'],
  ['reg', 'VARCHAR'],
  ['type', 'VARCHAR'],
  ['first_ts', 'BIGINT'],
  ['last_ts', 'BIGINT'],
  ['dep_ts', 'BIGINT'],
  ['arr_ts', 'BIGINT'],
  ['org', 'VARCHAR'],
  ['dst', 'VARCHAR'],
  ['open', 'BOOLEAN'],
  // runways (issue 44): kept together at the end of the list
  ['dep_runway', 'VARCHAR'],
  ['arr_runway', 'VARCHAR'],
] as const satisfies readonly (readonly [keyof LegRow, 'VARCHAR' | 'BIGINT' | 'BOOLEAN'])[];
const DUCK_TYPES = { VARCHAR, BIGINT, BOOLEAN } as const;
// a file written before the open column existed reads it as null in a merge: such legs were closed
const OUT_COLUMNS = LEG_COLUMNS.map(([n]) => (n === 'open' ? 'coalesce("open", false) AS "open"' : `"${n}"`)).join(', ');

/** rows per appended chunk: DuckDB's vector size */
const CHUNK = 2048;
const TMP_PREFIX = '.legs.parquet.';

export const dayDir = (logDir: string, day: string) => join(logDir, `day=${day}`);
export const dayFile = (logDir: string, day: string) => join(dayDir(logDir, day), 'legs.parquet');

/** a SQL string literal */
export const sqlString = (s: string) => `'${s.replaceAll("'", "''")}'`;

/**
 * how a day's legs.parquet is written: zstd, rows sorted by (hex, first_ts), and row groups of
 * 16,384 rows (8 in a day of 134k legs; DuckDB's default of 122,880 gave one or two). a row group's
 * min/max hex then lets a reader skip the groups outside a hex range: the nightly's airframe batches
 * (one range of the hex space each) read a year in 1.9-2.2 s instead of 7.9-11.6 s per batch, and a
 * remote reader of the published tree fetches less (docs/perf-log/nightly-increments.md, the year with the evidence fold: flight-log row groups).
 */
export const LEG_FILE_OPTIONS = '(FORMAT parquet, COMPRESSION zstd, ROW_GROUP_SIZE 16384)';

export class LogWriter {
  private constructor(
    private readonly instance: DuckDBInstance,
    private readonly connection: DuckDBConnection,
    readonly logDir: string,
  ) {}

  /** One DuckDB (in memory) for the whole run. `threads` bounds its worker threads. */
  static async open(logDir: string, threads = 2): Promise<LogWriter> {
    const instance = await DuckDBInstance.create(':memory:', { threads: String(threads) });
    return new LogWriter(instance, await instance.connect(), logDir);
  }

  /** Writes (or replaces) one day's file with these rows, sorted by hex then first_ts. Returns its path. */
  writeDay(day: string, rows: readonly LegRow[]): Promise<string> {
    return this.write(day, rows, false);
  }

  /**
   * Merges rows into one day's file: each new row replaces the rows of the same airframe whose time
   * span overlaps its own (an open leg closed by a later build, a leg re-cut), the rest are kept.
   * With no file yet, writes one with these rows.
   */
  mergeDay(day: string, rows: readonly LegRow[]): Promise<string> {
    return this.write(day, rows, existsSync(dayFile(this.logDir, day)));
  }

  private async write(day: string, rows: readonly LegRow[], merge: boolean): Promise<string> {
    const dir = dayDir(this.logDir, day);
    await mkdir(dir, { recursive: true });
    await removeTemporaries(dir);
    const tmp = join(dir, `${TMP_PREFIX}${process.pid}.tmp`);
    const c = this.connection;
    try {
      await c.run(`CREATE OR REPLACE TEMP TABLE day_legs (${LEG_COLUMNS.map(([n, t]) => `"${n}" ${t}`).join(', ')})`);
      const appender = await c.createAppender('day_legs');
      const types = LEG_COLUMNS.map(([, t]) => DUCK_TYPES[t]);
      for (let i = 0; i < rows.length; i += CHUNK) {
        const slice = rows.slice(i, i + CHUNK);
        const chunk = DuckDBDataChunk.create(types);
        chunk.setColumnsConverted(
          LEG_COLUMNS.map(([n]) => slice.map((r) => r[n])),
          JSToDuckDBValueConverter,
        );
        appender.appendDataChunk(chunk);
      }
      appender.closeSync();
      const old = sqlString(dayFile(this.logDir, day));
      const source = merge
        ? `SELECT * FROM day_legs UNION ALL BY NAME SELECT * FROM read_parquet(${old}) o WHERE NOT EXISTS (
             SELECT 1 FROM day_legs n WHERE n.hex = o.hex AND n.first_ts <= o.last_ts AND o.first_ts <= n.last_ts)`
        : 'SELECT * FROM day_legs';
      await c.run(`COPY (SELECT ${OUT_COLUMNS} FROM (${source}) ORDER BY hex, first_ts) TO ${sqlString(tmp)} ${LEG_FILE_OPTIONS}`);
      await fsyncFile(tmp);
      await rename(tmp, dayFile(this.logDir, day));
    } catch (e) {
      await rm(tmp, { force: true });
      throw e;
    } finally {
      await c.run('DROP TABLE IF EXISTS day_legs');
    }
    return dayFile(this.logDir, day);
  }

  close(): void {
    this.connection.closeSync();
    this.instance.closeSync();
  }
}

/** leftovers of a killed run: never read (the glob is legs.parquet), removed before the next write */
async function removeTemporaries(dir: string): Promise<void> {
  for (const name of await readdir(dir)) {
    if (name.startsWith(TMP_PREFIX)) await rm(join(dir, name), { force: true });
  }
}

async function fsyncFile(path: string): Promise<void> {
  const fh = await open(path, 'r');
  try {
    await fh.sync();
  } finally {
    await fh.close();
  }
}
