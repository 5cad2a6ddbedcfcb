// the airports /v1/airports/{code} serves, with the ICAO spelling each is also written under: one
// per IATA code (the index's choice when the dataset repeats a code), in IATA order. the airports
// step writes their documents; the movements step (build/steps/movements/) writes under the same keys.
import type { AirportRef } from '../../../artifacts/airport-doc.ts';
import type { BuildContext } from '../context.ts';

const ICAO_KEY = /^[A-Z]{4}$/;

/** The ICAO spelling an airport is also served under: its ICAO code, else a 4-letter ident. */
export function icaoKeyOf(a: { icao: string | null; ident: string }): string | null {
  if (a.icao && ICAO_KEY.test(a.icao)) return a.icao;
  return ICAO_KEY.test(a.ident) ? a.ident : null;
}

/** icaoKey: the second key, null when the airport has none or an IATA code (or an earlier airport) already spells it */
export function servedAirports(ctx: Pick<BuildContext, 'ref' | 'refdata'>): (AirportRef & { icaoKey: string | null })[] {
  const airports: (AirportRef & { icaoKey: string | null })[] = [];
  for (const a of ctx.ref.allAirports()) {
    if (!a.iata || ctx.refdata.airports.byIata(a.iata)?.ident !== a.ident) continue;
    airports.push({ ...a, iata: a.iata, icaoKey: icaoKeyOf(a) });
  }
  airports.sort((x, y) => (x.iata < y.iata ? -1 : 1));
  const used = new Set(airports.map((a) => a.iata));
  for (const a of airports) {
    if (a.icaoKey && !used.has(a.icaoKey)) used.add(a.icaoKey);
    else a.icaoKey = null;
  }
  return airports;
}
