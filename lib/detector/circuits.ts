// circuits at small fields for the take-off/landing detector (lib/detector.ts): touch-and-goes, stops
// inside coverage gaps, and landings heard only on final. a light aircraft on a touch-and-go rolls at
// 40-70 kt for 10-40 s, reporting an altitude (most send no ground flag): never slow enough to be
// "ground", so without this a circuit session is one long flight (the KWVI day: recall 0.51). the
// trace's own readings tell where the runway is: each field's *level* is the lowest reading the
// aircraft gave near its runways, which holds the day's pressure (QNH) error. thresholds in
// DetectorOptions (lib/detector/options.ts), each with the case that set it.
import type { DetectorOptions } from './options.ts';
import { GROUND, belowField, saysGround, speedOf, stepOf, type Cls, type TrackPoint } from './points.ts';

/** a touch-and-go (or a stop in a coverage gap): touchdown at `touch`, lift-off at `lift` (indexes);
 * liftAt: the lift-off time when it fell in a gap after `lift` (extrapolated from the climb heard after) */
export interface Contact {
  touch: number;
  lift: number;
  liftAt: number | null;
  /** the lift-off was not heard (a coverage gap, then higher) */
  unheard: boolean;
}

/** per point, what the circuit rules read: the field near it, and that field's level in this trace */
export interface FieldView {
  /** the field's id (or its elevation as a string when the lookup gives no id); null when none near */
  id: (i: number) => string | null;
  /** km from the field's nearest runway centreline; Infinity when none near */
  km: (i: number) => number;
  /** ft, the field's elevation; null when none near */
  elev: (i: number) => number | null;
  /** ft: the lowest reading near the field's runways, confirmed by a neighbour; null when none */
  level: (i: number) => number | null;
  /** ft: that level when it was read at least levelApartS from point i (another visit: the take-off of the
   * next flight, an earlier landing), so that it is the ground and not this pass's bottom; else null */
  levelElsewhere: (i: number) => number | null;
  /** ft: the lowest reading at the field while on the ground (cls), the aircraft's own ground reading; null when never heard so */
  groundLevel: (i: number) => number | null;
  /** ft: readings at one height differ by up to this (an encoder step and the jitter of the roll) */
  tol: number;
}

/** ft: above the highest runway level (Daocheng Yading, 14,472 ft, plus fieldAglFt and a pressure error) */
const ABOVE_ANY_FIELD_FT = 16000;

export function fieldView(pts: TrackPoint[], cls: Cls[], o: DetectorOptions): FieldView {
  const n = pts.length;
  const ids: (string | null)[] = new Array(n).fill(null);
  const kms = new Float64Array(n).fill(Infinity);
  const elevs: (number | null)[] = new Array(n).fill(null);
  for (let i = 0; i < n && o.fields; i++) {
    // a reading higher than any field's runway level is never at one: no lookup (most of an airliner's trace)
    const a = pts[i]!.alt;
    if (typeof a === 'number' && a > ABOVE_ANY_FIELD_FT) continue;
    const f = o.fields(pts[i]!.lat, pts[i]!.lon);
    if (!f) continue;
    ids[i] = f.id ?? String(f.elevation_ft);
    kms[i] = f.km;
    elevs[i] = f.elevation_ft;
  }
  const step = stepOf(pts);
  const tol = step === 100 ? 100 : 50;
  // the lowest reading near each field's runways that a neighbour within 30 s confirms (a spike is alone)
  const level = new Map<string, number>();
  const levelT = new Map<string, number>();
  const ground = new Map<string, number>();
  for (let i = 0; i < n; i++) {
    const p = pts[i]!;
    const id = ids[i];
    if (!id || kms[i]! > o.levelKm || typeof p.alt !== 'number' || saysGround(p, o) || belowField(p, o)) continue;
    if (p.alt - elevs[i]! > o.fieldAglFt) continue;
    let confirmed = false;
    for (const j of [i - 1, i + 1]) {
      const q = pts[j];
      if (q && Math.abs(q.t - p.t) <= 30 && typeof q.alt === 'number' && Math.abs(q.alt - p.alt) <= tol) confirmed = true;
    }
    if (!confirmed) continue;
    if (p.alt < (level.get(id) ?? Infinity)) {
      level.set(id, p.alt);
      levelT.set(id, p.t);
    }
    if (cls[i] === GROUND && p.alt < (ground.get(id) ?? Infinity)) ground.set(id, p.alt);
  }
  return {
    id: (i) => ids[i] ?? null,
    km: (i) => kms[i]!,
    elev: (i) => elevs[i] ?? null,
    level: (i) => (ids[i] ? (level.get(ids[i]!) ?? null) : null),
    levelElsewhere: (i) => (ids[i] && Math.abs((levelT.get(ids[i]!) ?? pts[i]!.t) - pts[i]!.t) >= o.levelApartS ? level.get(ids[i]!)! : null),
    groundLevel: (i) => (ids[i] ? (ground.get(ids[i]!) ?? null) : null),
    tol,
  };
}

/** the point is at its field's runway level: a ground flag or reading, or within tol of the level, on a runway */
function atRunway(pts: TrackPoint[], i: number, v: FieldView, o: DetectorOptions): boolean {
  const p = pts[i]!;
  if (v.km(i) > o.contactKm) return false;
  if (saysGround(p, o) || belowField(p, o)) return true;
  const level = v.level(i);
  return typeof p.alt === 'number' && level !== null && p.alt <= level + v.tol;
}

/** from point k, on along the points at the runway's level in direction dir (not past limit): the last
 * of them. a touchdown is the first point at the ground reading after the descent, a lift-off the last
 * before the climb (bench/detector/README.md), whatever the flag says (it lags: sim flag-stuck) and
 * across a coverage gap between two such points (the aircraft stayed on the runway: monterey-0602 a6c29e,
 * 0 ft at KSNS, 257 s unheard, 0 ft again, then the climb) */
export function alongRunway(pts: TrackPoint[], k: number, dir: 1 | -1, limit: number, v: FieldView, o: DetectorOptions): number {
  const id = v.id(k);
  if (id === null || !atRunway(pts, k, v, o)) return k;
  const numeric = (j: number) => !saysGround(pts[j]!, o) && !belowField(pts[j]!, o);
  while (dir * (limit - k) > 0 && v.id(k + dir) === id && atRunway(pts, k + dir, v, o) && numeric(k + dir)) k += dir;
  return k;
}

/** point i is on a runway at the aircraft's own ground reading there (its ground points, or its level from
 * another visit), or says ground */
export function touchedAt(pts: TrackPoint[], i: number, v: FieldView, o: DetectorOptions): boolean {
  if (!atRunway(pts, i, v, o)) return false;
  const p = pts[i]!;
  if (saysGround(p, o) || belowField(p, o)) return true;
  const own = v.groundLevel(i) ?? v.levelElsewhere(i);
  return own !== null && typeof p.alt === 'number' && p.alt <= own + v.tol / 2;
}

const altOf = (p: TrackPoint, o: DetectorOptions): number | null => (typeof p.alt === 'number' && !saysGround(p, o) ? p.alt : null);

/**
 * The touch-and-goes inside an air run s..e (and stops inside its coverage gaps): a stretch of points on
 * a runway at its level, come down to from contactRiseFt higher within contactWindowS and climbed away from
 * as much within as long, that touched: a ground flag or reading in it, a slowing on the runway (the roll
 * loses contactSlowFrac of the approach speed; a low pass or go-around does not), or a reading as low as
 * the aircraft's own ground reading at that field.
 */
export function contacts(pts: TrackPoint[], s: number, e: number, v: FieldView, o: DetectorOptions): Contact[] {
  const out: Contact[] = [];
  for (let i = s + 1; i < e; i++) {
    if (!atRunway(pts, i, v, o)) continue;
    const id = v.id(i);
    let j = i;
    while (j + 1 < e && v.id(j + 1) === id && atRunway(pts, j + 1, v, o)) j++;
    const r = judge(pts, s, e, i, j, v, o);
    if (r) out.push(r);
    i = j;
  }
  return out;
}

function judge(pts: TrackPoint[], s: number, e: number, i: number, j: number, v: FieldView, o: DetectorOptions): Contact | null {
  let low = Infinity;
  let flag = false;
  for (let k = i; k <= j; k++) {
    const a = altOf(pts[k]!, o);
    if (a !== null && !belowField(pts[k]!, o)) low = Math.min(low, a);
    if (saysGround(pts[k]!, o) || belowField(pts[k]!, o)) flag = true;
  }
  if (low === Infinity) low = v.level(i) ?? v.elev(i)!;
  // came down to it, and climbs away from it
  let came = false;
  let vApp = -1;
  for (let k = i - 1; k >= s && pts[i]!.t - pts[k]!.t <= o.contactWindowS && !came; k--) {
    const a = altOf(pts[k]!, o);
    if (a !== null && a >= low + o.contactRiseFt) came = true;
    if (pts[i]!.t - pts[k]!.t <= 60) vApp = Math.max(vApp, speedOf(pts, k));
  }
  let climb = -1;
  for (let k = j + 1; k <= e && pts[k]!.t - pts[j]!.t <= o.contactWindowS; k++) {
    const a = altOf(pts[k]!, o);
    if (a !== null && a >= low + o.contactRiseFt) {
      climb = k;
      break;
    }
  }
  // no climb heard, but a coverage gap after the stretch: it stopped there and left unheard (KWVI a68847:
  // 50 ft at 58 kt on the runway, then 17 minutes unheard, then 775 ft in the next circuit)
  const unheard = climb < 0 && j + 1 <= e && pts[j + 1]!.t - pts[j]!.t >= o.contactStopS;
  if (!came || (climb < 0 && !unheard)) return null;
  // it touched: a flag, a slowing roll, or the aircraft's own ground reading here
  let vMin = Infinity;
  let speeds = 0;
  for (let k = i; k <= j; k++) {
    if (pts[k]!.gs == null) continue;
    speeds++;
    vMin = Math.min(vMin, pts[k]!.gs!);
  }
  const slowed = speeds >= 2 && vApp > 0 && vMin <= (1 - o.contactSlowFrac) * vApp;
  const own = v.groundLevel(i) ?? v.levelElsewhere(i);
  const ownLevel = own !== null && low <= own + v.tol / 2;
  // a stop inside a coverage gap: at the level on both sides of it
  let stopped = false;
  for (let k = i + 1; k <= j; k++) if (pts[k]!.t - pts[k - 1]!.t >= o.contactStopS) stopped = true;
  if (!flag && !slowed && !ownLevel && !stopped) return null;
  if (unheard) return { touch: i, lift: j, liftAt: null, unheard: true };
  return { touch: i, lift: j, liftAt: liftAt(pts, j, low, o), unheard: false };
}

/** the lift-off fell in the gap after j when the climb is first heard after it: the first point after the
 * gap, less its height over the climb rate heard over the next 20-60 s (mode C steps make a shorter span
 * useless: KWVI a8b7c7 read 600 then 700 ft 3 s apart, 600 ft/min over 50 s), never before j */
function liftAt(pts: TrackPoint[], j: number, low: number, o: DetectorOptions): number | null {
  const c = j + 1;
  if (pts[c]!.t - pts[j]!.t <= o.contactGapS) return null;
  const a = altOf(pts[c]!, o);
  if (a === null || a <= low) return null;
  let fpm = o.contactClimbFpm;
  for (let k = c + 1; k < pts.length && pts[k]!.t - pts[c]!.t <= 60; k++) {
    const b = altOf(pts[k]!, o);
    if (b !== null && pts[k]!.t - pts[c]!.t >= 20 && b > a) fpm = ((b - a) / (pts[k]!.t - pts[c]!.t)) * 60;
  }
  return Math.max(pts[j]!.t, pts[c]!.t - ((a - low) / fpm) * 60);
}
