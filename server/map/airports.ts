// the airports the map draws: every airport the published build wrote a document for
// (/v1/airports/{code}, one per IATA code), with its ICAO code and position, from the build's
// meta/lookup. compact rows, since the map loads all of them at once (about 9,000: ~90 KB gzipped).
import type { Lookup } from '../../artifacts/meta.ts';

/** [iata, icao or null, lat, lon] */
type MapAirport = [string, string | null, number, number];

export interface MapAirports {
  build_id: string;
  airports: MapAirport[];
}

/** The airports of one build, sorted by IATA code; an airport without an ICAO code gets null. */
export function mapAirports(buildId: string, lookup: Lookup | null): MapAirports {
  if (!lookup) return { build_id: buildId, airports: [] };
  const icaoOf = new Map<string, string>();
  for (const [icao, iata] of Object.entries(lookup.airports_icao_to_iata)) icaoOf.set(iata, icao);
  const airports = Object.entries(lookup.airport_positions)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([iata, [lat, lon]]): MapAirport => [iata, icaoOf.get(iata) ?? null, lat, lon]);
  return { build_id: buildId, airports };
}
