// the flights document of one airframe-day (schemas/flights.schema.json): each flight the log holds
// for that airframe and UTC day, oldest first, with its ends, numbers and thinned track. pure: the
// flights step (build/steps/flights/) reads the rows, this shapes them.
import type { RouteSource } from './routes-table.ts';

/** one leg of the log, routed (legs_routed) and with its positions, as the flights step reads it */
export interface FlightRow {
  callsign: string | null;
  reg: string | null;
  type: string | null;
  first_ts: number;
  last_ts: number;
  dep_ts: number | null;
  arr_ts: number | null;
  org: string | null;
  dst: string | null;
  org_ident: string | null;
  dst_ident: string | null;
  route_source: RouteSource | null;
  dep_lat: number | null;
  dep_lon: number | null;
  arr_lat: number | null;
  arr_lon: number | null;
  /** null where the log has no runway column yet */
  dep_runway: string | null;
  arr_runway: string | null;
  distance_km: number | null;
  max_alt_ft: number | null;
  circuit: boolean;
  /** [t, lat, lon, alt_baro, track], oldest first */
  track: FlightPoint[];
}

export type FlightPoint = [number, number, number, number | 'ground' | null, number | null];

interface FlightEnd {
  at: number;
  lat: number;
  lon: number;
  airport: string | null;
  runway: string | null;
}

export interface FlightsDoc {
  hex: string;
  date: string;
  reg: string | null;
  type: string | null;
  flights: ReturnType<typeof flightOf>[];
  coverage: 'observed';
}

/** A day's document from its rows (any order; at least one). reg/type: the latest heard that day. */
export function flightsDoc(hex: string, date: string, rows: readonly FlightRow[]): FlightsDoc {
  if (rows.length === 0) throw new Error(`flightsDoc ${hex} ${date}: no flights (a day without flights has no document)`);
  const sorted = [...rows].sort((a, b) => a.first_ts - b.first_ts);
  const latest = (k: 'reg' | 'type') => [...sorted].reverse().find((r) => r[k] !== null)?.[k] ?? null;
  return { hex, date, reg: latest('reg'), type: latest('type'), flights: sorted.map(flightOf), coverage: 'observed' };
}

function end(at: number | null, lat: number | null, lon: number | null, airport: string | null, runway: string | null): FlightEnd | null {
  return at === null || lat === null || lon === null ? null : { at, lat, lon, airport, runway };
}

function flightOf(r: FlightRow) {
  return {
    callsign: r.callsign,
    org: r.org,
    dst: r.dst,
    org_ident: r.org_ident,
    dst_ident: r.dst_ident,
    route_source: r.route_source,
    departure: end(r.dep_ts, r.dep_lat, r.dep_lon, r.org_ident, r.dep_runway),
    arrival: end(r.arr_ts, r.arr_lat, r.arr_lon, r.dst_ident, r.arr_runway),
    first_seen: r.first_ts,
    last_seen: r.last_ts,
    distance_km: r.distance_km,
    max_alt_ft: r.max_alt_ft,
    circuit: r.circuit,
    track: [...r.track].sort((a, b) => a[0] - b[0]),
  };
}
