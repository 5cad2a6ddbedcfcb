// the airports the map draws: every airport the published build wrote a document for
// (/v1/airports/{code}, one per IATA code), with its ICAO code and position from the build's
// meta/lookup, and its kind and name from the shipped OurAirports data (lib/reference/fields.ts),
// so the map can size an airport and name it (docs/api.md "Airports on the map"). compact rows,
// since the map loads all of them at once (about 9,000: ~200 KB gzipped with the names).
import type { Lookup } from '../../artifacts/meta.ts';
import type { NamedAirport } from '../../lib/reference/fields.ts';

/** [iata, icao or null, lat, lon, kind, name]; kind and name '' when the reference data lacks the code */
type MapAirport = [string, string | null, number, number, string, string];

export interface MapAirports {
  build_id: string;
  airports: MapAirport[];
}

/** The airports of one build, sorted by IATA code; an airport without an ICAO code gets null. */
export function mapAirports(buildId: string, lookup: Lookup | null, named: ReadonlyMap<string, NamedAirport> = new Map()): MapAirports {
  if (!lookup) return { build_id: buildId, airports: [] };
  const icaoOf = new Map<string, string>();
  for (const [icao, iata] of Object.entries(lookup.airports_icao_to_iata)) icaoOf.set(iata, icao);
  const airports = Object.entries(lookup.airport_positions)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([iata, [lat, lon]]): MapAirport => {
      const n = named.get(iata);
      return [iata, icaoOf.get(iata) ?? null, lat, lon, n?.kind ?? '', n?.name ?? ''];
    });
  return { build_id: buildId, airports };
}
