// adapter: writes one day of flight-log rows with DuckDB to LOG/day=YYYY-MM-DD/legs.parquet
// (zstd), Hive-partitioned, and the legs' thinned tracks beside it to points.parquet (one row a
// point, keyed by the leg's hex and first_ts: schemas/flight-log.md says why not a list column). the file is written under a hidden temporary name in the same folder,
// synced, then renamed over the old one: a killed run leaves the previous file or none, never half
// a file, and readers globbing */legs.parquet never see the temporary. points.parquet goes first:
// a run killed between the two leaves the old legs with their points still there (the old legs'
// points are carried over by key), never legs whose points are gone.
import { existsSync } from 'node:fs';
import { mkdir, open, readdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { BIGINT, BOOLEAN, DOUBLE, INTEGER, DuckDBDataChunk, DuckDBInstance, JSToDuckDBValueConverter, VARCHAR, type DuckDBConnection } from '@duckdb/node-api';
import type { LegRow } from './legs.ts';

/** column order and DuckDB types of legs.parquet; the day column comes from the folder name */
export const LEG_COLUMNS = [
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
  ['dep_lat', 'DOUBLE'],
  ['dep_lon', 'DOUBLE'],
  ['arr_lat', 'DOUBLE'],
  ['arr_lon', 'DOUBLE'],
  ['distance_km', 'DOUBLE'],
  ['max_alt_ft', 'INTEGER'],
  ['circuit', 'BOOLEAN'],
  ['open', 'BOOLEAN'],
  // runways (issue 44)
  ['dep_runway', 'VARCHAR'],
  ['arr_runway', 'VARCHAR'],
] as const satisfies readonly (readonly [keyof LegRow, DuckType])[];
type DuckType = 'VARCHAR' | 'BIGINT' | 'BOOLEAN' | 'DOUBLE' | 'INTEGER';
const DUCK_TYPES = { VARCHAR, BIGINT, BOOLEAN, DOUBLE, INTEGER } as const;
/** what a column reads as in a file written before it existed (in a merge, and in openLog's view):
 * such legs were closed, and a circuit is a leg whose ends are one airport; the others stay null */
export const LEG_COALESCE: Partial<Record<string, string>> = {
  open: 'coalesce("open", false)',
  circuit: 'coalesce("circuit", org IS NOT NULL AND org = dst)',
};
const OUT_COLUMNS = LEG_COLUMNS.map(([n]) => (LEG_COALESCE[n] ? `${LEG_COALESCE[n]} AS "${n}"` : `"${n}"`)).join(', ');

/** column order and DuckDB types of points.parquet: the leg's key, then one trace point (spec 2.4);
 * alt_baro 'ground' is ground = true with alt_baro null */
export const POINT_COLUMNS = [
  ['hex', 'VARCHAR'],
  ['first_ts', 'BIGINT'],
  ['t', 'DOUBLE'],
  ['lat', 'DOUBLE'],
  ['lon', 'DOUBLE'],
  ['alt_baro', 'INTEGER'],
  ['ground', 'BOOLEAN'],
  ['track', 'DOUBLE'],
] as const satisfies readonly (readonly [string, DuckType])[];

/** rows per appended chunk: DuckDB's vector size */
const CHUNK = 2048;
const TMP_PREFIX = '.legs.parquet.';
const POINTS_TMP_PREFIX = '.points.parquet.';

export const dayDir = (logDir: string, day: string) => join(logDir, `day=${day}`);
export const dayFile = (logDir: string, day: string) => join(dayDir(logDir, day), 'legs.parquet');
export const pointsFile = (logDir: string, day: string) => join(dayDir(logDir, day), 'points.parquet');

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
    const ptmp = join(dir, `${POINTS_TMP_PREFIX}${process.pid}.tmp`);
    const c = this.connection;
    try {
      await this.append(
        'day_legs',
        LEG_COLUMNS,
        rows.map((r) => LEG_COLUMNS.map(([n]) => r[n])),
      );
      const points: unknown[][] = [];
      for (const r of rows)
        for (const p of r.track) points.push([r.hex, r.first_ts, p[0], p[1], p[2], p[3] === 'ground' ? null : p[3], p[3] === 'ground', p[4]]);
      await this.append('day_points', POINT_COLUMNS, points);
      const old = sqlString(dayFile(this.logDir, day));
      const oldPoints = pointsFile(this.logDir, day);
      // old legs no new row overlaps: kept as they were, with their points
      const kept = `SELECT * FROM read_parquet(${old}) o WHERE NOT EXISTS (
             SELECT 1 FROM day_legs n WHERE n.hex = o.hex AND n.first_ts <= o.last_ts AND o.first_ts <= n.last_ts)`;
      const source = merge ? `SELECT * FROM day_legs UNION ALL BY NAME ${kept}` : 'SELECT * FROM day_legs';
      const pointSource =
        merge && existsSync(oldPoints)
          ? `SELECT * FROM day_points UNION ALL BY NAME SELECT p.* FROM read_parquet(${sqlString(oldPoints)}) p
               SEMI JOIN (${kept}) k ON p.hex = k.hex AND p.first_ts = k.first_ts`
          : 'SELECT * FROM day_points';
      const pointCols = POINT_COLUMNS.map(([n]) => `"${n}"`).join(', ');
      await c.run(`COPY (SELECT ${pointCols} FROM (${pointSource}) ORDER BY hex, first_ts, t) TO ${sqlString(ptmp)} ${LEG_FILE_OPTIONS}`);
      await c.run(`COPY (SELECT ${OUT_COLUMNS} FROM (${source}) ORDER BY hex, first_ts) TO ${sqlString(tmp)} ${LEG_FILE_OPTIONS}`);
      await fsyncFile(ptmp);
      await fsyncFile(tmp);
      await rename(ptmp, oldPoints);
      await rename(tmp, dayFile(this.logDir, day));
    } catch (e) {
      await rm(tmp, { force: true });
      await rm(ptmp, { force: true });
      throw e;
    } finally {
      await c.run('DROP TABLE IF EXISTS day_legs');
      await c.run('DROP TABLE IF EXISTS day_points');
    }
    return dayFile(this.logDir, day);
  }

  /** a temp table of these columns holding these rows (values in column order) */
  private async append(table: string, columns: readonly (readonly [string, DuckType])[], values: readonly (readonly unknown[])[]): Promise<void> {
    const c = this.connection;
    await c.run(`CREATE OR REPLACE TEMP TABLE ${table} (${columns.map(([n, t]) => `"${n}" ${t}`).join(', ')})`);
    const appender = await c.createAppender(table);
    const types = columns.map(([, t]) => DUCK_TYPES[t]);
    for (let i = 0; i < values.length; i += CHUNK) {
      const slice = values.slice(i, i + CHUNK);
      const chunk = DuckDBDataChunk.create(types);
      chunk.setColumnsConverted(
        columns.map((_, k) => slice.map((r) => r[k]) as never),
        JSToDuckDBValueConverter,
      );
      appender.appendDataChunk(chunk);
    }
    appender.closeSync();
  }

  close(): void {
    this.connection.closeSync();
    this.instance.closeSync();
  }
}

/** leftovers of a killed run: never read (the glob is legs.parquet), removed before the next write */
async function removeTemporaries(dir: string): Promise<void> {
  for (const name of await readdir(dir)) {
    if (name.startsWith(TMP_PREFIX) || name.startsWith(POINTS_TMP_PREFIX)) await rm(join(dir, name), { force: true });
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
