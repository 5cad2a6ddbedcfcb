// the slice of reference data the route, airframe and refdata artifacts read, as one small
// interface: the pure builders depend on this, tests hand-make it, and artifacts/reference-view-adapter.ts
// adapts the loaded lib/reference to it (one place to follow changes in the loaders).
import type { Airport } from '../lib/reference/airports.ts';

/** an airport as lib/reference loads it (OurAirports row + Olson zone) */
export type AirportRef = Airport;

export interface RunwayRef {
  le_ident: string | null;
  he_ident: string | null;
  length_ft: number | null;
  width_ft: number | null;
  surface: string | null;
  lighted: boolean | null;
  closed: boolean;
  le: { lat: number; lon: number } | null;
  he: { lat: number; lon: number } | null;
}

export interface AirlineRef {
  icao: string;
  iata: string | null;
  name: string;
  /** ISO 3166-1 alpha-2, from the same row as the name (lib/reference/airlines.ts); null when that row gives none */
  country: string | null;
  telephony: string | null;
}

export interface TypeRef {
  designator: string;
  manufacturer: string | null;
  model: string | null;
  /** manufacturer + model */
  name: string | null;
  /** narrow, wide, regional, turboprop, piston, helicopter, business, ... (lib/reference rule) */
  category: string | null;
  /** engine count; null for unknown or "C" (combined) */
  engines: number | null;
  engine_type: string | null;
  engine_placement: string | null;
  species: string | null;
  wake: string | null;
  active: boolean;
}

export interface RegistryRef {
  hex: string;
  reg: string | null;
  type: string | null;
  operator: string | null;
  /** airline ICAO code of the operator, as the registry gives it */
  airline: string | null;
  serial: string | null;
  year: number | null;
  /** provenance of the row, e.g. vrs-standing-data:aircraft.csv */
  source: string;
}

export interface RefView {
  airport(ident: string): AirportRef | null;
  /** by the code the route catalog uses: ICAO (4 characters) or IATA (3 letters) */
  airportByCode(code: string): AirportRef | null;
  runways(ident: string): RunwayRef[];
  airline(icao: string): AirlineRef | null;
  /** IATA flight number of an airline callsign (DAL1234 -> DL1234), null otherwise */
  flightNumber(callsign: string): string | null;
  type(designator: string): TypeRef | null;
  registry(hex: string): RegistryRef | null;
  /** ISO alpha-2 state of registration from the smallest code block; null for unallocated / ICAO blocks */
  countryOfHex(hex: string): string | null;
  /** true when the smallest code block holding the hex is a military one (state aircraft) */
  isMilitaryHex(hex: string): boolean;
  allAirports(): Iterable<AirportRef>;
  allAirlines(): Iterable<AirlineRef>;
  allTypes(): Iterable<TypeRef>;
  allRegistry(): Iterable<RegistryRef>;
  /** the community route catalog: callsign (as the catalog normalises it) and airport codes in flight order */
  catalogRows(): Iterable<{ callsign: string; airports: readonly string[] }>;
  /** the catalog row of a callsign as broadcast (normalised the catalog's way), or null */
  catalogRoute(callsign: string): string[] | null;
  /** the callsign as the catalog keys it (EZY0012 -> EZY12), or null when not airline-shaped */
  catalogKey(callsign: string): string | null;
}
