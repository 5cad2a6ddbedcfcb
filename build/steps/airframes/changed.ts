// which airframes a night must build, when the previous build's documents may be kept (ctx.reuse):
// an airframe's documents come from its legs inside the window (through `legs_routed`) and from
// reference data, code and options. with those last three unchanged (what reuse means), its
// documents can change only if it has legs in a day that entered or left the window, or a leg
// whose missing end is filled from a routes-table entry that changed. every other airframe the
// previous build heard keeps its documents and its state row unbuilt, and is never aggregated.
import { join } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import type { BuildContext, RoutedLegs } from '../context.ts';
import type { Reuse } from '../declaration.ts';
import { allRows } from '../duck.ts';
import { addedDaysSql, droppedLegsSql } from '../log-delta.ts';
import { daysOf, previousFor, rebuilds } from '../reuse.ts';
import { NIGHT_LEGS, changedCallsignsSql, pickNightLegs } from '../changed-callsigns.ts';
import { VALID_HEX } from './sql.ts';
import { AIRFRAMES_STEP } from './step.ts';

/**
 * Fill the temp table `af_changed(hex, routed)` with the airframes tonight must build (routed: it
 * has a leg a changed route may fill), when the step's rule (step.ts, reuse.increment) may read
 * the previous build: the airframes reached by the changes it declares. Returns how many, or null
 * (not known: build every airframe).
 */
export async function changedAirframes(
  ctx: BuildContext,
  db: DuckDBConnection,
  legs: RoutedLegs,
  rule: Reuse = AIRFRAMES_STEP.reuse.increment,
): Promise<number | null> {
  const previous = previousFor(ctx, rule);
  if (!('dir' in previous) || !previous.days) return null;
  const days = daysOf(rule, previous.days);
  const rerouted = rebuilds(rule, 'changed-routes');
  const parts: string[] = [];
  if (rerouted) {
    await db.run(`CREATE OR REPLACE TEMP TABLE af_routes_changed AS ${changedCallsignsSql(legs, join(previous.dir, rule.routes!))}`);
    await pickNightLegs(db, 'af_routes_changed');
    // a leg with one end heard is the only kind the routes table fills (legs_routed): a superset, cheap to test
    parts.push(`SELECT hex, true AS routed FROM ${NIGHT_LEGS} WHERE (org IS NULL) <> (dst IS NULL)`);
  }
  if (days.added.length) parts.push(`SELECT hex, false AS routed FROM legs WHERE day IN (${addedDaysSql(days)})`);
  if (days.dropped.length) parts.push(`SELECT hex, false AS routed FROM ${droppedLegsSql(days)}`);
  if (!parts.length) parts.push(`SELECT NULL::VARCHAR AS hex, false AS routed WHERE false`);
  await db.run(`CREATE OR REPLACE TEMP TABLE af_changed AS
    SELECT hex, bool_or(routed) AS routed FROM (${parts.join(' UNION ALL ')}) WHERE ${VALID_HEX} GROUP BY hex`);
  if (rerouted) await db.run(`DROP TABLE af_routes_changed`);
  const [n] = await allRows<{ n: number }>(db, `SELECT count(*) AS n FROM af_changed`);
  return n!.n;
}
