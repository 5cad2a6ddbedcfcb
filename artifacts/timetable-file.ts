// published timetables, an optional build input: one JSON file per airport and local day,
// <timetablesDir>/<IATA>/<YYYY-MM-DD>.json, shaped by schemas/timetable.schema.json
// (documented in artifacts/TIMETABLES.md). pure: the builder reads the file, this checks it.
import { problems } from '../schemas/index.ts';
import { localTime } from '../lib/localtime.ts';

export interface PublishedDeparture {
  flight: string;
  callsign?: string;
  dst: string;
  /** HH:MM, this airport's local time */
  dep: string;
  type?: string;
}

export interface PublishedArrival {
  flight: string;
  callsign?: string;
  org: string;
  /** HH:MM, this airport's local time */
  arr: string;
  type?: string;
}

export interface Timetable {
  airport: string;
  day: string;
  source: string;
  departures: PublishedDeparture[];
  arrivals: PublishedArrival[];
}

/** The airport document's `today` (spec 2.6): the timetable as published, unknowns as null. */
export interface Today {
  day: string;
  source: string;
  departures: { flight: string; dst: string; dep: string; callsign: string | null; type: string | null }[];
  arrivals: { flight: string; org: string; arr: string; callsign: string | null; type: string | null }[];
}

export type TimetableResult = { timetable: Timetable; error?: undefined } | { timetable?: undefined; error: string };

/** Relative path of the timetable of an airport (IATA) for a local day. */
export const timetableFile = (iata: string, day: string) => `${iata}/${day}.json`;

/** The airport's local day at the build's clock: the day whose timetable is `today`. */
export const localDayAt = (nowMs: number, tz: string) => localTime(Math.floor(nowMs / 1000), tz).day;

/**
 * Parse and check one timetable file. `expect` is what its path says (airport and day): a file
 * that claims another airport or day is rejected, so a misplaced file never shows on a board.
 */
export function parseTimetable(text: string, expect: { airport: string; day: string }): TimetableResult {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (e) {
    return { error: `not JSON (${(e as Error).message})` };
  }
  const p = problems('timetable', doc);
  if (p.length) return { error: `does not match schemas/timetable.schema.json: ${p.slice(0, 3).join('; ')}` };
  const t = doc as Timetable;
  if (t.airport !== expect.airport) return { error: `airport ${t.airport} does not match its folder ${expect.airport}` };
  if (t.day !== expect.day) return { error: `day ${t.day} does not match its file name ${expect.day}.json` };
  const ms = Date.parse(`${t.day}T00:00:00Z`);
  // Date.parse rolls 2024-02-30 over to March: round-trip to catch it
  if (Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 10) !== t.day) return { error: `day ${t.day} is not a calendar date` };
  return { timetable: t };
}

/** The `today` object of the airport document, sorted by time then flight. */
export function todayOf(t: Timetable): Today {
  const byTime =
    <R extends { flight: string }>(key: (r: R) => string) =>
    (a: R, b: R) =>
      key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : a.flight < b.flight ? -1 : a.flight > b.flight ? 1 : 0;
  return {
    day: t.day,
    source: t.source,
    departures: t.departures
      .map((d) => ({ flight: d.flight, dst: d.dst, dep: d.dep, callsign: d.callsign ?? null, type: d.type ?? null }))
      .sort(byTime((r) => r.dep)),
    arrivals: t.arrivals
      .map((a) => ({ flight: a.flight, org: a.org, arr: a.arr, callsign: a.callsign ?? null, type: a.type ?? null }))
      .sort(byTime((r) => r.arr)),
  };
}
