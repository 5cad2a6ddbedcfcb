// the reference-data documents of spec 4.2 (/v1/refdata/...): what the shipped reference tables
// say, joined with what the network observed in the window where the operation asks for it.
import type { AirframeIdentity } from './airframe-doc.ts';
import type { AirportRef, RefView, RunwayRef, TypeRef } from './reference-view.ts';

/** /v1/refdata/aircraft/{hex}: registration, type, operator */
export function refAircraftDoc(id: AirframeIdentity) {
  return {
    hex: id.hex,
    reg: id.reg,
    type: id.type,
    type_name: id.type_name,
    operator: id.operator,
    operator_icao: id.operator_icao,
    serial: id.serial,
    year: id.year,
    country: id.country,
    source: id.source,
    coverage: 'observed' as const,
  };
}

/** per-airline totals over the window (one SQL row per callsign prefix) */
export interface AirlineCounts {
  icao: string;
  flights: number;
  airframes: number;
  callsigns: number;
  days: number;
}

function airlineHead(icao: string, ref: Pick<RefView, 'airline'>) {
  const a = ref.airline(icao);
  return { icao, iata: a?.iata ?? null, name: a?.name ?? null, country: a?.country ?? null, telephony: a?.telephony ?? null };
}

/** /v1/refdata/airlines: the airlines the network observes, busiest first */
export function airlinesDoc(rows: readonly AirlineCounts[], ref: Pick<RefView, 'airline'>, windowDays: number) {
  const airlines = rows
    .filter((r) => ref.airline(r.icao))
    .map((r) => ({ ...airlineHead(r.icao, ref), flights: r.flights, airframes: r.airframes, callsigns: r.callsigns, days: r.days }))
    .sort((a, b) => b.flights - a.flights || (a.icao < b.icao ? -1 : 1));
  return { airlines, window_days: windowDays, coverage: 'observed' as const };
}

export interface AirlineDetail {
  counts: AirlineCounts | null;
  fleet: { type: string | null; airframes: number; flights: number }[];
  routes: { org: string; dst: string; flights: number; days: number }[];
  countries: { iso_country: string; flights: number }[];
}

/** busiest routes listed per airline */
const AIRLINE_ROUTES_TOP = 500;

/** /v1/refdata/airlines/{icao}: one airline with its observed fleet, routes and countries */
export function airlineDoc(icao: string, d: AirlineDetail, ref: Pick<RefView, 'airline' | 'type'>, windowDays: number) {
  const byDesc = <T extends { flights: number }>(a: T, b: T, ka: string, kb: string) => b.flights - a.flights || (ka < kb ? -1 : ka > kb ? 1 : 0);
  return {
    ...airlineHead(icao, ref),
    observed: d.counts
      ? { flights: d.counts.flights, airframes: d.counts.airframes, callsigns: d.counts.callsigns, days: d.counts.days }
      : { flights: 0, airframes: 0, callsigns: 0, days: 0 },
    fleet: [...d.fleet]
      .sort((a, b) => b.airframes - a.airframes || byDesc(a, b, a.type ?? '', b.type ?? ''))
      .map((f) => ({ type: f.type, type_name: f.type ? (ref.type(f.type)?.name ?? null) : null, airframes: f.airframes, flights: f.flights })),
    routes: [...d.routes].sort((a, b) => byDesc(a, b, a.org + a.dst, b.org + b.dst)).slice(0, AIRLINE_ROUTES_TOP),
    countries: [...d.countries].sort((a, b) => byDesc(a, b, a.iso_country, b.iso_country)),
    window_days: windowDays,
    coverage: 'observed' as const,
  };
}

/** one (airline, org, dst) as SQL aggregates it; times are in the origin's local time */
export interface ScheduleCounts {
  departures: number;
  days: number;
  /** departures per ISO weekday, Monday first (7 numbers) */
  weekdays: number[];
  /** departures per 5-minute local slot "HH:MM" */
  slots: { dep: string; flights: number }[];
  /** per callsign: departures and the most common slot */
  callsigns: { callsign: string; flights: number; dep: string }[];
}

/** /v1/refdata/airlines/{icao}/schedule/{org}/{dst}: observed departure pattern of one leg */
export function scheduleDoc(
  icao: string,
  org: AirportRef,
  dst: AirportRef,
  s: ScheduleCounts,
  ref: Pick<RefView, 'airline' | 'flightNumber'>,
  windowDays: number,
) {
  return {
    airline: airlineHead(icao, ref),
    org: org.iata!,
    dst: dst.iata!,
    tz: org.tz,
    departures: s.departures,
    days_observed: s.days,
    weekdays: s.weekdays,
    times: [...s.slots].sort((a, b) => (a.dep < b.dep ? -1 : a.dep > b.dep ? 1 : 0)),
    callsigns: [...s.callsigns]
      .sort((a, b) => b.flights - a.flights || (a.callsign < b.callsign ? -1 : 1))
      .map((c) => ({ callsign: c.callsign, flight: ref.flightNumber(c.callsign), flights: c.flights, dep: c.dep })),
    times_in: 'local' as const,
    window_days: windowDays,
    coverage: 'observed' as const,
  };
}

/** one route's counts as the schedules step reads them from DuckDB: the weekdays and the times already as JSON text in document form */
export interface ScheduleTexts {
  departures: number;
  days: number;
  /** the weekdays' JSON (7 numbers, no spaces) */
  weekdays: string;
  /** the times' JSON: {dep, flights} objects sorted by dep, no spaces (DuckDB's to_json of list_sort) */
  times: string;
  callsigns: ScheduleCounts['callsigns'];
}

/**
 * The schedule document as JSON text, its weekdays and times given as JSON text: the same bytes as
 * JSON.stringify(scheduleDoc(...)) of the parsed lists without parsing them and writing them again
 * (they were most of a document's cost on the main thread; the callsigns need the reference data
 * and are made here).
 */
export function scheduleJson(
  icao: string,
  org: AirportRef,
  dst: AirportRef,
  s: ScheduleTexts,
  ref: Pick<RefView, 'airline' | 'flightNumber'>,
  windowDays: number,
): string {
  const d = scheduleDoc(icao, org, dst, { departures: s.departures, days: s.days, weekdays: [], slots: [], callsigns: s.callsigns }, ref, windowDays);
  const head = JSON.stringify({ airline: d.airline, org: d.org, dst: d.dst, tz: d.tz, departures: d.departures, days_observed: d.days_observed });
  const tail = JSON.stringify({ callsigns: d.callsigns, times_in: d.times_in, window_days: d.window_days, coverage: d.coverage });
  return `${head.slice(0, -1)},"weekdays":${s.weekdays},"times":${s.times},${tail.slice(1)}`;
}

/** /v1/refdata/types/{designator}: a type spelled out, with what the network saw of it */
export function typeDoc(t: TypeRef, observed: { airframes: number; flights: number } | null) {
  return {
    designator: t.designator,
    name: t.name,
    manufacturer: t.manufacturer,
    model: t.model,
    category: t.category,
    engines: t.engines,
    engine_type: t.engine_type,
    engine_placement: t.engine_placement,
    species: t.species,
    wake: t.wake,
    active: t.active,
    observed: observed ?? { airframes: 0, flights: 0 },
    coverage: 'observed' as const,
  };
}

/** /v1/refdata/airports/{ident}: one OurAirports airport with its zone and runways */
export function refAirportDoc(a: AirportRef, runways: readonly RunwayRef[]) {
  return {
    ident: a.ident,
    iata: a.iata,
    icao: a.icao,
    name: a.name,
    kind: a.kind,
    lat: a.lat,
    lon: a.lon,
    elevation_ft: a.elevation_ft,
    iso_country: a.iso_country,
    iso_region: a.iso_region,
    municipality: a.municipality,
    scheduled_service: a.scheduled_service,
    tz: a.tz,
    runways: runways.map((r) => ({ ...r })),
    coverage: 'observed' as const,
  };
}
