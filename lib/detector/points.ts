// reading a track point by point for the take-off/landing detector (lib/detector.ts): each point's
// class (ground / air / unknown) and the readings the rules share (height above the field, speed,
// the ground flag).

import { distanceNm } from '../geo.ts';
import type { DetectorOptions } from './options.ts';

export interface TrackPoint {
  /** unix seconds */
  t: number;
  lat: number;
  lon: number;
  /** barometric altitude, feet; 'ground' when the transponder says so; null when unknown */
  alt: number | 'ground' | null;
  /** ground speed, knots */
  gs?: number | null;
  /** track, degrees true */
  track?: number | null;
}

export const GROUND = 1;
export const AIR = 2;
export type Cls = typeof GROUND | typeof AIR;

/** a maximal run of same-class points, inclusive indexes */
export interface Run {
  cls: Cls;
  s: number;
  e: number;
}

/** per-point class; unknown altitudes borrow the class before them. null when there is no air and no ground at all */
export function classify(points: TrackPoint[], o: DetectorOptions): Cls[] | null {
  // the altitude of each slow reading near a field (Infinity elsewhere), for hovering()
  const slowAt: number[] = new Array<number>(points.length).fill(Infinity);
  const raw: (Cls | 0)[] = points.map((p, i) => pointClass(points, i, o, slowAt));
  hovering(points, raw, slowAt, o, stepOf(points) === 100 ? LEVEL_FT : HOVER_25_FT);
  const first = raw.findIndex((c) => c !== 0);
  if (first < 0) {
    // no altitude anywhere: moving at flight speed is the only evidence left
    if (!points.some((p) => (p.gs ?? 0) >= o.airMinKt)) return null;
    return points.map(() => AIR);
  }
  const out: Cls[] = new Array(points.length);
  let last = raw[first] as Cls;
  for (let i = 0; i < points.length; i++) {
    const c = raw[i];
    if (c !== 0) last = c;
    out[i] = last;
  }
  return out;
}

export function saysGround(p: TrackPoint, o: DetectorOptions): boolean {
  return p.alt === 'ground' || (o.groundAltFt !== null && typeof p.alt === 'number' && p.alt <= o.groundAltFt);
}

function pointClass(pts: TrackPoint[], i: number, o: DetectorOptions, slowAt: number[]): Cls | 0 {
  const p = pts[i]!;
  const h = heightAboveField(p, o); // one field lookup per point
  if (saysGround(p, o) || (h !== null && h < -o.belowFieldFt)) return speedKt(pts, i) > o.groundMaxKt ? AIR : GROUND;
  if (typeof p.alt !== 'number') return 0;
  // the reported speed first here: speeds from positions 1-3 s apart are too coarse to tell 40 kt from 50
  const slow = h !== null && (p.gs ?? speedKt(pts, i)) <= o.fieldSlowKt;
  if (slow) slowAt[i] = p.alt;
  return slow && h <= o.fieldAglFt && level(pts, i) ? GROUND : AIR;
}

/** a slow, level point at a field's height that reads more than LEVEL_FT above another slow reading
 * there within hoverS is off the ground: a helicopter hovering 210 ft up before it sets down in a gap,
 * a light aircraft first heard on short final at 47 kt. ground readings at one field agree within a
 * mode C step. (sliding minimum over the window: one pass) */
function hovering(pts: TrackPoint[], raw: (Cls | 0)[], slowAt: number[], o: DetectorOptions, above: number): void {
  const dq: number[] = [];
  let head = 0;
  let add = 0;
  for (let i = 0; i < pts.length; i++) {
    const t = pts[i]!.t;
    for (; add < pts.length && pts[add]!.t <= t + o.hoverS; add++) {
      if (slowAt[add] === Infinity) continue;
      while (dq.length > head && slowAt[dq[dq.length - 1]!]! >= slowAt[add]!) dq.pop();
      dq.push(add);
    }
    while (head < dq.length && pts[dq[head]!]!.t < t - o.hoverS) head++;
    if (raw[i] === GROUND && slowAt[i]! < Infinity && head < dq.length && slowAt[i]! > slowAt[dq[head]!]! + above) raw[i] = AIR;
  }
}

/** a run of ground flags flown through: some transponders say "ground" below ~45 kt, and a slow
 * aircraft sends it for up to 40 s at 3,000-4,300 ft (Monterey). true when the readings just before and
 * just after the run (each within 30 s) are both more than flagAglFt above the nearby field, or, with no
 * field near, agree within 200 ft and the minute before the run has no descent (a landing comes down) */
export function flownThrough(r: Run, pts: TrackPoint[], o: DetectorOptions): boolean {
  const before = pts[r.s - 1];
  const after = pts[r.e + 1];
  if (!o.fields || !before || !after || typeof before.alt !== 'number' || typeof after.alt !== 'number') return false;
  if (pts[r.s]!.t - before.t > 30 || after.t - pts[r.e]!.t > 30 || saysGround(before, o) || saysGround(after, o)) return false;
  const f = o.fields(pts[r.s]!.lat, pts[r.s]!.lon);
  if (f) return before.alt - f.elevation_ft > o.flagAglFt && after.alt - f.elevation_ft > o.flagAglFt;
  if (Math.abs(before.alt - after.alt) > 2 * LEVEL_FT) return false;
  for (let j = r.s - 1; j >= 0 && before.t - pts[j]!.t <= 60; j--) {
    const a = pts[j]!.alt;
    if (typeof a === 'number' && !saysGround(pts[j]!, o) && a > before.alt + LEVEL_FT) return false;
  }
  return true;
}

/** ft. ground readings jitter by a mode C step; more than this is a climb or a descent */
export const LEVEL_FT = 100;
/** ft. with a 25 ft encoder, a slow reading this far above the lowest slow one near it is off the ground
 * (KWVI a3688d, a light-sport at 38-47 kt: 175-300 ft on final, 75 ft on the runway) */
const HOVER_25_FT = 50;

/** the trace's altitude step: 100 ft when nearly all its readings are whole hundreds (mode C), else 25 */
export function stepOf(pts: TrackPoint[]): number {
  let n = 0;
  let hundreds = 0;
  for (const p of pts) {
    if (typeof p.alt !== 'number') continue;
    n++;
    if (p.alt % 100 === 0) hundreds++;
  }
  return n >= 10 && hundreds >= 0.9 * n ? 100 : 25;
}

/** no climb or descent within 10 s either side (a glider sinking slowly 400 ft over the field is not on
 * the ground); ground readings jitter by a mode C step */
function level(pts: TrackPoint[], i: number): boolean {
  const t = pts[i]!.t;
  let lo = Infinity;
  let hi = -Infinity;
  for (const dir of [-1, 1]) {
    for (let j = i; j >= 0 && j < pts.length && Math.abs(pts[j]!.t - t) <= 10; j += dir) {
      const a = pts[j]!.alt;
      if (typeof a !== 'number') continue;
      lo = Math.min(lo, a);
      hi = Math.max(hi, a);
    }
  }
  return hi - lo <= LEVEL_FT;
}

/** ft above the nearby field's elevation; null without a numeric altitude or a field */
export function heightAboveField(p: TrackPoint, o: DetectorOptions): number | null {
  if (typeof p.alt !== 'number' || !o.fields) return null;
  const f = o.fields(p.lat, p.lon);
  return f ? p.alt - f.elevation_ft : null;
}

/** a reading far below the field it is next to: the feed's way of writing "on the ground" */
export function belowField(p: TrackPoint, o: DetectorOptions): boolean {
  const h = heightAboveField(p, o);
  return h !== null && h < -o.belowFieldFt;
}

export const nearField = (p: TrackPoint, o: DetectorOptions) => o.fields !== null && o.fields(p.lat, p.lon) !== null;

/** the point's speed, knots: from its neighbours' positions when one is close in time (a reported
 * speed can be stale or garbage: seen 468 kt on a taxiway), else the reported one; 0 when unknown */
export function speedKt(pts: TrackPoint[], i: number): number {
  const p = pts[i]!;
  for (const j of [i - 1, i + 1]) {
    const q = pts[j];
    if (!q) continue;
    const dt = Math.abs(q.t - p.t);
    if (dt >= 1 && dt <= 120) return (distanceNm(p.lat, p.lon, q.lat, q.lon) / dt) * 3600;
  }
  return p.gs ?? 0;
}

/** the point's reported speed, or from its neighbours' positions */
export const speedOf = (pts: TrackPoint[], i: number) => pts[i]!.gs ?? speedKt(pts, i);
