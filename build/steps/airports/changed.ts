// which airports a night must build, when the previous build's documents may be kept: the
// airports the changes of the step's rule (step.ts, reuse.documents) reach, each an end of a leg
//   - of a day that entered the window or left it (added-days, dropped-days),
//   - of a day that entered the board window or left it (board-days: it slides inside the log's),
//   - in the board window, whose callsign's routes-table row changed (changed-routes),
// and every airport when the window changed length or timetables are read (window-length, timetables).
// every other airport keeps its documents unbuilt, and is never aggregated.
import { join } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import type { BuildContext, RoutedLegs } from '../context.ts';
import type { Reuse } from '../declaration.ts';
import { allRows, sqlString } from '../duck.ts';
import { changedRoutes } from '../changed-callsigns.ts';
import { daysOf, previousFor, rebuilds } from '../reuse.ts';
import { boardStart } from './sql.ts';
import { AIRPORTS_STEP } from './step.ts';
import { deltaLegs } from '../log-delta.ts';
import { readRecordedInputs } from '../../publish/inputs.ts';
import { dayIndexOf, isoDay } from '../../../lib/localtime.ts';

/** the idents tonight aggregates: every airport with an IATA code, or those of ap_changed */
export const CHANGED_IDENTS = `(SELECT ident FROM ref_airports WHERE iata IN (SELECT iata FROM ap_changed))`;

const daysBetween = (a: string, b: string) => Math.round((Date.parse(`${b}T00:00:00Z`) - Date.parse(`${a}T00:00:00Z`)) / 86_400_000);

/** PURE: the days of tonight's window [start, through] that are in its board window [from, through] and not in the previous one [prevFrom, prevThrough], or the other way round */
export function boardDaysChanged(start: string, through: string, from: string, prevFrom: string, prevThrough: string): string[] {
  const out: string[] = [];
  for (let i = dayIndexOf(start); i <= dayIndexOf(through); i++) {
    const d = isoDay(i);
    if (d >= from !== (d >= prevFrom && d <= prevThrough)) out.push(d);
  }
  return out;
}

/**
 * Fill the temp table `ap_changed(iata)` with the IATA codes whose airport tonight must build, when
 * that can be known (`rule`: the step's, step.ts). Returns their set, or null (not known: build every airport).
 */
export async function changedAirports(
  ctx: BuildContext,
  db: DuckDBConnection,
  legs: RoutedLegs,
  rule: Reuse = AIRPORTS_STEP.reuse.documents,
): Promise<Set<string> | null> {
  const previous = previousFor(ctx, rule);
  if (!('dir' in previous) || !previous.days) return null;
  if (rebuilds(rule, 'timetables') && ctx.timetablesDir) return null;
  if (!ctx.archiveThrough || !ctx.windowStart) return null;
  const recorded = readRecordedInputs(previous.dir);
  const prevThrough = recorded?.log_values.archive_through;
  const prevStart = recorded?.log_values.window_start;
  if (typeof prevThrough !== 'string' || typeof prevStart !== 'string') return null;
  // every document says window_days
  if (rebuilds(rule, 'window-length') && daysBetween(prevStart, prevThrough) + 1 !== ctx.windowDays) return null;
  const from = boardStart(ctx.archiveThrough, ctx.windowStart);
  const prevFrom = boardStart(prevThrough, prevStart);
  const day = (d: string) => `DATE ${sqlString(d)}`;
  const parts: string[] = [];
  const rerouted = rebuilds(rule, 'changed-routes');
  if (rerouted) {
    await changedRoutes(db, legs, join(previous.dir, rule.routes!), 'ap_routes_changed');
    parts.push(`SELECT l.org, l.dst FROM legs l JOIN ap_routes_changed c ON c.callsign = l.callsign WHERE l.day >= ${day(from)}`);
  }
  const slid = rebuilds(rule, 'board-days') ? boardDaysChanged(ctx.windowStart, ctx.archiveThrough, from, prevFrom, prevThrough) : [];
  if (slid.length) parts.push(`SELECT org, dst FROM legs WHERE day IN (${slid.map(day).join(', ')})`);
  const delta = deltaLegs(daysOf(rule, previous.days));
  if (delta) parts.push(`SELECT org, dst FROM ${delta}`);
  if (!parts.length) parts.push(`SELECT NULL::VARCHAR AS org, NULL::VARCHAR AS dst WHERE false`);
  await db.run(`CREATE OR REPLACE TEMP TABLE ap_changed AS
    WITH e AS (SELECT DISTINCT unnest([org, dst]) AS ident FROM (${parts.join(' UNION ALL ')}))
    SELECT DISTINCT r.iata FROM e JOIN ref_airports r ON r.ident = e.ident WHERE r.iata IS NOT NULL`);
  if (rerouted) await db.run(`DROP TABLE ap_routes_changed`);
  return new Set((await allRows<{ iata: string }>(db, `SELECT iata FROM ap_changed`)).map((r) => r.iata));
}
