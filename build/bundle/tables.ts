// adapter: the derived tables researchers get beside the log, as Parquet (zstd) written by DuckDB
// COPY: airframes with their legs, airports with their observed totals (circuits excluded, as
// /v1/airports), and the routes table the build served with each callsign's route_source.
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readObject } from '../../artifacts/tree.ts';
import { keys } from '../../artifacts/keys.ts';
import { TABLES, type TableName } from '../../artifacts/bundles.ts';
import { sqlString } from '../log/write.ts';
import type { OpenLog } from '../log/read.ts';

interface TableFile {
  name: TableName;
  /** the Parquet file in the work folder */
  file: string;
  rows: number;
}

export interface Tables {
  files: TableFile[];
  /** some route came from the community catalog (its source is credited) */
  catalog: boolean;
}

/** Writes the three tables for the legs `where` selects and the build in `v.dir` into `work`. */
export async function writeTables(db: OpenLog, work: string, where: string, v: { dir: string }): Promise<Tables> {
  const c = db.connection;
  const file = (name: TableName) => join(work, `${name}.parquet`);
  const to = (name: TableName) => `TO ${sqlString(file(name))} (FORMAT parquet, COMPRESSION zstd)`;
  await c.run(`COPY (
    SELECT hex, arg_max(reg, last_ts) AS reg, arg_max(type, last_ts) AS type, count(*)::INTEGER AS legs,
      min(day) AS first_day, max(day) AS last_day,
      list(struct_pack(day := day, callsign := callsign, first_ts := first_ts, dep_ts := dep_ts, arr_ts := arr_ts, org := org, dst := dst, open := open) ORDER BY first_ts, last_ts) AS history
    FROM legs WHERE ${where} GROUP BY hex ORDER BY hex) ${to('airframes')}`);
  await c.run(`COPY (
    WITH m AS (
      SELECT org AS ident, 1 AS dep, 0 AS arr, hex, day FROM legs WHERE ${where} AND org IS NOT NULL AND org IS DISTINCT FROM dst
      UNION ALL
      SELECT dst AS ident, 0 AS dep, 1 AS arr, hex, day FROM legs WHERE ${where} AND dst IS NOT NULL AND dst IS DISTINCT FROM org)
    SELECT ident, sum(dep)::INTEGER AS departures, sum(arr)::INTEGER AS arrivals, count(DISTINCT hex)::INTEGER AS tails,
      count(DISTINCT day)::INTEGER AS days_observed
    FROM m GROUP BY ident ORDER BY ident) ${to('airports')}`);
  // the routes table as the server loaded it (meta/routes: callsign -> [org, dst, route_source], IATA)
  const table = (readObject(v.dir, keys.routesTable()) ?? {}) as Record<string, [string, string, string]>;
  const ndjson = join(work, 'routes.ndjson');
  const entries = Object.entries(table);
  writeFileSync(ndjson, entries.map(([callsign, [org, dst, src]]) => JSON.stringify({ callsign, org, dst, route_source: src })).join('\n'));
  const columns = `{'callsign': 'VARCHAR', 'org': 'VARCHAR', 'dst': 'VARCHAR', 'route_source': 'VARCHAR'}`;
  const rows = entries.length
    ? `SELECT * FROM read_json(${sqlString(ndjson)}, format = 'newline_delimited', columns = ${columns}) ORDER BY callsign`
    : 'SELECT NULL::VARCHAR AS callsign, NULL::VARCHAR AS org, NULL::VARCHAR AS dst, NULL::VARCHAR AS route_source WHERE false';
  await c.run(`COPY (${rows}) ${to('routes')}`);
  rmSync(ndjson, { force: true });
  const count = async (name: TableName) => Number((await db.rows(`SELECT count(*) AS n FROM read_parquet(${sqlString(file(name))})`))[0]!.n);
  const files: TableFile[] = [];
  for (const name of TABLES) files.push({ name, file: file(name), rows: await count(name) });
  return { files, catalog: entries.some(([, e]) => e[2]?.includes('catalog')) };
}
