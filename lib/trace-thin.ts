// the trace thinning rule, one pure module with two callers: the live trace store
// (server/trace/trace-store.ts) and the nightly's leg tracks (build/log/legs.ts), so a flight
// document's track is drawn as the live trace is. it keeps the shape, as readsb's traces do: a point
// is kept whenever the aircraft turns, changes its vertical profile or speed, or goes between ground
// and air; straight, level flight keeps one point every levelSpacingS.
//
// the rule reads points in the live store's fixed point (integers, so both callers decide alike):
// lat/lon in 1e-6 deg, alt_baro in ft or a sentinel, track and gs in tenths or NONE16.
import type { TrackPoint } from './detector/points.ts';

// alt_baro sentinels (real altitudes are far from both)
export const ALT_GROUND = -2147483648;
export const ALT_NULL = -2147483647;
/** fixed point for lat/lon: 1e-6 deg is ~0.1 m, finer than any ADS-B position */
export const DEG = 1e6;
/** fixed point for track and gs */
export const TENTH = 10;
/** track or gs not known */
export const NONE16 = -32768;

/** deg: a turn of this much since the last kept point keeps the new one */
const TURN_DEG = 2;
/** ft: an altitude this far off the last kept climb or descent line keeps the new one (readsb's
 * altitude is in 25 ft steps: 100 ft is 4 of them, above the jitter) */
const PROFILE_FT = 100;
/** kt: a speed change this big keeps the new point (take-off rolls and landings are speed changes) */
const SPEED_KT = 10;

export interface ThinOptions {
  /** s. no two kept points closer than this, unless ground/air state changes (a 3 deg/s turn is then
   * drawn every 6 deg) */
  minSpacingS: number;
  /** s. straight, level flight keeps one point this often (cruise: 60 points per 30 minutes) */
  levelSpacingS: number;
}

export const DEFAULT_THIN: ThinOptions = { minSpacingS: 2, levelSpacingS: 30 };

/** the kept points as the rule reads them, by index (the live store's trail is one) */
export interface ThinSource {
  t(i: number): number;
  alt(i: number): number;
  track(i: number): number;
  gs(i: number): number;
}

/**
 * Whether a new point (t, alt, trk, gs, fixed point) changes the shape enough to keep, given the
 * last kept point j and the one before it (k = j - 1, used when k >= first).
 */
export function keepsPoint(src: ThinSource, j: number, first: number, t: number, alt: number, trk: number, gs: number, o: ThinOptions): boolean {
  const dt = t - src.t(j);
  if ((src.alt(j) === ALT_GROUND) !== (alt === ALT_GROUND)) return true;
  if (dt < o.minSpacingS) return false;
  if (dt >= o.levelSpacingS) return true;
  if (trk !== NONE16 && src.track(j) !== NONE16 && angleTenths(trk, src.track(j)) >= TURN_DEG * TENTH) return true;
  if (gs !== NONE16 && src.gs(j) !== NONE16 && Math.abs(gs - src.gs(j)) >= SPEED_KT * TENTH) return true;
  if (alt === ALT_GROUND || alt === ALT_NULL || src.alt(j) === ALT_GROUND || src.alt(j) === ALT_NULL) return false;
  // the climb or descent line through the last two kept points, extended to t
  const k = j - 1;
  const rate = k >= first && src.alt(k) !== ALT_GROUND && src.alt(k) !== ALT_NULL ? (src.alt(j) - src.alt(k)) / (src.t(j) - src.t(k)) : 0;
  return Math.abs(alt - (src.alt(j) + rate * dt)) >= PROFILE_FT;
}

/** one decimal in an Int16: track (0..360) and gs (0..3276 kt) fit; absent or out of range = none */
export function fixed16(v: number | null | undefined): number {
  if (v === undefined || v === null || !Number.isFinite(v)) return NONE16;
  const x = Math.round(v * TENTH);
  return x > NONE16 && x <= 32767 ? x : NONE16;
}

/** alt_baro in the rule's fixed point */
function fixedAlt(a: number | 'ground' | null | undefined): number {
  return a === 'ground' ? ALT_GROUND : a === undefined || a === null ? ALT_NULL : Math.round(a);
}

/** the smaller angle between two tracks in tenths of a degree */
function angleTenths(a: number, b: number): number {
  const d = Math.abs(a - b) % 3600;
  return d > 1800 ? 3600 - d : d;
}

/**
 * The indexes of points[from..to] (inclusive, oldest first) the live trace would keep: the first
 * point, then each newer point at a new position that keepsPoint keeps, and always the last one
 * (a leg's end is where it landed or was last heard).
 */
export function thinIndexes(points: readonly TrackPoint[], from: number, to: number, o: ThinOptions = DEFAULT_THIN): number[] {
  if (to < from) return [];
  const kept: number[] = [from];
  const src: ThinSource = {
    t: (i) => points[kept[i]!]!.t,
    alt: (i) => fixedAlt(points[kept[i]!]!.alt),
    track: (i) => fixed16(points[kept[i]!]!.track),
    gs: (i) => fixed16(points[kept[i]!]!.gs),
  };
  for (let i = from + 1; i <= to; i++) {
    const p = points[i]!;
    const last = points[kept[kept.length - 1]!]!;
    if (p.t <= last.t) continue; // not newer than what is kept
    if (Math.round(p.lat * DEG) === Math.round(last.lat * DEG) && Math.round(p.lon * DEG) === Math.round(last.lon * DEG)) continue;
    if (keepsPoint(src, kept.length - 1, 0, p.t, fixedAlt(p.alt), fixed16(p.track), fixed16(p.gs), o)) kept.push(i);
  }
  if (kept[kept.length - 1] !== to && points[to]!.t > points[kept[kept.length - 1]!]!.t) kept.push(to);
  return kept;
}
