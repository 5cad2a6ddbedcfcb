// what the log step knows of airfields, from the OurAirports locator: the ident at a take-off or
// landing point, and the field heights the detector recognises ground by when no ground flag is sent
// (lib/detector.ts `fields`). one place, for the log command and the nightly.
import { fieldsOf } from '../../lib/reference/fields.ts';
import type { AirportLocator } from '../../lib/reference/locate.ts';
import type { BuildLogOptions } from './build.ts';
import { DEFAULT_LEG_OPTIONS } from './legs.ts';

export function airfieldOptions(locator: AirportLocator, carryS = DEFAULT_LEG_OPTIONS.carryS): Pick<BuildLogOptions, 'locate' | 'legs'> {
  return {
    locate: (lat, lon) => locator.locate(lat, lon)?.ident ?? null,
    legs: { carryS, detector: { fields: fieldsOf(locator) } },
  };
}
