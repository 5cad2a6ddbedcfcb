// the airfield tables the log step hands its leg workers (airfields.ts makes them): a type of its own,
// so build.ts and airfields.ts each import it without importing each other
import type { Airport } from '../../lib/reference/airports.ts';
import type { Runway } from '../../lib/reference/runways.ts';
import type { AircraftClass } from '../../lib/reference/aircraft-class.ts';

/**
 * The airports and runways a locator is built from, cut to what it reads (position, kind,
 * elevation, scheduled service; runway ends, designators, lengths, widths, surfaces): the leg workers (leg-worker.ts) get a copy and build
 * the same locator, since a closure cannot cross threads. Closed airports and runways, which it
 * never files, are left out.
 */
export interface AirfieldTables {
  airports: Airport[];
  runways: Runway[];
  /** each ICAO type designator's class (lib/reference/aircraft-class.ts); empty: every aircraft's class is unknown */
  classes: (readonly [string, AircraftClass])[];
}
