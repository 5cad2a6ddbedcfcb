// the airport builder's aggregations, pushed into DuckDB: totals, traffic mix and busiest routes
// per airport over the whole window, and (callsign, airport) groups of the board window streamed
// chunk by chunk into the pure slot inference. JS only ever holds per-airport results.
import type { DuckDBConnection } from '@duckdb/node-api';
import { BOARD_RULES, inferSlots, type BoardLeg, type BoardRules, type Slot } from '../../artifacts/board.ts';
import type { RouteCount, TrafficMix } from '../../artifacts/airport.ts';
import { TOP_ROUTES } from '../../artifacts/airport.ts';
import { dayIndexOf, isoDay } from '../../lib/localtime.ts';
import { allRows, asJson, loadTable, sqlString, streamRows } from './duck.ts';

// every leg end at an airport with an IATA code, circuits (org = dst) left out
const ENDS = `
  SELECT org AS ident, true AS dep, dst AS other, hex, day, callsign FROM legs WHERE org IS NOT NULL AND org IS DISTINCT FROM dst
  UNION ALL
  SELECT dst AS ident, false AS dep, org AS other, hex, day, callsign FROM legs WHERE dst IS NOT NULL AND dst IS DISTINCT FROM org`;
/** the airports aggregated by default: every one with an IATA code (a night may pass a subset, airports-changed.ts) */
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
 * before the totals began, against 2.4 and 2.2 s for every hex; README, issue 14).
 */
export async function loadMixTables(db: DuckDBConnection, isMilitaryHex: (hex: string) => boolean, airlineIcaos: Iterable<string>): Promise<number> {
  const military: string[] = [];
  for await (const chunk of streamRows<{ hex: string }>(db, `SELECT DISTINCT hex FROM legs`)) {
    for (const { hex } of chunk) if (isMilitaryHex(hex)) military.push(hex);
  }
  await loadTable(db, 'ap_mil', [['hex', 'VARCHAR']], military.map((h) => [h]));
  await loadTable(db, 'ap_airlines', [['icao', 'VARCHAR']], [...new Set(airlineIcaos)].map((i) => [i]));
  return military.length;
}

/**
 * Totals and traffic mix per airport ident of `idents` (airports never heard are absent), in one
 * GROUP BY over the leg ends with the distinct counts in it. Until 2026-11-26 the ends were made a
 * temp table (the year: about 95 M rows) and DISTINCT pairs counted from it (bench/airport-totals.ts).
 */
export async function airportTotals(db: DuckDBConnection, idents = IATA_IDENTS): Promise<Map<string, { totals: AirportTotals; mix: TrafficMix }>> {
  const rows = await allRows<{ ident: string; departures: number; destinations: number; tails: number; days: number; movements: number; military: number; airline: number }>(
    db,
    `SELECT e.ident, count(*) FILTER (WHERE e.dep) AS departures, count(*) AS movements,
       count(*) FILTER (WHERE m.hex IS NOT NULL) AS military,
       -- an airline callsign: a known airline designator, then a digit (lib/reference/callsign.ts)
       count(*) FILTER (WHERE al.icao IS NOT NULL AND substr(e.callsign, 4, 1) BETWEEN '0' AND '9') AS airline,
       count(DISTINCT e.hex) AS tails, count(DISTINCT e.day) AS days,
       count(DISTINCT e.other) FILTER (WHERE e.dep) AS destinations
     FROM (${ENDS}) e
     SEMI JOIN ${idents} i ON i.ident = e.ident
     LEFT JOIN ap_mil m ON m.hex = e.hex
     LEFT JOIN ap_airlines al ON al.icao = substr(e.callsign, 1, 3)
     GROUP BY e.ident`,
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

/** Busiest routes per origin ident of `idents`: top TOP_ROUTES IATA destinations by flights, then code. */
export async function airportRoutes(db: DuckDBConnection, idents = IATA_IDENTS): Promise<Map<string, RouteCount[]>> {
  const out = new Map<string, RouteCount[]>();
  for await (const chunk of streamRows<{ ident: string; dst: string; flights: number; days: number }>(
    db,
    `SELECT l.org AS ident, r.iata AS dst, count(*) AS flights, count(DISTINCT l.day) AS days
     FROM legs l JOIN ref_airports r ON r.ident = l.dst AND r.iata IS NOT NULL
     WHERE l.org IS NOT NULL AND l.org <> l.dst AND l.org IN ${idents}
     GROUP BY l.org, r.iata
     QUALIFY row_number() OVER (PARTITION BY l.org ORDER BY count(*) DESC, r.iata) <= ${TOP_ROUTES}
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
