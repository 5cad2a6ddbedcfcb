// board rows: inferred slots labelled for people (IATA flight number, HH:MM), the other end filled
// from the routes table where coverage never heard it, and merged with the published timetable of
// the day: a published row that matches an observed slot (same flight or callsign, within 30 min)
// turns that row into `both`; unmatched published rows are shown as `published`, flights 0.
//
// this end's time is never null (spec 2.6: HH:MM strings). the time at the other end is this
// flight's own (arr_source / dep_source `observed`) when coverage heard it there, else this
// airport's time shifted by the route's typical block time as the network heard other flights fly
// it (`route`); an observed row whose other time neither gives keeps it null (a heard flight never
// leaves the board: docs/api.md "Board times"), a published row is left out (artifacts/AIRPORTS.md).
import { hhmm, parseHhmm } from '../lib/localtime.ts';
import { minuteDistance, type Slot } from './board.ts';
import type { PublishedArrival, PublishedDeparture } from './timetable-file.ts';
import type { RouteSource } from './routes-table.ts';

/** how close an observed and a published time must be to be the same flight, minutes */
const MATCH_MIN = 30;

type RowSource = 'observed' | 'published' | 'both';
/** where the time at the other end came from: this flight's own legs, or the route's typical block time */
type TimeSource = 'observed' | 'route';

export interface DepartureRow {
  flight: string;
  callsign: string | null;
  dst: string;
  dep: string;
  /** null when neither the flight's own landings nor the route's block time give it */
  arr: string | null;
  arr_source: TimeSource | null;
  type: string | null;
  flights: number;
  source: RowSource;
  route_source?: RouteSource;
}

export interface ArrivalRow {
  flight: string;
  callsign: string | null;
  org: string;
  /** null when neither the flight's own take-offs nor the route's block time give it */
  dep: string | null;
  dep_source: TimeSource | null;
  arr: string;
  type: string | null;
  flights: number;
  source: RowSource;
  route_source?: RouteSource;
}

/** What the board needs of a routes table entry (artifacts/routes-table.ts RouteEntry), IATA codes. */
interface RouteEnds {
  org: string;
  dst: string;
  route_source: RouteSource;
}

export interface RowLookups {
  /** IATA flight number of a callsign, null for non-airline callsigns (then the callsign is shown) */
  flightOf(callsign: string): string | null;
  /** the routes table, used only where the slot's legs never heard the other end */
  routeOf(callsign: string): RouteEnds | undefined;
  /** typical gate-to-gate minutes from org to dst (IATA) as the network heard flights fly it; null when never heard */
  blockMinutes(org: string, dst: string): number | null;
}

/** the other end's minute of the day: the slot's own, else this end's shifted by the route's block time */
function otherMinute(own: number | null, here: number, block: number | null, sign: 1 | -1): { minute: number; from: TimeSource } | null {
  if (own !== null) return { minute: own, from: 'observed' };
  if (block === null) return null;
  return { minute: (((here + sign * block) % 1440) + 1440) % 1440, from: 'route' };
}

interface Labelled {
  slot: Slot;
  end: string;
  route_source: RouteSource;
}

// the other end: observed in the slot's legs, else the routes table's answer (labelled by its source)
function label(slots: readonly Slot[], side: 'org' | 'dst', lk: RowLookups): Labelled[] {
  const out: Labelled[] = [];
  for (const slot of slots) {
    if (slot.end) {
      out.push({ slot, end: slot.end, route_source: 'observed' });
      continue;
    }
    const r = lk.routeOf(slot.callsign);
    const end = r?.[side];
    if (r && end) out.push({ slot, end, route_source: r.route_source });
    // no end known anywhere: the row would say nothing about where it goes, so it is left out
  }
  return out;
}

// pair each published row with the nearest unpaired observed row of the same flight or callsign
function pair<P extends { flight: string; callsign?: string }>(
  observed: readonly { flight: string; callsign: string | null; minute: number }[],
  published: readonly P[],
  minuteOf: (p: P) => number,
): Map<P, number> {
  const taken = new Set<number>();
  const out = new Map<P, number>();
  for (const p of published) {
    const pm = minuteOf(p);
    let best = -1;
    let bestD = MATCH_MIN + 1;
    observed.forEach((o, i) => {
      if (taken.has(i)) return;
      const same = p.callsign ? p.callsign === o.callsign : p.flight === o.flight;
      const d = minuteDistance(o.minute, pm);
      if (same && d < bestD) [best, bestD] = [i, d];
    });
    if (best >= 0) {
      taken.add(best);
      out.set(p, best);
    }
  }
  return out;
}

/**
 * board order: by time, then flight number, then callsign, then the other end. two callsigns can
 * share a flight number (DLH8161 and GEC8161 are both LH8161) and a minute; without the callsign the
 * order of such rows was the order the slots came in, which DuckDB does not fix, so two builds of
 * one log could differ.
 */
const byTimeThenFlight = (time: (r: BoardRow) => string | null, end: (r: BoardRow) => string) => (a: BoardRow, b: BoardRow) => {
  const ka = [time(a) ?? '', a.flight, a.callsign ?? '', end(a)];
  const kb = [time(b) ?? '', b.flight, b.callsign ?? '', end(b)];
  for (let i = 0; i < ka.length; i++) if (ka[i] !== kb[i]) return ka[i]! < kb[i]! ? -1 : 1;
  return 0;
};

type BoardRow = { flight: string; callsign: string | null; dep: string | null; arr: string | null; dst?: string; org?: string };

/** The departure board of airport `here` (IATA): typical departures merged with the day's published departures, sorted by dep. */
export function departureRows(here: string, slots: readonly Slot[], published: readonly PublishedDeparture[], lk: RowLookups): DepartureRow[] {
  const rows: DepartureRow[] = [];
  for (const { slot, end, route_source } of label(slots, 'dst', lk)) {
    const arr = otherMinute(slot.other, slot.at, lk.blockMinutes(here, end), 1);
    rows.push({
      flight: lk.flightOf(slot.callsign) ?? slot.callsign,
      callsign: slot.callsign,
      dst: end,
      dep: hhmm(slot.at),
      arr: arr ? hhmm(arr.minute) : null,
      arr_source: arr?.from ?? null,
      type: slot.type,
      flights: slot.flights,
      source: 'observed',
      route_source,
    });
  }
  return mergeDepartures(here, rows, published, lk.blockMinutes);
}

/**
 * Merges a day's published departures into observed rows (all `source: observed`): the rolled
 * board of a new local day starts from the observed rows of the document (artifacts/airport-roll.ts).
 */
export function mergeDepartures(
  here: string,
  observed: readonly DepartureRow[],
  published: readonly PublishedDeparture[],
  blockMinutes: RowLookups['blockMinutes'],
): DepartureRow[] {
  const rows = observed.map((r) => ({ ...r }));
  const obs = rows.map((r) => ({ flight: r.flight, callsign: r.callsign, minute: parseHhmm(r.dep)! }));
  const matched = pair(obs, published, (p) => parseHhmm(p.dep)!);
  for (const p of published) {
    const i = matched.get(p);
    if (i !== undefined) rows[i]!.source = 'both';
    else {
      const arr = otherMinute(null, parseHhmm(p.dep)!, blockMinutes(here, p.dst), 1);
      if (arr)
        rows.push({
          flight: p.flight,
          callsign: p.callsign ?? null,
          dst: p.dst,
          dep: p.dep,
          arr: hhmm(arr.minute),
          arr_source: arr.from,
          type: p.type ?? null,
          flights: 0,
          source: 'published',
        });
    }
  }
  return rows.sort(
    byTimeThenFlight(
      (r) => r.dep,
      (r) => r.dst ?? '',
    ),
  );
}

/** The arrivals board of airport `here` (IATA): typical arrivals merged with the day's published arrivals, sorted by arr. */
export function arrivalRows(here: string, slots: readonly Slot[], published: readonly PublishedArrival[], lk: RowLookups): ArrivalRow[] {
  const rows: ArrivalRow[] = [];
  for (const { slot, end, route_source } of label(slots, 'org', lk)) {
    const dep = otherMinute(slot.other, slot.at, lk.blockMinutes(end, here), -1);
    rows.push({
      flight: lk.flightOf(slot.callsign) ?? slot.callsign,
      callsign: slot.callsign,
      org: end,
      dep: dep ? hhmm(dep.minute) : null,
      dep_source: dep?.from ?? null,
      arr: hhmm(slot.at),
      type: slot.type,
      flights: slot.flights,
      source: 'observed',
      route_source,
    });
  }
  return mergeArrivals(here, rows, published, lk.blockMinutes);
}

/** Merges a day's published arrivals into observed rows (all `source: observed`), as mergeDepartures. */
export function mergeArrivals(
  here: string,
  observed: readonly ArrivalRow[],
  published: readonly PublishedArrival[],
  blockMinutes: RowLookups['blockMinutes'],
): ArrivalRow[] {
  const rows = observed.map((r) => ({ ...r }));
  const obs = rows.map((r) => ({ flight: r.flight, callsign: r.callsign, minute: parseHhmm(r.arr)! }));
  const matched = pair(obs, published, (p) => parseHhmm(p.arr)!);
  for (const p of published) {
    const i = matched.get(p);
    if (i !== undefined) rows[i]!.source = 'both';
    else {
      const dep = otherMinute(null, parseHhmm(p.arr)!, blockMinutes(p.org, here), -1);
      if (dep)
        rows.push({
          flight: p.flight,
          callsign: p.callsign ?? null,
          org: p.org,
          dep: hhmm(dep.minute),
          dep_source: dep.from,
          arr: p.arr,
          type: p.type ?? null,
          flights: 0,
          source: 'published',
        });
    }
  }
  return rows.sort(
    byTimeThenFlight(
      (r) => r.arr,
      (r) => r.org ?? '',
    ),
  );
}

/** Busiest airlines on the departure board (spec: top 20): observed flights per airline ICAO. */
export function boardAirlines(rows: readonly DepartureRow[], airlineOf: (callsign: string) => string | null, top = 20): { icao: string; flights: number }[] {
  const counts = new Map<string, number>();
  for (const r of rows) {
    const icao = r.callsign ? airlineOf(r.callsign) : null;
    if (icao && r.flights > 0) counts.set(icao, (counts.get(icao) ?? 0) + r.flights);
  }
  return [...counts]
    .map(([icao, flights]) => ({ icao, flights }))
    .sort((a, b) => b.flights - a.flights || (a.icao < b.icao ? -1 : 1))
    .slice(0, top);
}
