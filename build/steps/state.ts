// what a version records for the next night's build (its `state/` folder, never served): Parquet
// files written by DuckDB. a step that reuses the previous build reads them from ctx.reuse.
import { mkdirSync, renameSync } from 'node:fs';
import { dirname } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { sqlString } from './duck.ts';

/** a query's rows as a Parquet file of the version being built (a new file: the previous version's hard link stays as it was) */
export async function saveState(db: DuckDBConnection, sql: string, file: string): Promise<void> {
  mkdirSync(dirname(file), { recursive: true });
  const tmp = `${file}.tmp-${process.pid}`;
  await db.run(`COPY (${sql}) TO ${sqlString(tmp)} (FORMAT parquet, COMPRESSION zstd)`);
  renameSync(tmp, file);
}
