// what the log step knows of airfields, from the OurAirports locator: the ident at a take-off or
// landing point, and the field heights the detector recognises ground by when no ground flag is sent
// (lib/detector.ts `fields`). one place, for the log command and the nightly.
import { fieldsOf } from '../../lib/reference/fields.ts';
import { buildLocator, type AirportLocator } from '../../lib/reference/locate.ts';
import type { Airport } from '../../lib/reference/airports.ts';
import type { Runway } from '../../lib/reference/runways.ts';
import type { BuildLogOptions } from './build.ts';
import { DEFAULT_LEG_OPTIONS } from './legs.ts';

export function airfieldOptions(locator: AirportLocator, carryS = DEFAULT_LEG_OPTIONS.carryS): Pick<BuildLogOptions, 'locate' | 'legs'> {
  return {
    locate: (lat, lon) => locator.locate(lat, lon)?.ident ?? null,
    legs: { carryS, detector: { fields: fieldsOf(locator) } },
  };
}

/**
 * The airports and runways a locator is built from, cut to what it reads (position, kind,
 * elevation, scheduled service; runway ends): the leg workers (leg-worker.ts) get a copy and build
 * the same locator, since a closure cannot cross threads. Closed airports and runways, which it
 * never files, are left out.
 */
export interface AirfieldTables {
  airports: Airport[];
  runways: Runway[];
}

export function airfieldTables(airports: readonly Airport[], runways: readonly Runway[]): AirfieldTables {
  return {
    airports: airports.filter((a) => a.kind !== 'closed').map((a) => ({
      ident: a.ident, kind: a.kind, lat: a.lat, lon: a.lon, elevation_ft: a.elevation_ft, scheduled_service: a.scheduled_service,
      iata: null, icao: null, name: '', iso_country: '', iso_region: '', municipality: '', tz: '',
    })),
    runways: runways.filter((r) => !r.closed && (r.le || r.he)).map((r) => ({
      airport_ident: r.airport_ident, le: r.le, he: r.he, closed: false,
      le_ident: null, he_ident: null, length_ft: null, width_ft: null, surface: null, lighted: null,
    })),
  };
}

/** The log's airfields from the tables, for this thread (locate, the detector's field heights) and for the leg workers (the tables). */
export function logAirfields(tables: AirfieldTables, carryS = DEFAULT_LEG_OPTIONS.carryS): Pick<BuildLogOptions, 'locate' | 'legs' | 'airfields'> {
  return { ...airfieldOptions(buildLocator(tables.airports, tables.runways), carryS), airfields: tables };
}
