// which airports a night must build, when the previous build's documents may be kept (ctx.reuse:
// the same code, reference data and options). an airport's document comes from the reference data,
// the window's length, its own legs in the window (totals, traffic mix, busiest routes), its own
// legs in the board window (the last BOARD_RULES.windowDays days: the inferred slots), and, for
// its board rows, the routes-table entries of its slots' callsigns and the block times of the IATA
// routes it is an end of. so with the window as long as before and no timetables (read against
// the clock), it can change only if an airport with its IATA code is an end of a leg
//   - of a day that entered the window or left it,
//   - of a day that entered the board window or left it (the board window slides inside the log's),
//   - in the board window, whose callsign's routes-table row changed.
// every other airport keeps its documents unbuilt, and is never aggregated.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import type { BuildContext, RoutedLegs } from '../context.ts';
import { allRows, sqlString } from '../duck.ts';
import { ROUTES_STATE } from '../airframes/changed.ts';
import { changedRoutes } from '../changed-callsigns.ts';
import { boardStart } from './sql.ts';
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
    if ((d >= from) !== (d >= prevFrom && d <= prevThrough)) out.push(d);
  }
  return out;
}

/**
 * Fill the temp table `ap_changed(iata)` with the IATA codes whose airport tonight must build, when
 * that can be known. Returns their set, or null (not known: build every airport).
 */
export async function changedAirports(ctx: BuildContext, db: DuckDBConnection, legs: RoutedLegs): Promise<Set<string> | null> {
  const days = ctx.logDays;
  if (!ctx.reuse || !days || ctx.timetablesDir || !ctx.archiveThrough || !ctx.windowStart) return null;
  const prevRoutes = join(ctx.reuse, ROUTES_STATE);
  const recorded = readRecordedInputs(ctx.reuse);
  const prevThrough = recorded?.log_values.archive_through;
  const prevStart = recorded?.log_values.window_start;
  if (!existsSync(prevRoutes) || typeof prevThrough !== 'string' || typeof prevStart !== 'string') return null;
  // every document says window_days
  if (daysBetween(prevStart, prevThrough) + 1 !== ctx.windowDays) return null;
  const from = boardStart(ctx.archiveThrough, ctx.windowStart);
  const prevFrom = boardStart(prevThrough, prevStart);
  await changedRoutes(db, legs, prevRoutes, 'ap_routes_changed');
  const day = (d: string) => `DATE ${sqlString(d)}`;
  const parts = [`SELECT l.org, l.dst FROM legs l JOIN ap_routes_changed c ON c.callsign = l.callsign WHERE l.day >= ${day(from)}`];
  const slid = boardDaysChanged(ctx.windowStart, ctx.archiveThrough, from, prevFrom, prevThrough);
  if (slid.length) parts.push(`SELECT org, dst FROM legs WHERE day IN (${slid.map(day).join(', ')})`);
  const delta = deltaLegs(days);
  if (delta) parts.push(`SELECT org, dst FROM ${delta}`);
  await db.run(`CREATE OR REPLACE TEMP TABLE ap_changed AS
    WITH e AS (SELECT DISTINCT unnest([org, dst]) AS ident FROM (${parts.join(' UNION ALL ')}))
    SELECT DISTINCT r.iata FROM e JOIN ref_airports r ON r.ident = e.ident WHERE r.iata IS NOT NULL`);
  await db.run(`DROP TABLE ap_routes_changed`);
  return new Set((await allRows<{ iata: string }>(db, `SELECT iata FROM ap_changed`)).map((r) => r.iata));
}
