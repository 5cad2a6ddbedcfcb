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
  const csv = (name: string) => gunzipSync(readFileSync(join(refDir, 'ourairports', name))).toString('utf8');
  return buildLocator(parseAirports(csv('airports.csv.gz')).airports, parseRunways(csv('runways.csv.gz')).runways);
}

/** The detector's field lookup over a locator: airports without an elevation are no help and are skipped. */
export function fieldsOf(locator: AirportLocator): FieldLookup {
  return (lat, lon) => {
    const near = locator.nearest(lat, lon);
    const elev = near?.airport.elevation_ft;
    return near && typeof elev === 'number' ? { elevation_ft: elev, km: near.km } : null;
  };
}
