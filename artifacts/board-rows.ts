// board rows: inferred slots labelled for people (IATA flight number, HH:MM), the other end filled
// from the routes table where coverage never heard it, and merged with the published timetable of
// the day: a published row that matches an observed slot (same flight or callsign, within 30 min)
// turns that row into `both`; unmatched published rows are shown as `published`, flights 0.
import { hhmm, parseHhmm } from '../lib/localtime.ts';
import { minuteDistance, type Slot } from './board.ts';
import type { PublishedArrival, PublishedDeparture } from './timetable.ts';
import type { RouteSource } from './flight-routes.ts';

/** how close an observed and a published time must be to be the same flight, minutes */
const MATCH_MIN = 30;

type RowSource = 'observed' | 'published' | 'both';

export interface DepartureRow {
  flight: string;
  callsign: string | null;
  dst: string;
  dep: string;
  arr: string | null;
  type: string | null;
  flights: number;
  source: RowSource;
  route_source?: RouteSource;
}

export interface ArrivalRow {
  flight: string;
  callsign: string | null;
  org: string;
  dep: string | null;
  arr: string;
  type: string | null;
  flights: number;
  source: RowSource;
  route_source?: RouteSource;
}

/** What the board needs of a routes table entry (artifacts/flight-routes.ts RouteEntry), IATA codes. */
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

const byTimeThenFlight = (time: (r: { dep: string | null; arr: string | null }) => string | null) =>
  (a: { flight: string; dep: string | null; arr: string | null }, b: { flight: string; dep: string | null; arr: string | null }) => {
    const ta = time(a) ?? '';
    const tb = time(b) ?? '';
    return ta < tb ? -1 : ta > tb ? 1 : a.flight < b.flight ? -1 : a.flight > b.flight ? 1 : 0;
  };

/** The departure board: typical departures merged with the day's published departures, sorted by dep. */
export function departureRows(slots: readonly Slot[], published: readonly PublishedDeparture[], lk: RowLookups): DepartureRow[] {
  const rows: DepartureRow[] = label(slots, 'dst', lk).map(({ slot, end, route_source }) => ({
    flight: lk.flightOf(slot.callsign) ?? slot.callsign,
    callsign: slot.callsign,
    dst: end,
    dep: hhmm(slot.at),
    arr: slot.other === null ? null : hhmm(slot.other),
    type: slot.type,
    flights: slot.flights,
    source: 'observed',
    route_source,
  }));
  const obs = rows.map((r) => ({ flight: r.flight, callsign: r.callsign, minute: parseHhmm(r.dep)! }));
  const matched = pair(obs, published, (p) => parseHhmm(p.dep)!);
  for (const p of published) {
    const i = matched.get(p);
    if (i !== undefined) rows[i]!.source = 'both';
    else rows.push({ flight: p.flight, callsign: p.callsign ?? null, dst: p.dst, dep: p.dep, arr: null, type: p.type ?? null, flights: 0, source: 'published' });
  }
  return rows.sort(byTimeThenFlight((r) => r.dep));
}

/** The arrivals board: typical arrivals merged with the day's published arrivals, sorted by arr. */
export function arrivalRows(slots: readonly Slot[], published: readonly PublishedArrival[], lk: RowLookups): ArrivalRow[] {
  const rows: ArrivalRow[] = label(slots, 'org', lk).map(({ slot, end, route_source }) => ({
    flight: lk.flightOf(slot.callsign) ?? slot.callsign,
    callsign: slot.callsign,
    org: end,
    dep: slot.other === null ? null : hhmm(slot.other),
    arr: hhmm(slot.at),
    type: slot.type,
    flights: slot.flights,
    source: 'observed',
    route_source,
  }));
  const obs = rows.map((r) => ({ flight: r.flight, callsign: r.callsign, minute: parseHhmm(r.arr)! }));
  const matched = pair(obs, published, (p) => parseHhmm(p.arr)!);
  for (const p of published) {
    const i = matched.get(p);
    if (i !== undefined) rows[i]!.source = 'both';
    else rows.push({ flight: p.flight, callsign: p.callsign ?? null, org: p.org, dep: null, arr: p.arr, type: p.type ?? null, flights: 0, source: 'published' });
  }
  return rows.sort(byTimeThenFlight((r) => r.arr));
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
