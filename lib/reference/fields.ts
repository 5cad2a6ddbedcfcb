// the airfield knowledge the take-off/landing detector uses (lib/detector.ts FieldLookup): the
// nearest open airport within FIELD_KM of a point and its elevation, from the OurAirports locator.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { FieldLookup } from '../detector.ts';
import { parseAirports } from './airports.ts';
import { buildLocator, type AirportLocator } from './locate.ts';
import { parseRunways } from './runways.ts';

/** The OurAirports locator (airports and runway ends) from a reference folder (data/ref). */
export function loadLocator(refDir: string): AirportLocator {
  return buildLocator(parseAirports(ourAirports(refDir, 'airports.csv.gz')).airports, parseRunways(ourAirports(refDir, 'runways.csv.gz')).runways);
}

const ourAirports = (refDir: string, name: string) => gunzipSync(readFileSync(join(refDir, 'ourairports', name))).toString('utf8');

/**
 * The field lookup alone, for a process that needs nothing else of the airports (the live
 * server's trace store): each airport keeps only what the lookup reads (kind, position,
 * elevation), so the 85k airports' names and places are not held for the server's life. That is
 * a third of the serving thread's heap at start-up, and every full collection marks it again
 * (README "Serving-thread stalls").
 */
export function loadFieldLookup(refDir: string): FieldLookup {
  const slim = parseAirports(ourAirports(refDir, 'airports.csv.gz')).airports.map((a) => ({ ident: a.ident, kind: a.kind, lat: a.lat, lon: a.lon, elevation_ft: a.elevation_ft, iata: null, icao: null, name: '', iso_country: '', iso_region: '', municipality: '', scheduled_service: false, tz: '' }));
  const runways = parseRunways(ourAirports(refDir, 'runways.csv.gz')).runways;
  return fieldsOf(buildLocator(slim, runways));
}

/** The detector's field lookup over a locator: airports without an elevation are no help and are skipped. */
export function fieldsOf(locator: AirportLocator): FieldLookup {
  return (lat, lon) => {
    const near = locator.nearest(lat, lon);
    const elev = near?.airport.elevation_ft;
    return near && typeof elev === 'number' ? { elevation_ft: elev, km: near.km, id: near.airport.ident } : null;
  };
}
