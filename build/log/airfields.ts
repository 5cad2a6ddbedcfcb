// what the log step knows of airfields, from the OurAirports locator: the ident at a take-off or
// landing point, and the field heights the detector recognises ground by when no ground flag is sent
// (lib/detector.ts `fields`). one place, for the log command and the nightly.
import { fieldsOf } from '../../lib/reference/fields.ts';
import { buildLocator, type AirportLocator } from '../../lib/reference/locate.ts';
import type { Airport } from '../../lib/reference/airports.ts';
import type { Runway } from '../../lib/reference/runways.ts';
import type { AirfieldTables } from './airfield-tables.ts';
import { DEFAULT_LEG_OPTIONS, type LegOptions, type Locate } from './legs.ts';

/** the part of the log's options (build.ts BuildLogOptions) the airfields decide */
interface AirfieldOptions {
  locate: Locate;
  legs: Partial<LegOptions>;
}

export function airfieldOptions(locator: AirportLocator, carryS = DEFAULT_LEG_OPTIONS.carryS): AirfieldOptions {
  return {
    locate: (lat, lon) => locator.locate(lat, lon)?.ident ?? null,
    legs: { carryS, detector: { fields: fieldsOf(locator) } },
  };
}

export function airfieldTables(airports: readonly Airport[], runways: readonly Runway[]): AirfieldTables {
  return {
    airports: airports
      .filter((a) => a.kind !== 'closed')
      .map((a) => ({
        ident: a.ident,
        kind: a.kind,
        lat: a.lat,
        lon: a.lon,
        elevation_ft: a.elevation_ft,
        scheduled_service: a.scheduled_service,
        iata: null,
        icao: null,
        name: '',
        iso_country: '',
        iso_region: '',
        municipality: '',
        tz: '',
      })),
    runways: runways
      .filter((r) => !r.closed && (r.le || r.he))
      .map((r) => ({
        airport_ident: r.airport_ident,
        le: r.le,
        he: r.he,
        closed: false,
        le_ident: null,
        he_ident: null,
        length_ft: null,
        width_ft: null,
        surface: null,
        lighted: null,
      })),
  };
}

/** The log's airfields from the tables, for this thread (locate, the detector's field heights) and for the leg workers (the tables). */
export function logAirfields(tables: AirfieldTables, carryS = DEFAULT_LEG_OPTIONS.carryS): AirfieldOptions & { airfields: AirfieldTables } {
  return { ...airfieldOptions(buildLocator(tables.airports, tables.runways), carryS), airfields: tables };
}
