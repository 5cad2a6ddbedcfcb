// what the log step knows of airfields, from the OurAirports locator: the ident at a take-off or
// landing point, and the field heights the detector recognises ground by when no ground flag is sent
// (lib/detector.ts `fields`). one place, for the log command and the nightly.
import { fieldsOf } from '../../lib/reference/fields.ts';
import { buildLocator, type AirportLocator } from '../../lib/reference/locate.ts';
import { buildPlacer } from '../../lib/reference/place.ts';
import { UNKNOWN_CLASS, classOfType, type AircraftClass } from '../../lib/reference/aircraft-class.ts';
import type { Airport } from '../../lib/reference/airports.ts';
import type { Runway } from '../../lib/reference/runways.ts';
import type { TypeTable } from '../../lib/reference/types.ts';
import type { AirfieldTables } from './airfield-tables.ts';
import { DEFAULT_LEG_OPTIONS, type LegOptions, type Locate } from './legs.ts';

/** the part of the log's options (build.ts BuildLogOptions) the airfields decide */
interface AirfieldOptions {
  locate: Locate;
  legs: Partial<LegOptions>;
}

/** The log's airfield options from a locator and the runways and type classes it places take-offs and landings with (lib/reference/place.ts). */
export function airfieldOptions(
  locator: AirportLocator,
  runways: readonly Runway[],
  classes: readonly (readonly [string, AircraftClass])[] = [],
  carryS = DEFAULT_LEG_OPTIONS.carryS,
): AirfieldOptions {
  const placer = buildPlacer(locator, runways);
  const byType = new Map(classes);
  return {
    locate: (at, type) => {
      const p = placer.place(at, (type && byType.get(type.toUpperCase())) || UNKNOWN_CLASS);
      return p ? { ident: p.airport.ident, runway: p.runway } : null;
    },
    legs: { carryS, detector: { fields: fieldsOf(locator) } },
  };
}

/** the tables the leg workers get; `types` gives each designator's class (no heliport for a 787) */
export function airfieldTables(airports: readonly Airport[], runways: readonly Runway[], types?: TypeTable): AirfieldTables {
  return {
    classes: types ? [...types.all()].map((t) => [t.designator, classOfType(t)] as const) : [],
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
        le_ident: r.le_ident,
        he_ident: r.he_ident,
        length_ft: r.length_ft,
        width_ft: r.width_ft,
        surface: r.surface,
        lighted: null,
      })),
  };
}

/** The log's airfields from the tables, for this thread (locate, the detector's field heights) and for the leg workers (the tables). */
export function logAirfields(tables: AirfieldTables, carryS = DEFAULT_LEG_OPTIONS.carryS): AirfieldOptions & { airfields: AirfieldTables } {
  return { ...airfieldOptions(buildLocator(tables.airports, tables.runways), tables.runways, tables.classes, carryS), airfields: tables };
}
