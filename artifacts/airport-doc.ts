// the airport document, GET /v1/airports/{code} (spec 2.6, schemas/airport.schema.json).
// pure: the builder hands in what SQL aggregated (totals, routes, traffic mix) and the inferred
// slots; every time in the document is this airport's local time (`tz`), see AIRPORTS.md.
import { classify, type AirportClass } from './airport-class.ts';
import { arrivalRows, boardAirlines, departureRows, type ArrivalRow, type DepartureRow, type RowLookups } from './board-rows.ts';
import type { Slot } from './board.ts';
import { todayOf, type Timetable, type Today } from './timetable-file.ts';

/** busiest routes listed in `observed.routes` */
export const TOP_ROUTES = 20;
/** airlines listed (spec 8: top 20) */
const TOP_AIRLINES = 20;

/** The reference-data fields of the airport (lib/reference Airport has them all). */
export interface AirportRef {
  iata: string;
  ident: string;
  /** ICAO code (OurAirports icao_code, else its ident when that has the ICAO shape, else its gps_code when that has it), else the OurAirports ident */
  icao: string | null;
  name: string;
  kind: string;
  lat: number;
  lon: number;
  iso_country: string;
  municipality: string;
  tz: string;
  scheduled_service: boolean;
}

export interface RouteCount {
  dst: string;
  flights: number;
  days: number;
}

interface ObservedTotals {
  departures: number;
  destinations: number;
  tails: number;
  days_observed: number;
  routes: RouteCount[];
}

/** What the log says about the airport's traffic mix (for the classification). */
export interface TrafficMix {
  movements: number;
  military: number;
  airline: number;
}

export interface AirportDoc extends Omit<AirportRef, 'scheduled_service' | 'icao'> {
  class: AirportClass;
  observed: ObservedTotals | null;
  today: Today | null;
  board: DepartureRow[];
  arrivals: ArrivalRow[];
  airlines: { icao: string; flights: number }[];
  times: 'local';
  window_days: number | null;
  /** where its movements live: /v1/airports/{iata}/movements/{date}, the code filled in (docs/api.md "Links between documents") */
  movements_url: string;
  coverage: 'observed';
}

export interface AirportInput {
  airport: AirportRef;
  /** null when there is no flight log (then observed and window_days are null) */
  log: {
    windowDays: number;
    totals: Omit<ObservedTotals, 'routes'> | undefined;
    routes: readonly RouteCount[] | undefined;
    mix: TrafficMix | undefined;
    departures: readonly Slot[] | undefined;
    arrivals: readonly Slot[] | undefined;
  } | null;
  /** the published timetable for the airport's local day, if one is held */
  timetable: Timetable | null;
  lookups: RowLookups & { airlineOf(callsign: string): string | null };
}

const ZERO = { departures: 0, destinations: 0, tails: 0, days_observed: 0 };

export function airportDocument(x: AirportInput): AirportDoc {
  const a = x.airport;
  const log = x.log;
  const board = departureRows(x.airport.iata, log?.departures ?? [], x.timetable?.departures ?? [], x.lookups);
  const arrivals = arrivalRows(x.airport.iata, log?.arrivals ?? [], x.timetable?.arrivals ?? [], x.lookups);
  const mix = log?.mix ?? { movements: 0, military: 0, airline: 0 };
  return {
    iata: a.iata,
    // spec 2.6: the ICAO ident; OurAirports' own ident differs for 219 IATA airports (TEK is 7KA, ICAO PAKA)
    ident: a.icao ?? a.ident,
    name: a.name,
    kind: a.kind,
    lat: a.lat,
    lon: a.lon,
    iso_country: a.iso_country,
    municipality: a.municipality,
    tz: a.tz,
    class: classify({ kind: a.kind, name: a.name, scheduled_service: a.scheduled_service, ...mix }),
    observed: log ? { ...(log.totals ?? ZERO), routes: [...(log.routes ?? [])].slice(0, TOP_ROUTES) } : null,
    today: x.timetable ? todayOf(x.timetable) : null,
    board,
    arrivals,
    airlines: boardAirlines(board, x.lookups.airlineOf, TOP_AIRLINES),
    times: 'local',
    window_days: log ? log.windowDays : null,
    movements_url: `/v1/airports/${a.iata}/movements/{date}`,
    coverage: 'observed',
  };
}
