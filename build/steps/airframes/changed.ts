// which airframes a night must build, when the previous build's documents may be kept (ctx.reuse):
// an airframe's documents come from its legs inside the window (through `legs_routed`) and from
// reference data, code and options. with those last three unchanged (what reuse means), its
// documents can change only if it has legs in a day that entered or left the window, or a leg
// whose missing end is filled from a routes-table entry that changed. every other airframe the
// previous build heard keeps its documents and its state row unbuilt, and is never aggregated.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import type { BuildContext, RoutedLegs } from '../context.ts';
import { allRows } from '../duck.ts';
import { addedDaysSql, droppedLegsSql } from '../log-delta.ts';
import { NIGHT_LEGS, changedCallsignsSql, pickNightLegs } from '../changed-callsigns.ts';
import { VALID_HEX } from './sql.ts';

/** where a version records the routes table its airframes were built with, for the next build */
export const ROUTES_STATE = join('state', 'airframe-routes.parquet');

/**
 * Fill the temp table `af_changed(hex, routed)` with the airframes tonight must build (routed: it
 * has a leg a changed route may fill), when that can be known: the airframes' state `prevState`
 * and the previous routes table are recorded in the reused version and ctx.logDays says which days
 * changed. Returns how many, or null (not known: build every airframe).
 */
export async function changedAirframes(ctx: BuildContext, db: DuckDBConnection, legs: RoutedLegs, prevState: string): Promise<number | null> {
  const days = ctx.logDays;
  if (!ctx.reuse || !days) return null;
  const prevRoutes = join(ctx.reuse, ROUTES_STATE);
  if (!existsSync(prevRoutes) || !existsSync(join(ctx.reuse, prevState))) return null;
  await db.run(`CREATE OR REPLACE TEMP TABLE af_routes_changed AS ${changedCallsignsSql(legs, prevRoutes)}`);
  await pickNightLegs(db, 'af_routes_changed');
  const parts = [
    // a leg with one end heard is the only kind the routes table fills (legs_routed): a superset, cheap to test
    `SELECT hex, true AS routed FROM ${NIGHT_LEGS} WHERE (org IS NULL) <> (dst IS NULL)`,
  ];
  if (days.added.length) parts.push(`SELECT hex, false FROM legs WHERE day IN (${addedDaysSql(days)})`);
  if (days.dropped.length) parts.push(`SELECT hex, false FROM ${droppedLegsSql(days)}`);
  await db.run(`CREATE OR REPLACE TEMP TABLE af_changed AS SELECT hex, bool_or(routed) AS routed FROM (${parts.join(' UNION ALL ')}) WHERE ${VALID_HEX} GROUP BY hex`);
  await db.run(`DROP TABLE af_routes_changed`);
  const [n] = await allRows<{ n: number }>(db, `SELECT count(*) AS n FROM af_changed`);
  return n!.n;
}
