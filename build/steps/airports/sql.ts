// the airport builder's aggregations, pushed into DuckDB: totals, traffic mix and busiest routes
// per airport over the whole window, and (callsign, airport) groups of the board window streamed
// chunk by chunk into the pure slot inference. JS only ever holds per-airport results.
import type { DuckDBConnection } from '@duckdb/node-api';
import { BOARD_RULES, inferSlots, type BoardLeg, type BoardRules, type Slot } from '../../../artifacts/board.ts';
import type { RouteCount, TrafficMix } from '../../../artifacts/airport-doc.ts';
import { TOP_ROUTES } from '../../../artifacts/airport-doc.ts';
import { dayIndexOf, isoDay } from '../../../lib/localtime.ts';
import { allRows, asJson, loadTable, sqlString, streamRows } from '../duck.ts';
import type { CountTable } from '../counts-fold.ts';
import { dayBitsAgg } from '../day-bits.ts';
import { AIRPORT_TABLES } from './step.ts';

const [TAILS, DESTS, ENDS] = AIRPORT_TABLES;

/** the airports aggregated by default: every one with an IATA code (a night may pass a subset, airports/changed.ts) */
const IATA_IDENTS = `(SELECT ident FROM ref_airports WHERE iata IS NOT NULL)`;

export interface AirportTotals {
  departures: number;
  destinations: number;
  tails: number;
  days_observed: number;
}

/**
 * `ap_mil(hex)`: the hexes of the window that lie in military ICAO blocks, and `ap_airlines(icao)`:
 * the airline designators, for the traffic mix. every hex of the window, also on a night that
 * aggregates some airports: ap_mil is only looked up, so picking the hexes of those airports' legs
 * (org IN ... OR dst IN ...) only made the query slower (the year's increments: 56.5 and 5.0 s
 * before the totals began, against 2.4 and 2.2 s for every hex; docs/perf-log/nightly-year-runs.md, day bits).
 */
export async function loadMixTables(db: DuckDBConnection, isMilitaryHex: (hex: string) => boolean, airlineIcaos: Iterable<string>): Promise<number> {
  const military: string[] = [];
  for await (const chunk of streamRows<{ hex: string }>(db, `SELECT DISTINCT hex FROM legs`)) {
    for (const { hex } of chunk) if (isMilitaryHex(hex)) military.push(hex);
  }
  await loadTable(
    db,
    'ap_mil',
    [['hex', 'VARCHAR']],
    military.map((h) => [h]),
  );
  await loadTable(
    db,
    'ap_airlines',
    [['icao', 'VARCHAR']],
    [...new Set(airlineIcaos)].map((i) => [i]),
  );
  return military.length;
}

/**
 * SQL: every leg end at an airport with an IATA code (ident, dep, other, hex, day, callsign) of the
 * legs `src` (alias l) that pass `where`, circuits (org = dst) left out
 */
const endsSql = (src: string, where: string) => `
  SELECT l.org AS ident, true AS dep, l.dst AS other, l.hex, l.day, l.callsign FROM ${src} l
  WHERE (${where}) AND l.org IS DISTINCT FROM l.dst AND l.org IN ${IATA_IDENTS}
  UNION ALL
  SELECT l.dst AS ident, false AS dep, l.org AS other, l.hex, l.day, l.callsign FROM ${src} l
  WHERE (${where}) AND l.dst IS DISTINCT FROM l.org AND l.dst IN ${IATA_IDENTS}`;

/**
 * The counts behind each airport's totals and traffic mix, kept between nights (counts-fold.ts):
 * the window's leg ends per (airport, airframe), per (airport, destination) of departures, and per
 * (airport, airline callsign or not) with their days. the distinct counts of the totals (tails,
 * destinations, days) are counted from these, so a night folds two days in and out instead of
 * grouping the window's ~95 M ends again (bench/airport-totals.ts). log counts only: the log's own
 * ends, no routing. an airline callsign: a designator of ap_airlines (loadMixTables), then a digit
 * (lib/reference/callsign.ts), on the callsign as the routes table keys it (upper(trim())).
 */
export const AIRPORT_COUNTS: CountTable[] = [
  { name: TAILS, routed: false, counts: (src, where) => `SELECT ident, hex, count(*)::INTEGER AS n FROM (${endsSql(src, where)}) GROUP BY ident, hex` },
  {
    name: DESTS,
    routed: false,
    days: true,
    counts: (src, where, ring) => `SELECT ident, other, count(*)::INTEGER AS n, ${dayBitsAgg('"day"', ring)} AS days
      FROM (${endsSql(src, where)}) WHERE dep GROUP BY ident, other`,
  },
  {
    name: ENDS,
    routed: false,
    days: true,
    counts: (src, where, ring) => `SELECT ident,
        coalesce(substr(callsign, 4, 1) BETWEEN '0' AND '9' AND substr(callsign, 1, 3) IN (SELECT icao FROM ap_airlines), false) AS airline,
        count(*)::INTEGER AS n, ${dayBitsAgg('"day"', ring)} AS days
      FROM (${endsSql(src, where)}) GROUP BY ident, airline`,
  },
];

/**
 * Totals and traffic mix per airport ident of `idents` (airports never heard are absent), from the
 * count tables of AIRPORT_COUNTS (prepareCounts). Until 2026-11-27 one GROUP BY over the window's
 * leg ends with the distinct counts in it: 17.5 s of a year's night for the ~5,300 airports it reaches.
 */
export async function airportTotals(db: DuckDBConnection, idents = IATA_IDENTS): Promise<Map<string, { totals: AirportTotals; mix: TrafficMix }>> {
  const rows = await allRows<{
    ident: string;
    departures: number;
    destinations: number;
    tails: number;
    days: number;
    movements: number;
    military: number;
    airline: number;
  }>(
    db,
    `WITH e AS (
       SELECT ident, sum(n)::INTEGER AS movements, coalesce(sum(n) FILTER (WHERE airline), 0)::INTEGER AS airline, bit_count(bit_or(days))::INTEGER AS days
       FROM ap_ends SEMI JOIN ${idents} i USING (ident) GROUP BY ident),
     t AS (
       SELECT ident, count(*)::INTEGER AS tails, coalesce(sum(n) FILTER (WHERE m.hex IS NOT NULL), 0)::INTEGER AS military
       FROM ap_tails SEMI JOIN ${idents} i USING (ident) LEFT JOIN ap_mil m USING (hex) GROUP BY ident),
     d AS (
       SELECT ident, sum(n)::INTEGER AS departures, count(other)::INTEGER AS destinations
       FROM ap_dests SEMI JOIN ${idents} i USING (ident) GROUP BY ident)
     SELECT e.ident, coalesce(d.departures, 0) AS departures, coalesce(d.destinations, 0) AS destinations, t.tails, e.days, e.movements, t.military, e.airline
     FROM e JOIN t USING (ident) LEFT JOIN d USING (ident)`,
  );
  const out = new Map<string, { totals: AirportTotals; mix: TrafficMix }>();
  for (const r of rows) {
    out.set(r.ident, {
      totals: { departures: r.departures, destinations: r.destinations, tails: r.tails, days_observed: r.days },
      mix: { movements: r.movements, military: r.military, airline: r.airline },
    });
  }
  return out;
}

/**
 * Busiest routes per origin ident of `idents`: top TOP_ROUTES IATA destinations by flights, then
 * code, with the days each was flown; from the departure counts of ap_dests (AIRPORT_COUNTS, so
 * before saveCounts drops them), the log's own ends as the totals count them. until 2026-11-27 a
 * GROUP BY of the window's legs: 5.4 s of a year's night for ~5,300 airports.
 */
export async function airportRoutes(db: DuckDBConnection, idents = IATA_IDENTS): Promise<Map<string, RouteCount[]>> {
  const out = new Map<string, RouteCount[]>();
  for await (const chunk of streamRows<{ ident: string; dst: string; flights: number; days: number }>(
    db,
    `SELECT d.ident, r.iata AS dst, sum(d.n)::INTEGER AS flights, bit_count(bit_or(d.days))::INTEGER AS days
     FROM ap_dests d SEMI JOIN ${idents} i USING (ident) JOIN ref_airports r ON r.ident = d.other AND r.iata IS NOT NULL
     GROUP BY d.ident, r.iata
     QUALIFY row_number() OVER (PARTITION BY d.ident ORDER BY sum(d.n) DESC, r.iata) <= ${TOP_ROUTES}
     ORDER BY ident, flights DESC, dst`,
  )) {
    for (const r of chunk) {
      const list = out.get(r.ident);
      const row = { dst: r.dst, flights: r.flights, days: r.days };
      if (list) list.push(row);
      else out.set(r.ident, [row]);
    }
  }
  return out;
}

/** block times outside this range are a leg cut wrong (a missed landing), not a flight: minutes */
const BLOCK_MIN = 10;
const BLOCK_MAX = 20 * 60;

/**
 * Typical minutes from take-off to landing per IATA route ("ZRH-LHR") over the board window, the
 * median of legs heard at both ends (circuits left out): where a board row's own flight was never
 * heard at its other end, its time there is this airport's time shifted by this (board-rows.ts).
 */
export async function routeBlockMinutes(db: DuckDBConnection, fromDay: string): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  for await (const chunk of streamRows<{ route: string; minutes: number }>(
    db,
    `SELECT ao.iata || '-' || ad.iata AS route, round(median((l.arr_ts - l.dep_ts) / 60.0))::INTEGER AS minutes
     FROM legs l JOIN ref_airports ao ON ao.ident = l.org AND ao.iata IS NOT NULL
                 JOIN ref_airports ad ON ad.ident = l.dst AND ad.iata IS NOT NULL
     WHERE l.day >= ${sqlString(fromDay)} AND l.dep_ts IS NOT NULL AND l.arr_ts IS NOT NULL AND l.org <> l.dst
       AND l.arr_ts - l.dep_ts BETWEEN ${BLOCK_MIN * 60} AND ${BLOCK_MAX * 60}
     GROUP BY ao.iata, ad.iata`,
  )) {
    for (const r of chunk) out.set(r.route, r.minutes);
  }
  return out;
}

/** First day of the board window: the last `rules.windowDays` days of the log. */
export function boardStart(archiveThrough: string, windowStart: string | null, rules: BoardRules = BOARD_RULES): string {
  const start = isoDay(dayIndexOf(archiveThrough) - (rules.windowDays - 1));
  return windowStart && windowStart > start ? windowStart : start;
}

/**
 * Typical departures ('dep') or arrivals ('arr') per airport ident of `idents` over the board window.
 * SQL groups the legs by (airport, callsign) and drops groups of one leg; JS infers the slots.
 */
export async function airportSlots(
  db: DuckDBConnection,
  side: 'dep' | 'arr',
  fromDay: string,
  tzOf: (ident: string) => string | null,
  idents = IATA_IDENTS,
  rules: BoardRules = BOARD_RULES,
): Promise<Map<string, Slot[]>> {
  const [here, there, atCol, otherCol] = side === 'dep' ? ['org', 'dst', 'dep_ts', 'arr_ts'] : ['dst', 'org', 'arr_ts', 'dep_ts'];
  const out = new Map<string, Slot[]>();
  for await (const chunk of streamRows<{ ident: string; callsign: string; legs: BoardLeg[] }>(
    db,
    `SELECT l.${here} AS ident, l.callsign,
       ${asJson(`list(struct_pack(at := l.${atCol}::DOUBLE, other := l.${otherCol}::DOUBLE, "end" := r.iata, type := l.type))`)} AS legs
     FROM legs l LEFT JOIN ref_airports r ON r.ident = l.${there}
     WHERE l.day >= ${sqlString(fromDay)} AND l.${here} IS NOT NULL AND l.${atCol} IS NOT NULL AND l.callsign IS NOT NULL
       AND l.${here} IS DISTINCT FROM l.${there} AND l.${here} IN ${idents}
     GROUP BY l.${here}, l.callsign
     HAVING count(*) >= ${rules.minDays}`,
    ['legs'],
  )) {
    for (const g of chunk) {
      const tz = tzOf(g.ident);
      if (!tz) continue;
      const slots = inferSlots(g.callsign, g.legs, tz, rules);
      if (slots.length === 0) continue;
      const list = out.get(g.ident);
      if (list) list.push(...slots);
      else out.set(g.ident, slots);
    }
  }
  return out;
}
