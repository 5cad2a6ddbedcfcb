// pure: one airframe's points over one day (plus the leg it still had open at the previous
// midnight) become flight-log rows, cut by the shared detector (lib/detector.ts).
//
// midnight rule: a leg still open at the end of its day (no landing heard, last point within
// carryS of midnight) is handed to the next day as the carry, cut again together with that day's
// points, and so written once, whole, when it closes. a leg still open after the last day a build
// reads is written as it stands, marked `open`, and replaced by a later build. every point is in
// at most one leg. which day's file holds a leg: build/log/partitions.ts. see schemas/flight-log.md.
import { cutLegs, type DetectorOptions, type LegCut } from '../../lib/detector.ts';
import { distanceKm } from '../../lib/geo.ts';
import type { TracePoint } from '../../lib/readsb-trace.ts';
import { contactTrack, type GroundContact } from '../../lib/reference/runway-fit.ts';
import { thinIndexes } from '../../lib/trace-thin.ts';

/** one row of the flight log (schemas/flight-log.schema.json) */
export interface LegRow {
  hex: string;
  callsign: string | null;
  reg: string | null;
  type: string | null;
  first_ts: number;
  last_ts: number;
  dep_ts: number | null;
  arr_ts: number | null;
  org: string | null;
  dst: string | null;
  /** where the take-off was heard; null when it was not */
  dep_lat: number | null;
  dep_lon: number | null;
  /** where the landing was heard; null when it was not */
  arr_lat: number | null;
  arr_lon: number | null;
  /** km flown: the great-circle steps between the leg's heard positions, summed */
  distance_km: number;
  /** the highest alt_baro heard on the leg, ft; null when none was */
  max_alt_ft: number | null;
  /** leaves and returns to one field: both ends heard at the same airport (a touch-and-go is cut
   * into its own legs by the detector, so each circuit of a session is one) */
  circuit: boolean;
  /** still going after the newest day the build read: no landing heard yet; a later build replaces it */
  open: boolean;
  /** runway end designator of the take-off (27R), null when not known (lib/reference/runway-fit.ts) */
  dep_runway: string | null;
  /** runway end designator of the landing, null when not known */
  arr_runway: string | null;
  /** the leg's points thinned by the live trace's rule (lib/trace-thin.ts), oldest first; written to
   * the day's points.parquet, not to legs.parquet */
  track: LegPoint[];
}

/** [t, lat, lon, alt_baro, track] as spec 2.4 serves a trace point */
type LegPoint = [number, number, number, number | 'ground' | null, number | null];

/** km: both ends this close, and neither at a known airport, is a circuit too (a strip OurAirports lacks) */
const CIRCUIT_UNLOCATED_KM = 2;

/** where a take-off or landing was: the airport's OurAirports ident and the runway end, or null when
 * not clearly at one (lib/reference/place.ts); `type` is the airframe's ICAO type designator */
export type Locate = (at: GroundContact, type: string | null) => { ident: string; runway: string | null } | null;

/** an airframe's leg still open at midnight, handed to the next day */
export interface Carry {
  reg: string | null;
  type: string | null;
  points: TracePoint[];
  /** the leg as it stands, written with open = true when no later day continues it in this build */
  row: LegRow;
}

export interface LegOptions {
  /** s. a leg without a heard landing whose last point is this close to midnight may go on after it.
   * larger than any coverage gap the detector joins in practice (its gap rule, ~30 min + flight time) */
  carryS: number;
  detector: Partial<DetectorOptions>;
}

export const DEFAULT_LEG_OPTIONS: LegOptions = { carryS: 4 * 3600, detector: {} };

export interface AirframeDay {
  hex: string;
  reg: string | null;
  type: string | null;
  /** the open leg from the previous day, or null */
  carry: Carry | null;
  /** this day's points, oldest first (may be empty when the airframe was only carried) */
  points: TracePoint[];
  /** unix seconds of the midnight that ends the day */
  dayEnd: number;
}

export interface AirframeLegs {
  rows: LegRow[];
  /** the leg left open at dayEnd, for the next day; null when none */
  carry: Carry | null;
}

/** Cuts one airframe's day into log rows and the leg it leaves open at midnight. */
export function airframeLegs(input: AirframeDay, locate: Locate, opts: LegOptions = DEFAULT_LEG_OPTIONS): AirframeLegs {
  const carried = input.carry?.points ?? [];
  const after = carried.length ? carried[carried.length - 1]!.t : -Infinity;
  // a day's file can repeat the last seconds of the one before: keep each instant once
  const points = carried.concat(after === -Infinity ? input.points : input.points.filter((p) => p.t > after));
  const reg = input.reg ?? input.carry?.reg ?? null;
  const type = input.type ?? input.carry?.type ?? null;
  const cuts = cutLegs(points, opts.detector);
  const rows: LegRow[] = [];
  let carry: Carry | null = null;
  cuts.forEach((cut, i) => {
    if (i === cuts.length - 1 && isOpen(cut, points, input.dayEnd, opts.carryS)) {
      carry = { reg, type, points: points.slice(cut.start), row: { ...legRow(input.hex, reg, type, cut, points, locate), open: true } };
      return;
    }
    rows.push(legRow(input.hex, reg, type, cut, points, locate));
  });
  return { rows, carry };
}

/** the last leg may go on after midnight: no landing heard and its last point close to midnight.
 * a point far past midnight means the day folder does not hold that day: nothing goes on. */
export function isOpen(cut: LegCut, points: readonly TracePoint[], dayEnd: number, carryS: number): boolean {
  if (cut.arrival !== null) return false;
  const last = points[cut.end]!.t;
  return last >= dayEnd - carryS && last < dayEnd + carryS;
}

/** unix seconds, whole */
const sec = (t: number) => Math.round(t);

function legRow(hex: string, reg: string | null, type: string | null, cut: LegCut, points: readonly TracePoint[], locate: Locate): LegRow {
  const dep = cut.departure;
  const arr = cut.arrival;
  const from = dep ? locate({ kind: 'takeoff', lat: dep.lat, lon: dep.lon, track: contactTrack(points, dep.index, 'takeoff') }, type) : null;
  const to = arr ? locate({ kind: 'landing', lat: arr.lat, lon: arr.lon, track: contactTrack(points, arr.index, 'landing') }, type) : null;
  const org = from?.ident ?? null;
  const dst = to?.ident ?? null;
  let km = 0;
  let maxAlt: number | null = null;
  for (let i = cut.start; i <= cut.end; i++) {
    const p = points[i]!;
    if (i > cut.start) km += distanceKm(points[i - 1]!.lat, points[i - 1]!.lon, p.lat, p.lon);
    if (typeof p.alt === 'number' && (maxAlt === null || p.alt > maxAlt)) maxAlt = Math.round(p.alt);
  }
  const circuit =
    dep !== null && arr !== null && (org !== null || dst !== null ? org === dst : distanceKm(dep.lat, dep.lon, arr.lat, arr.lon) <= CIRCUIT_UNLOCATED_KM);
  return {
    hex,
    callsign: majorityCallsign(points, cut.start, cut.end),
    reg,
    type,
    first_ts: sec(points[cut.start]!.t),
    last_ts: sec(points[cut.end]!.t),
    dep_ts: dep ? sec(dep.at) : null,
    arr_ts: arr ? sec(arr.at) : null,
    org,
    dst,
    dep_lat: dep ? dep.lat : null,
    dep_lon: dep ? dep.lon : null,
    arr_lat: arr ? arr.lat : null,
    arr_lon: arr ? arr.lon : null,
    distance_km: Math.round(km * 10) / 10,
    max_alt_ft: maxAlt,
    circuit,
    open: false,
    dep_runway: from?.runway ?? null,
    arr_runway: to?.runway ?? null,
    track: thinIndexes(points, cut.start, cut.end).map((i) => legPoint(points[i]!)),
  };
}

/** the callsign heard on most points of the leg (ties: the one heard first), trailing spaces stripped */
export function majorityCallsign(points: readonly TracePoint[], start: number, end: number): string | null {
  const counts = new Map<string, number>();
  let best: string | null = null;
  let bestN = 0;
  for (let i = start; i <= end; i++) {
    const c = points[i]!.callsign?.trimEnd();
    if (!c) continue;
    const n = (counts.get(c) ?? 0) + 1;
    counts.set(c, n);
    if (n > bestN) {
      best = c;
      bestN = n;
    }
  }
  return best;
}

function legPoint(p: TracePoint): LegPoint {
  return [p.t, p.lat, p.lon, typeof p.alt === 'number' ? Math.round(p.alt) : p.alt, p.track ?? null];
}
