// the panels' models of the flight log (docs/map.md "Flights and movements"): which days an airframe
// was heard (its legs' dates), a day's flights as list rows and as lines to draw with their ends, and
// an airport-day's runway in use. pure: the panels and the flights layer draw what these return.
import type { Answer } from './api.ts';
import { utc } from './dom.ts';

/** the days listed for an airframe, newest first (a leg's `date` is its UTC day) */
const FLIGHT_DAYS = 14;

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** an airframe document's legs -> its distinct days, newest first, at most `limit`; malformed dates are left out */
export function flightDays(legs: readonly { date?: unknown }[] | null | undefined, limit = FLIGHT_DAYS): string[] {
  const days = new Set<string>();
  for (const l of legs ?? []) if (typeof l.date === 'string' && DAY.test(l.date)) days.add(l.date);
  return [...days].sort((a, b) => (a < b ? 1 : a > b ? -1 : 0)).slice(0, limit);
}

/** a flights or movements route's refusal in plain words (spec 7's codes); '' for an answer */
export function said(r: Answer<unknown>, what: string): string {
  if (r.ok) return '';
  if (r.error === 'not_observed') return `The network heard no ${what}.`;
  if (r.error === 'not_found') return `Nothing is known here: ${r.detail}.`;
  // api.ts's detail for no answer already says so ("the server did not answer: ...")
  if (r.status === 0) return `${r.detail.charAt(0).toUpperCase()}${r.detail.slice(1)}; try again.`;
  if (r.error === 'rate_limited') return `Too many requests just now${r.retryAfterS ? `; try again in ${r.retryAfterS} s` : ''}.`;
  return `The server could not answer (${r.error}): ${r.detail}.`;
}

/** the UTC day before the one holding `nowS` (the airport panel's "yesterday") */
export function yesterdayUtc(nowS: number): string {
  return new Date((Math.floor(nowS / 86400) - 1) * 86400 * 1000).toISOString().slice(0, 10);
}

/** one end of a flight (schemas/flights.schema.json `departure` / `arrival`) */
export interface FlightEnd {
  at: number;
  lat: number;
  lon: number;
  airport: string | null;
  runway: string | null;
}

export interface Flight {
  callsign: string | null;
  org: string | null;
  dst: string | null;
  org_ident: string | null;
  dst_ident: string | null;
  route_source: string | null;
  departure: FlightEnd | null;
  arrival: FlightEnd | null;
  first_seen: number;
  last_seen: number;
  distance_km: number | null;
  max_alt_ft: number | null;
  circuit: boolean;
  track: [number, number, number, number | 'ground' | null, number | null][];
}

export interface FlightsDoc {
  hex: string;
  date: string;
  reg: string | null;
  type: string | null;
  flights: Flight[];
}

/** "take-off 06:10:00Z LSZH 16": the end's time, airport and runway where known */
export function endLabel(kind: 'take-off' | 'landing', e: FlightEnd): string {
  return [kind, utc(e.at), e.airport, e.runway === null ? null : `rwy ${e.runway}`].filter(Boolean).join(' ');
}

const place = (iata: string | null, ident: string | null) => iata ?? ident ?? '?';

/** a day's flights as the list shows them, oldest first (by first heard) */
export function flightRows(doc: FlightsDoc): string[][] {
  return [...doc.flights]
    .sort((a, b) => a.first_seen - b.first_seen)
    .map((f) => [
      f.callsign ?? '–',
      `${place(f.org, f.org_ident)} → ${place(f.dst, f.dst_ident)}${f.circuit ? ' (circuit)' : ''}`,
      f.route_source ?? '–',
      f.departure ? utc(f.departure.at) : `first heard ${utc(f.first_seen)}`,
      f.arrival ? utc(f.arrival.at) : `last heard ${utc(f.last_seen)}`,
      [f.departure?.runway ?? '–', f.arrival?.runway ?? '–'].join(' / '),
    ]);
}

export interface FlightLine {
  /** [lat, lon] points, longitudes unwrapped so no step crosses more than 180° (a line over the antimeridian stays short) */
  points: [number, number][];
  takeoff: { lat: number; lon: number; label: string } | null;
  landing: { lat: number; lon: number; label: string } | null;
}

/** a longitude moved by whole turns to lie within 180° of `ref` */
const near = (lon: number, ref: number) => lon + Math.round((ref - lon) / 360) * 360;

/** each flight's track as a line to draw, with its heard take-off and landing marked; points without a position are skipped */
export function flightLines(doc: FlightsDoc): FlightLine[] {
  return doc.flights.map((f) => {
    const points: [number, number][] = [];
    for (const p of [...f.track].sort((a, b) => a[0] - b[0])) {
      const [lat, lon] = [p[1], p[2]];
      if (!Number.isFinite(lat) || !Number.isFinite(lon)) continue;
      const prev = points[points.length - 1];
      points.push([lat, prev ? near(lon, prev[1]) : lon]);
    }
    const mark = (e: FlightEnd | null, kind: 'take-off' | 'landing', ref: number | undefined) =>
      e ? { lat: e.lat, lon: ref === undefined ? e.lon : near(e.lon, ref), label: endLabel(kind, e) } : null;
    return {
      points,
      takeoff: mark(f.departure, 'take-off', points[0]?.[1]),
      landing: mark(f.arrival, 'landing', points[points.length - 1]?.[1]),
    };
  });
}

/** the movements document's per-runway counts (schemas/movements.schema.json `counts.runways`) */
export type RunwayCounts = Record<string, { takeoffs: number; landings: number }>;

export interface RunwayUse {
  /** one row per runway: most movements first, ties by name; the unknown runway last */
  rows: { runway: string; takeoffs: number; landings: number }[];
  /** the known runway most take-offs used, and the one most landings used (null: none known, or two tie) */
  takeoffs: string | null;
  landings: string | null;
}

/** which runway was in use: the runway a kind of movement used most that day; a tie names none (never a guess) */
export function runwayUse(counts: RunwayCounts, unknown = 'unknown'): RunwayUse {
  const rows = Object.entries(counts).map(([runway, c]) => ({ runway, takeoffs: c.takeoffs, landings: c.landings }));
  rows.sort(
    (a, b) =>
      Number(a.runway === unknown) - Number(b.runway === unknown) ||
      b.takeoffs + b.landings - (a.takeoffs + a.landings) ||
      (a.runway < b.runway ? -1 : a.runway > b.runway ? 1 : 0),
  );
  const top = (k: 'takeoffs' | 'landings') => {
    const known = rows.filter((r) => r.runway !== unknown && r[k] > 0).sort((a, b) => b[k] - a[k]);
    return known.length === 0 || (known.length > 1 && known[1]![k] === known[0]![k]) ? null : known[0]!.runway;
  };
  return { rows, takeoffs: top('takeoffs'), landings: top('landings') };
}

/** a movement's row in the airport panel: local time, UTC, kind, callsign, runway, the other end with its route_source */
export function movementRow(m: {
  at: number;
  local: string;
  kind: string;
  callsign: string | null;
  hex: string;
  runway: string | null;
  org?: string | null;
  dst?: string | null;
  org_ident?: string | null;
  dst_ident?: string | null;
  route_source: string | null;
  circuit: boolean;
}): string[] {
  const other = m.kind === 'takeoff' ? `to ${place(m.dst ?? null, m.dst_ident ?? null)}` : `from ${place(m.org ?? null, m.org_ident ?? null)}`;
  return [
    m.local.slice(11, 16),
    utc(m.at).slice(0, 5) + 'Z',
    m.kind === 'takeoff' ? 'take-off' : 'landing',
    m.callsign ?? m.hex,
    m.runway ?? '–',
    `${other}${m.circuit ? ' (circuit)' : ''}${m.route_source ? ` · ${m.route_source}` : ''}`,
  ];
}
