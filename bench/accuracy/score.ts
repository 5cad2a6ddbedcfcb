// scoring of the live replay, written apart from the nightly's (lib/estimate/accuracy.ts) so that
// the two measure the same method independently: where the aircraft really was at a time (the
// observed track, interpolated), the straight-line baseline, the minutes-since-last-heard ranges
// of spec 2.3 and the per-range medians, and how a published figure compares. pure.
import { destinationPoint, distanceKm } from '../../lib/geo.ts';

/** the gap ranges of spec 2.3 (`accuracy.by_gap_min`), minutes since last heard, [from, to) */
export const RANGES: readonly (readonly [string, number, number])[] = [
  ['0-5', 0, 5],
  ['5-15', 5, 15],
  ['15-30', 15, 30],
  ['30-60', 30, 60],
  ['60-120', 60, 120],
];

/** two observed points further apart than this do not say where the aircraft was between them; seconds */
const MAX_SPACING_S = 120;
/** a published median within this fraction of the independent one agrees (issue 12) */
const AGREE = 0.1;

/** The range key of an age in minutes, or null past the last range. */
export function rangeOf(ageMin: number): string | null {
  for (const [key, from, to] of RANGES) if (ageMin >= from && ageMin < to) return key;
  return null;
}

/** Where the aircraft was at time t, from its observed points (sorted by time): linear between the
 * two points around t, or null when t is outside the track or they are too far apart. */
export function truthAt(points: readonly { t: number; lat: number; lon: number }[], t: number): { lat: number; lon: number } | null {
  let lo = 0;
  let hi = points.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (points[mid]!.t < t) lo = mid + 1;
    else hi = mid;
  }
  const b = points[lo];
  if (!b) return null;
  if (b.t === t) return { lat: b.lat, lon: b.lon };
  const a = points[lo - 1];
  if (!a || b.t - a.t > MAX_SPACING_S) return null;
  const f = (t - a.t) / (b.t - a.t);
  return { lat: a.lat + (b.lat - a.lat) * f, lon: a.lon + (b.lon - a.lon) * f };
}

/** Straight-line dead reckoning: from the last heard point along its track (a great circle) at its ground speed. */
export function straightLine(last: { t: number; lat: number; lon: number; track: number; gs: number }, t: number): { lat: number; lon: number } {
  return destinationPoint(last.lat, last.lon, last.track, (last.gs * Math.max(0, t - last.t)) / 3600);
}

/** One listed estimate compared with the truth. */
export interface LiveSample {
  /** minutes since last heard */
  ageMin: number;
  methodKm: number;
  straightKm: number;
  /**
   * how many points its gap could have started at (GapChoice): a gap is one seeded pick among its
   * aircraft's points, so weighing each sample by that count makes the medians over every point
   * alike, as the nightly's starts are (one every 5 minutes of cruise), not over every aircraft alike
   */
  weight: number;
}

/** Median, unrounded; NaN for none. */
export function median(values: readonly number[]): number {
  return weightedMedian(values.map((value) => ({ value, weight: 1 })));
}

/** The value at half the total weight (between two values when it falls exactly on a boundary, as the plain median); NaN for none. */
export function weightedMedian(items: readonly { value: number; weight: number }[]): number {
  if (!items.length) return NaN;
  const v = [...items].sort((a, b) => a.value - b.value);
  const half = v.reduce((s, x) => s + x.weight, 0) / 2;
  let acc = 0;
  for (let i = 0; i < v.length; i++) {
    acc += v[i]!.weight;
    if (Math.abs(acc - half) < 1e-9 && i + 1 < v.length) return (v[i]!.value + v[i + 1]!.value) / 2;
    if (acc > half) return v[i]!.value;
  }
  return v[v.length - 1]!.value;
}

export interface RangeFigures {
  n: number;
  /** medians over every possible start point alike (weighed, see LiveSample) */
  methodKm: number;
  straightKm: number;
  /** medians over every hidden gap alike (unweighed) */
  perGapMethodKm: number;
}

/** Per range (only those with samples), and `all` (every sample within the ranges). */
export function byRange(samples: readonly LiveSample[]): Record<string, RangeFigures> {
  const groups = new Map<string, LiveSample[]>();
  for (const s of samples) {
    const key = rangeOf(s.ageMin);
    if (key === null) continue;
    for (const k of [key, 'all']) {
      let g = groups.get(k);
      if (!g) groups.set(k, (g = []));
      g.push(s);
    }
  }
  const out: Record<string, RangeFigures> = {};
  for (const k of [...RANGES.map((r) => r[0]), 'all']) {
    const g = groups.get(k);
    if (!g) continue;
    const weighed = (pick: (s: LiveSample) => number) => weightedMedian(g.map((s) => ({ value: pick(s), weight: s.weight })));
    out[k] = { n: g.length, methodKm: weighed((s) => s.methodKm), straightKm: weighed((s) => s.straightKm), perGapMethodKm: median(g.map((s) => s.methodKm)) };
  }
  return out;
}

/**
 * A published median against the independent one: their ratio, whether it is within AGREE, and
 * whether the independent median rounds to the published one (the published figure has 0.1 km
 * steps: below 1 km they are coarser than 10 %, and the table says so rather than hide it).
 */
export function agreement(published: number, independent: number): { ratio: number; within: boolean; sameRounded: boolean } {
  const ratio = published / independent;
  return { ratio, within: Math.abs(ratio - 1) <= AGREE + 1e-9, sameRounded: published === Math.round(independent * 10) / 10 };
}
