// adapts the loaded reference data (lib/reference) to the RefView the route, airframe and refdata
// artifacts read.
import type { Refdata } from '../lib/reference/index.ts';
import type { RegistryEntry } from '../lib/reference/registry.ts';
import { normaliseCallsign } from '../lib/reference/callsign.ts';
import type { AirlineRef, AirportRef, RefView, RegistryRef, RunwayRef, TypeRef } from './reference-view.ts';

export function refViewOf(r: Refdata): RefView {
  const runways = new Map<string, RunwayRef[]>();
  for (const w of r.runways) {
    const ref: RunwayRef = {
      le_ident: w.le_ident,
      he_ident: w.he_ident,
      length_ft: w.length_ft,
      width_ft: w.width_ft,
      surface: w.surface,
      lighted: w.lighted,
      closed: w.closed,
      le: w.le,
      he: w.he,
    };
    const list = runways.get(w.airport_ident);
    if (list) list.push(ref);
    else runways.set(w.airport_ident, [ref]);
  }
  const airline = (icao: string): AirlineRef | null => {
    const a = r.airlines.byIcao(icao);
    return a ? { icao: a.icao, iata: a.iata, name: a.name, country: a.country, telephony: a.telephony } : null;
  };
  const type = (designator: string): TypeRef | null => {
    const t = r.types.get(designator);
    return t ? typeRef(t) : null;
  };
  const typeRef = (t: NonNullable<ReturnType<Refdata['types']['get']>>): TypeRef => ({
    designator: t.designator,
    manufacturer: t.manufacturer || null,
    model: t.model || null,
    name: t.name || null,
    category: t.category,
    engines: t.engines,
    engine_type: t.engine_type,
    engine_placement: t.engine_placement,
    species: t.species,
    wake: t.wake,
    active: true,
  });
  const registryRef = (e: RegistryEntry): RegistryRef => ({
    hex: e.hex,
    reg: e.reg,
    type: e.type,
    operator: e.operator,
    airline: e.airline_code,
    serial: e.serial,
    year: e.year,
    source: e.source,
  });
  return {
    airport: (ident) => r.airports.byIdent(ident) as AirportRef | null,
    airportByCode: (code) => r.airports.lookup(code) as AirportRef | null,
    runways: (ident) => runways.get(ident) ?? [],
    airline,
    flightNumber: (cs) => r.airlines.flightNumberFromCallsign(cs),
    type,
    registry: (hex) => {
      const e = r.registry.get(hex);
      return e ? registryRef(e) : null;
    },
    *allRegistry() {
      for (const e of r.registry.all()) yield registryRef(e);
    },
    countryOfHex: (hex) => r.codeBlocks.countryOfHex(hex),
    isMilitaryHex: (hex) => r.codeBlocks.isMilitaryHex(hex),
    allAirports: () => r.airports.all as readonly AirportRef[],
    *allAirlines() {
      for (const a of r.airlines.all) yield { icao: a.icao, iata: a.iata, name: a.name, country: a.country, telephony: a.telephony };
    },
    *allTypes() {
      for (const t of r.types.all()) yield typeRef(t);
    },
    catalogRows: () => r.catalog.rows(),
    catalogRoute: (cs) => r.catalog.route(cs),
    catalogKey: (cs) => normaliseCallsign(cs),
  };
}
