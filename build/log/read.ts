// helpers for the steps after the log: open it with DuckDB as views `legs` and `points`, list its days.
// files of older builds lack newer columns: the view reads them by name and fills each missing one
// as write.ts LEG_COALESCE says (null for most), so every step sees one set of columns.
// days are listed from the file system (cheap, no DuckDB): a day exists when its legs.parquet does.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { isDay } from '../../lib/localtime.ts';
import { LEG_COALESCE, LEG_COLUMNS, POINT_COLUMNS, dayFile, sqlString } from './write.ts';

/** The days in the log (folders day=YYYY-MM-DD holding legs.parquet), oldest first. */
export function listLogDays(logDir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(logDir);
  } catch {
    return [];
  }
  return names
    .filter((n) => n.startsWith('day=') && isDay(n.slice(4)))
    .map((n) => n.slice(4))
    .filter((d) => existsSync(dayFile(logDir, d)))
    .sort();
}

/** The newest day in the log (spec 2.2 `archive_through`), or null when the log is empty. */
export function archiveThrough(logDir: string): string | null {
  const days = listLogDays(logDir);
  return days.length ? days[days.length - 1]! : null;
}

/** the glob every reader uses; temporaries (.legs.parquet.*) never match it */
const logGlob = (logDir: string) => join(logDir, '*', 'legs.parquet');
const pointsGlob = (logDir: string) => join(logDir, '*', 'points.parquet');

export interface OpenLog {
  connection: DuckDBConnection;
  /** days present when the log was opened */
  days: string[];
  /** runs a query and returns plain rows, BIGINT as number (unix seconds fit exactly) */
  rows(sql: string): Promise<Record<string, unknown>[]>;
  close(): void;
}

/**
 * Opens the log: a DuckDB connection with a view `legs` over every day's file, with the `day`
 * column (DATE) from the folder name; with `since`, only days from that one on (the build's window).
 * An empty log gives an empty `legs` view with the same columns.
 */
export async function openLog(logDir: string, opts: { threads?: number; memoryLimit?: string; since?: string; tempDirectory?: string } = {}): Promise<OpenLog> {
  // insertion order is never relied on (every query orders what it needs): lets DuckDB stream more
  const config: Record<string, string> = { threads: String(opts.threads ?? 2), preserve_insertion_order: 'false' };
  if (opts.memoryLimit) config.memory_limit = opts.memoryLimit;
  // an in-memory database spills only where it is told to
  if (opts.tempDirectory) config.temp_directory = opts.tempDirectory;
  const instance = await DuckDBInstance.create(':memory:', config);
  const connection = await instance.connect();
  const days = listLogDays(logDir);
  const since = opts.since ? ` WHERE day >= DATE ${sqlString(opts.since)}` : '';
  const hive = `hive_partitioning = true, hive_types = {'day': DATE}, union_by_name = true`;
  const legCols = [...LEG_COLUMNS, ['day', 'DATE']] as const;
  if (days.length) {
    await connection.run(`CREATE VIEW legs_files AS SELECT * FROM read_parquet(${sqlString(logGlob(logDir))}, ${hive})`);
    const have = new Set((await connection.runAndReadAll('DESCRIBE legs_files')).getRowObjects().map((r) => String(r.column_name)));
    // columns the log does not know (another step's, like a runway) pass through as they are
    const extra = [...have].filter((n) => !legCols.some(([c]) => c === n)).map((n) => `"${n}"`);
    const cols = legCols.map(([n, t]) => (!have.has(n) ? `NULL::${t} AS "${n}"` : LEG_COALESCE[n] ? `${LEG_COALESCE[n]} AS "${n}"` : `"${n}"`));
    await connection.run(`CREATE VIEW legs AS SELECT ${[...cols, ...extra].join(', ')} FROM legs_files${since}`);
  } else {
    await connection.run(`CREATE VIEW legs AS SELECT ${legCols.map(([n, t]) => `NULL::${t} AS "${n}"`).join(', ')} WHERE false`);
  }
  const pointCols = [...POINT_COLUMNS, ['day', 'DATE']] as const;
  if (days.some((d) => existsSync(join(logDir, `day=${d}`, 'points.parquet')))) {
    await connection.run(`CREATE VIEW points AS SELECT * FROM read_parquet(${sqlString(pointsGlob(logDir))}, ${hive})${since}`);
  } else {
    await connection.run(`CREATE VIEW points AS SELECT ${pointCols.map(([n, t]) => `NULL::${t} AS "${n}"`).join(', ')} WHERE false`);
  }
  return {
    connection,
    days,
    async rows(sql: string) {
      const reader = await connection.runAndReadAll(sql);
      return reader.getRowObjects().map(plain);
    },
    close() {
      connection.closeSync();
      instance.closeSync();
    },
  };
}

function plain(row: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(row)) {
    if (typeof v === 'bigint') out[k] = Number(v);
    else if (v !== null && typeof v === 'object')
      out[k] = String(v); // DATE and friends: ISO text
    else out[k] = v;
  }
  return out;
}
