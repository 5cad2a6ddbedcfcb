// the airfield knowledge the take-off/landing detector uses (lib/detector.ts FieldLookup): the
// nearest open airport within FIELD_KM of a point and its elevation, from the OurAirports locator.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { FieldLookup } from '../detector.ts';
import { kindRank, parseAirports, type Airport } from './airports.ts';
import { buildLocator, type AirportLocator } from './locate.ts';
import { parseRunways, type Runway } from './runways.ts';
import { buildTypes, parseModelTypes, type TypeTable } from './types.ts';

/** The OurAirports locator (airports and runway ends) from a reference folder (data/ref). */
export function loadLocator(refDir: string): AirportLocator {
  const t = loadAirfieldRows(refDir);
  return buildLocator(t.airports, t.runways);
}

/** The OurAirports airports and runways a locator is built from (the log step hands them to its worker threads),
 * and the aircraft types whose class decides which fields a take-off or landing may be placed at (place.ts). */
export function loadAirfieldRows(refDir: string): { airports: Airport[]; runways: Runway[]; types: TypeTable } {
  return {
    airports: parseAirports(ourAirports(refDir, 'airports.csv.gz')).airports,
    runways: parseRunways(ourAirports(refDir, 'runways.csv.gz')).runways,
    types: buildTypes(parseModelTypes(readFileSync(join(refDir, 'vrs-standing-data', 'model-type.csv'))).rows),
  };
}

const ourAirports = (refDir: string, name: string) => gunzipSync(readFileSync(join(refDir, 'ourairports', name))).toString('utf8');

/** what the live map shows of an airport with an IATA code (/v1/map/airports): its OurAirports kind and name */
export interface NamedAirport {
  kind: string;
  name: string;
}

/**
 * The live server's airport knowledge from one parse of airports.csv.gz: the field lookup, each
 * airport slimmed to what it reads (kind, position, elevation), so the 85k airports' names and
 * places are not held for the server's life (that was a third of the serving thread's heap at
 * start-up, and every full collection marks it again: docs/perf-log/stalls.md); and for the
 * map, the kind and name of the airports with an IATA code (about 9,000).
 */
export function loadServerAirports(refDir: string): { fields: FieldLookup; named: Map<string, NamedAirport> } {
  const airports = parseAirports(ourAirports(refDir, 'airports.csv.gz')).airports;
  const named = new Map<string, NamedAirport>();
  for (const a of airports) {
    // an IATA code listed twice (a closed field kept beside the open one): the bigger kind wins
    const had = a.iata ? named.get(a.iata) : undefined;
    if (a.iata && (!had || kindRank(a.kind) > kindRank(had.kind))) named.set(a.iata, { kind: a.kind, name: a.name });
  }
  const slim = airports.map((a) => ({
    ident: a.ident,
    kind: a.kind,
    lat: a.lat,
    lon: a.lon,
    elevation_ft: a.elevation_ft,
    iata: null,
    icao: null,
    name: '',
    iso_country: '',
    iso_region: '',
    municipality: '',
    scheduled_service: false,
    tz: '',
  }));
  const runways = parseRunways(ourAirports(refDir, 'runways.csv.gz')).runways;
  return { fields: fieldsOf(buildLocator(slim, runways)), named };
}

/** The detector's field lookup over a locator: airports without an elevation are no help and are skipped. */
export function fieldsOf(locator: AirportLocator): FieldLookup {
  return (lat, lon) => {
    const near = locator.nearest(lat, lon);
    const elev = near?.airport.elevation_ft;
    return near && typeof elev === 'number' ? { elevation_ft: elev, km: near.km, id: near.airport.ident } : null;
  };
}
