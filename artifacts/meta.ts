// the server-only meta/* documents (schemas/artifact-kinds.ts), each as a typed encode/decode
// pair: the build encodes, the live server decodes, and both stand on these types. the estimate
// accuracy pair lives with its type in artifacts/estimate-accuracy.ts.
import type { RefView } from './reference-view.ts';
import type { RouteSource, RoutesTable } from './routes-table.ts';
import { normaliseCallsign } from '../lib/reference/callsign.ts';

const ROUTE_SOURCES: ReadonlySet<string> = new Set<RouteSource>(['observed', 'observed+catalog', 'catalog']);
const IATA = /^[A-Z0-9]{3}$/;

/** meta/routes (schemas/routes-table.schema.json): callsign -> [org IATA, dst IATA, route_source] */
export type RoutesTableDoc = Record<string, readonly [string, string, RouteSource]>;
/** the routes table as the server holds it */
export type ServedRoutes = Map<string, readonly [string, string, RouteSource]>;

/** keys sorted, so an unchanged table is the same bytes (and the same object hash) every night */
export function encodeRoutesTable(table: RoutesTable): RoutesTableDoc {
  const out: Record<string, [string, string, RouteSource]> = {};
  for (const cs of [...table.keys()].sort()) {
    const e = table.get(cs)!;
    out[cs] = [e.org, e.dst, e.route_source];
  }
  return out;
}

/** the table back from its document; throws on a malformed document (the build that wrote it is broken) */
export function decodeRoutesTable(doc: unknown): ServedRoutes {
  if (!doc || typeof doc !== 'object' || Array.isArray(doc)) throw new Error('meta/routes is not an object of callsigns');
  const m: ServedRoutes = new Map();
  for (const [cs, v] of Object.entries(doc)) {
    if (!Array.isArray(v) || v.length !== 3 || !IATA.test(v[0]) || !IATA.test(v[1]) || !ROUTE_SOURCES.has(v[2])) {
      throw new Error(`meta/routes: the entry of ${JSON.stringify(cs)} is not [org, dst, route_source]`);
    }
    m.set(cs, [v[0], v[1], v[2] as RouteSource]);
  }
  return m;
}

/**
 * The table as the server holds it after decoding meta/routes, made straight from the build's table:
 * the same entries as decodeRoutesTable(encodeRoutesTable(table)) without the round trip, which on a
 * catalog's 575,000 routes was 60-77 s of the nightly no step named (docs/perf-log/accuracy-memory.md).
 */
export function servedRoutesOf(table: RoutesTable): ServedRoutes {
  const m: ServedRoutes = new Map();
  for (const [cs, e] of table) m.set(cs, [e.org, e.dst, e.route_source]);
  return m;
}

/** meta/lookup (schemas/lookup.schema.json) */
export interface Lookup {
  /** ICAO airport code -> IATA, for /v1/airports/{code} */
  airports_icao_to_iata: Record<string, string>;
  /** IATA -> [lat, lon]: where /v1/estimated turns toward a route's destination */
  airport_positions: Record<string, [number, number]>;
  /** every airline designator of the reference data, sorted: the not_found / not_observed rule of /v1/route */
  airlines: string[];
}

/** what the server needs for ICAO airport codes, its 404 rule and the estimator's destinations */
export function encodeLookup(ref: Pick<RefView, 'allAirports' | 'airportByCode' | 'allAirlines'>): Lookup {
  const icao: Record<string, string> = {};
  const positions: Record<string, [number, number]> = {};
  for (const a of ref.allAirports()) {
    if (a.icao && a.iata && ref.airportByCode(a.icao) === a) icao[a.icao] = a.iata;
    // the airport a routes-table IATA code names (the same one the airport documents use)
    if (a.iata && ref.airportByCode(a.iata) === a) positions[a.iata] = [round5(a.lat), round5(a.lon)];
  }
  const airlines = [...ref.allAirlines()].map((a) => a.icao).sort();
  return { airports_icao_to_iata: sortKeys(icao), airport_positions: sortKeys(positions), airlines };
}

/** the lookup back from its document; throws on a malformed one */
export function decodeLookup(doc: unknown): Lookup {
  const d = doc as Partial<Lookup> | null;
  const isRecord = (x: unknown) => !!x && typeof x === 'object' && !Array.isArray(x);
  if (!d || !isRecord(d.airports_icao_to_iata) || !isRecord(d.airport_positions) || !Array.isArray(d.airlines)) {
    throw new Error('meta/lookup lacks airports_icao_to_iata, airport_positions or airlines');
  }
  return { airports_icao_to_iata: d.airports_icao_to_iata!, airport_positions: d.airport_positions!, airlines: d.airlines };
}

const round5 = (x: number) => Math.round(x * 1e5) / 1e5;
function sortKeys<T>(o: Record<string, T>): Record<string, T> {
  const out: Record<string, T> = {};
  for (const k of Object.keys(o).sort()) out[k] = o[k]!;
  return out;
}

/** The routes-table entry of a callsign: as broadcast (EZY012), else in the catalog's spelling
 * (EZY12: leading zeros of the number dropped), which is how catalog-only entries are keyed. */
export function routeEntryOf(routes: ServedRoutes, callsign: string): { key: string; entry: readonly [string, string, RouteSource] } | null {
  for (const key of [callsign, normaliseCallsign(callsign)]) {
    const entry = key ? routes.get(key) : undefined;
    if (key && entry) return { key, entry };
  }
  return null;
}

/** where an estimate turns: the callsign's route destination and its position */
export interface Destination {
  /** airport code as the routes table names it (IATA) */
  code: string;
  lat: number;
  lon: number;
}

/** The destination lookup of /v1/estimated, one for the live server and the nightly replay alike. */
export function destinationLookup(routes: ServedRoutes, lookup: Lookup | null): (callsign: string) => Destination | null {
  return (callsign) => {
    const dst = routeEntryOf(routes, callsign)?.entry[1];
    const pos = dst ? lookup?.airport_positions[dst] : undefined;
    return dst && pos ? { code: dst, lat: pos[0], lon: pos[1] } : null;
  };
}
