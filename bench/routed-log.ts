// the flight log as the schedules' benches read it: the nightly's own openLog (build/log/read.ts:
// the `legs` view, threads, memory limit, spill folder), the reference airports, a routes table
// (the one a build saved, <version>/state/schedules-routes.parquet, or empty: a leg's missing end is
// never filled) and the `legs_routed` view over them, as the routes step makes it.
import type { DuckDBConnection } from '@duckdb/node-api';
import type { RefView } from '../artifacts/reference-view.ts';
import { loadRefAirports, sqlString } from '../build/steps/duck.ts';
import { legsRoutedSql } from '../build/steps/routes/legs-routed.ts';
import { openLog } from '../build/log/read.ts';
import type { RoutedLegs } from '../build/steps/context.ts';

export async function openRoutedLog(
  logDir: string,
  ref: RefView,
  opts: { routes?: string; threads?: number; memoryLimit?: string; since?: string; tempDirectory?: string },
): Promise<{ db: DuckDBConnection; legs: RoutedLegs; close(): void }> {
  const log = await openLog(logDir, opts);
  const db = log.connection;
  await loadRefAirports(db, ref);
  await db.run(
    opts.routes
      ? `CREATE TABLE routes_table AS SELECT * FROM read_parquet(${sqlString(opts.routes)})`
      : `CREATE TABLE routes_table (callsign VARCHAR, org VARCHAR, dst VARCHAR, org_ident VARCHAR, dst_ident VARCHAR, route_source VARCHAR, org_seen BOOLEAN, dst_seen BOOLEAN)`,
  );
  await db.run(legsRoutedSql('legs_routed', 'legs'));
  return { db, legs: { view: 'legs_routed', table: 'routes_table' }, close: () => log.close() };
}
