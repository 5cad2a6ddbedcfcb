// how good the estimates are, measured on real observed tracks: hide a stretch where the aircraft
// was in fact heard throughout, estimate from the last point before it, and compare with the
// positions observed while it would be listed. pure: tracks in, figures out.
//
// replay decisions (documented in docs/api.md, "Estimated aircraft"):
// - a track is cut into legs by the shared take-off/landing detector (lib/detector.ts).
// - the replay knows only what the live server knows at the start point: the destination is the
//   callsign's route as the server's routes table names it (destinationOf, the same lookup as
//   /v1/estimated), never where the flight was later seen to land; without a route the track is
//   held, as live. test/lib/estimate/accuracy.test.ts poisons every later point to prove it.
// - "heard throughout" means no two consecutive points more than 120 s apart.
// - start points: the first point at or after every 5 minutes of the clock (unix time a multiple of
//   300 s), used only when it is a cruising state (cruise.ts; the vertical rate, when the track
//   lacks it, is taken from the previous point); so starts are spread evenly over cruising time.
//   before, every leg's first cruising point was a start and the grid ran from there: where
//   coverage begins was over-sampled, and on the swiss traffic (held-out half) the 0-5 minute
//   median was 0.87 km against 0.43 km over every cruising point (bench/accuracy-live.ts found it).
// - each start is scored as the live list is seen: every 30 s from the moment it is listed (90 s,
//   120 s, ...) while it is listed, up to 120 minutes, each time against the first point at or after
//   that moment; each sample stands for 30 s of listing, so each range holds samples in proportion
//   to the time an estimate is listed in it (every minute from 90 s would put 4 in the 3.5 listed
//   minutes of 0-5 against 10 in the 10 of 5-15, and the overall median, which sits where the error
//   climbs fast, would be 10 % low). a range's median is then over the ages a user meets in it, not
//   one gap length: the fixed lengths 2, 10 and 20 minutes used before put every 0-5 sample at 2
//   minutes and every 5-15 one at 10, and the overall median (mostly 2-minute samples) was 2.0 km on
//   the swiss held-out half where the listed ages give 3.4. `gapsMin` still asks for fixed lengths
//   (bench/accuracy-switzerland.ts).
// - a sample counts only while the estimate would be listed (past 90 s, before it expires), and
//   the straight-line baseline is scored on exactly the same samples.
import { distanceKm } from '../geo.ts';
import { cutLegs, type TrackPoint as DetectorPoint } from '../detector.ts';
import { isCruising } from './cruise.ts';
import { makePlan, positionAt, straightAt, type FlightStart } from './fly.ts';
import type { FlowField } from './flow.ts';
import type { PathSet } from './paths.ts';
import { MedianFold } from './median-fold.ts';

/** An observed point: the detector's point, plus the vertical rate when the source has it (ft/min). */
export type TrackPoint = DetectorPoint & { rate?: number | null; callsign?: string };

export interface ObservedTrack {
  hex: string;
  points: TrackPoint[];
}

interface GapFigures {
  n: number;
  median_km: number;
  /** fewer than MIN_SAMPLES: the median is shown, and flagged as not to be trusted */
  too_few_samples?: true;
}

/** The `accuracy` object of spec 2.3. */
export interface Accuracy {
  day: string;
  n: number;
  median_km: number;
  by_gap_min: Record<string, GapFigures>;
}

export interface Evaluation {
  /** the method served by /v1/estimated (fly.ts) */
  method: Accuracy;
  /** plain straight-line dead reckoning on the same samples */
  straight: Accuracy;
}

export interface EvalOptions {
  /** fixed hidden gap lengths tried from every start, minutes; null (the default): every `everyS` while listed */
  gapsMin?: number[] | null;
  /** without gapsMin, a start is scored this often from the moment it is listed (each sample stands for this much listed time); seconds */
  everyS?: number;
  /** two points further apart than this break "heard throughout", seconds */
  maxSpacingS?: number;
  /** a start point is tried at every this many seconds of the clock */
  strideS?: number;
  /** the callsign's destination as the live server would answer it; none: every estimate holds its track */
  destinationOf?: (callsign: string) => { lat: number; lon: number } | null;
  /** the traffic flow the live server had (learned before the replayed day, never from it); null: none */
  flow?: FlowField | null;
  /** the traffic paths the live server had (learned before the replayed day, never from it); null: none */
  paths?: PathSet | null;
}

/** a gap range with fewer samples than this says so beside its median (a handful proves nothing) */
const MIN_SAMPLES = 30;

/** the gap ranges of spec 2.3, minutes, [from, to) */
const GAP_BUCKETS: readonly (readonly [string, number, number])[] = [
  ['0-5', 0, 5],
  ['5-15', 5, 15],
  ['15-30', 15, 30],
  ['30-60', 30, 60],
  ['60-120', 60, 120],
];

const DEFAULTS: Required<EvalOptions> = { gapsMin: null, everyS: 30, maxSpacingS: 120, strideS: 300, destinationOf: () => null, flow: null, paths: null };
const APPEAR_S = 90;

const finite = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/** Cut one aircraft's points (any order) into legs with the shared take-off/landing detector. */
function legsOf(points: TrackPoint[]): TrackPoint[][] {
  const pts = points.filter((p) => finite(p.t) && finite(p.lat) && finite(p.lon)).sort((a, b) => a.t - b.t);
  return cutLegs(pts).map((cut) => pts.slice(cut.start, cut.end + 1));
}

/** The state at point i as the live tracker would have seen it, or null when not cruising. */
function startAt(leg: TrackPoint[], i: number, maxSpacingS: number): FlightStart | null {
  const p = leg[i]!;
  let rate = finite(p.rate) ? p.rate : undefined;
  const prev = leg[i - 1];
  if (rate === undefined && prev && typeof prev.alt === 'number' && typeof p.alt === 'number' && p.t - prev.t > 0 && p.t - prev.t <= maxSpacingS) {
    rate = ((p.alt - prev.alt) / (p.t - prev.t)) * 60;
  }
  const state = { lat: p.lat, lon: p.lon, alt_baro: p.alt ?? undefined, gs: p.gs ?? undefined, track: p.track ?? undefined, baro_rate: rate };
  if (!isCruising(state)) return null;
  return { t: p.t, lat: p.lat, lon: p.lon, track: p.track!, gs: p.gs!, alt: p.alt as number };
}

/** First index with t >= target (binary search over sorted points). */
function firstAtOrAfter(leg: TrackPoint[], target: number): number {
  let lo = 0;
  let hi = leg.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (leg[mid]!.t < target) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export interface Sample {
  /** unix seconds of the start point (the last position before the hidden gap) */
  startT: number;
  gapMin: number;
  methodKm: number;
  straightKm: number;
  /** where the method put the aircraft (the replay's own answer, before it is compared) */
  estimate: { lat: number; lon: number };
}

function samplesOfLeg(leg: TrackPoint[], o: Required<EvalOptions>, visit: (s: Sample) => void): void {
  // run ids: equal ids mean heard throughout between the two points
  const run = new Int32Array(leg.length);
  for (let i = 1; i < leg.length; i++) run[i] = run[i - 1]! + (leg[i]!.t - leg[i - 1]!.t > o.maxSpacingS ? 1 : 0);
  const lastS = GAP_BUCKETS[GAP_BUCKETS.length - 1]![2] * 60;
  let grid = leg.length ? Math.ceil(leg[0]!.t / o.strideS) * o.strideS : 0;
  for (let i = 0; i < leg.length - 1; i++) {
    // the first point at or after each multiple of strideS, whatever it is (see the top of the file)
    if (leg[i]!.t < grid) continue;
    grid = (Math.floor(leg[i]!.t / o.strideS) + 1) * o.strideS;
    const start = startAt(leg, i, o.maxSpacingS);
    if (!start) continue;
    // only what was heard up to the start point: its callsign, looked up as the live server would
    const callsign = leg[i]!.callsign;
    const dest = callsign ? o.destinationOf(callsign) : null;
    const plan = makePlan(start, dest, { flow: o.flow, paths: o.paths });
    const expiresAt = plan.expiresAt;
    const ages = o.gapsMin ? o.gapsMin.map((g) => g * 60) : listedAges(o.everyS, Math.min(lastS, expiresAt - start.t));
    for (const age of ages) {
      const j = firstAtOrAfter(leg, start.t + age);
      const end = leg[j];
      if (!end || run[j] !== run[i] || end.t - (start.t + age) > o.maxSpacingS) continue;
      if (end.t - start.t < APPEAR_S || end.t >= expiresAt) continue;
      const m = positionAt(plan, end.t);
      const s = straightAt(start, end.t);
      visit({
        startT: start.t,
        gapMin: (end.t - start.t) / 60,
        methodKm: distanceKm(m.lat, m.lon, end.lat, end.lon),
        straightKm: distanceKm(s.lat, s.lon, end.lat, end.lon),
        estimate: { lat: m.lat, lon: m.lon },
      });
    }
  }
}

/** Seconds since last heard at which a listed estimate is scored: from APPEAR_S every `everyS`, before `untilS`. */
export function listedAges(everyS: number, untilS: number): number[] {
  const out: number[] = [];
  for (let a = APPEAR_S; a < untilS; a += everyS) out.push(a);
  return out;
}

/** Median, rounded to 0.1 km; 0 for no values (callers check n). */
export function medianKm(values: number[]): number {
  if (!values.length) return 0;
  const v = [...values].sort((a, b) => a - b);
  const mid = v.length >> 1;
  const m = v.length % 2 ? v[mid]! : (v[mid - 1]! + v[mid]!) / 2;
  return Math.round(m * 10) / 10;
}

/** Figures in the spec 2.3 shape from the errors of each gap range; ranges without a sample are left out (no median to give). */
function figures(day: string, byRange: MedianFold[]): Accuracy {
  const by_gap_min: Record<string, GapFigures> = {};
  const all = new MedianFold();
  GAP_BUCKETS.forEach(([key], k) => {
    const km = byRange[k]!;
    all.merge(km);
    if (km.n) by_gap_min[key] = { n: km.n, median_km: km.medianKm(), ...(km.n < MIN_SAMPLES && { too_few_samples: true as const }) };
  });
  return { day, n: all.n, median_km: all.medianKm(), by_gap_min };
}

/** Every sample of a day's observed tracks, in turn. */
function eachSample(tracks: Iterable<ObservedTrack>, options: EvalOptions, visit: (s: Sample) => void): void {
  const o = { ...DEFAULTS, ...options };
  for (const track of tracks) for (const leg of legsOf(track.points)) samplesOfLeg(leg, o, visit);
}

/** Every scored sample of a day's observed tracks. */
export function samplesOf(tracks: Iterable<ObservedTrack>, options: EvalOptions = {}): Sample[] {
  const samples: Sample[] = [];
  eachSample(tracks, options, (s) => samples.push(s));
  return samples;
}

/** A day's evaluation folded one track at a time: only the errors' bins are kept (median-fold.ts), whatever the day's size. */
export interface AccuracyFold {
  add(track: ObservedTrack): void;
  result(): Evaluation;
}

export function accuracyFold(day: string, options: EvalOptions = {}): AccuracyFold {
  const o = { ...DEFAULTS, ...options };
  const method = GAP_BUCKETS.map(() => new MedianFold());
  const straight = GAP_BUCKETS.map(() => new MedianFold());
  const visit = (s: Sample) => {
    const k = GAP_BUCKETS.findIndex(([, from, to]) => s.gapMin >= from && s.gapMin < to);
    if (k < 0) return;
    method[k]!.add(s.methodKm);
    straight[k]!.add(s.straightKm);
  };
  return {
    add: (track) => {
      for (const leg of legsOf(track.points)) samplesOfLeg(leg, o, visit);
    },
    result: () => ({ method: figures(day, method), straight: figures(day, straight) }),
  };
}

/** Evaluate the method and the straight-line baseline on a day's observed tracks. */
export function evaluate(day: string, tracks: Iterable<ObservedTrack>, options: EvalOptions = {}): Evaluation {
  const fold = accuracyFold(day, options);
  for (const track of tracks) fold.add(track);
  return fold.result();
}
