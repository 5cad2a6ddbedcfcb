// the take-off/landing detector: one pure module, two callers (the live trace store and the
// nightly leg writer). it cuts a track into legs at landings and at coverage gaps the aircraft
// cannot have crossed in the air, and says where each leg's take-off and landing were heard.
//
// the track is first classified point by point (ground / air / unknown), then debounced run by
// run (a flapping on-ground flag, a bad 'ground' at speed and a single glitch never make a
// landing), then cut. see DetectorOptions (lib/detector/options.ts) for every threshold and why;
// the point-by-point reading is lib/detector/points.ts.

import { distanceNm } from './geo.ts';
import { DEFAULT_DETECTOR, type DetectorOptions } from './detector/options.ts';
import { alongRunway, contacts, fieldView, touchedAt, type FieldView } from './detector/circuits.ts';
import { pastRunwayLiftOff, stuckFlagLiftOff } from './detector/stuck.ts';
import { finalTouchdown } from './detector/final.ts';
import {
  AIR,
  GROUND,
  LEVEL_FT,
  belowField,
  classify,
  flownThrough,
  nearField,
  saysGround,
  speedKt,
  type Cls,
  type Run,
  type TrackPoint,
} from './detector/points.ts';

interface Departure {
  at: number;
  lat: number;
  lon: number;
  alt_ft: number;
  index: number;
}
interface Arrival {
  at: number;
  lat: number;
  lon: number;
  index: number;
}
/** start/end: inclusive indexes into points. consecutive legs may share one index (a stop heard once). */
export interface LegCut {
  start: number;
  end: number;
  departure: Departure | null;
  arrival: Arrival | null;
}

export { DEFAULT_DETECTOR, type DetectorOptions, type FieldLookup } from './detector/options.ts';
export type { TrackPoint } from './detector/points.ts';

/** Splits a track (oldest first) into legs at landings and at long coverage gaps. */
export function cutLegs(points: TrackPoint[], opts?: Partial<DetectorOptions>): LegCut[] {
  const o: DetectorOptions = { ...DEFAULT_DETECTOR, ...opts };
  if (points.length === 0) return [];
  const cls = classify(points, o);
  if (!cls) return [];
  const runs = debounce(toRuns(cls), points, o);
  if (!runs.some((r) => r.cls === AIR)) return [];
  const settled: Cls[] = new Array(points.length);
  for (const r of runs) for (let i = r.s; i <= r.e; i++) settled[i] = r.cls;
  return cut(runs, points, o, o.fields ? fieldView(points, settled, o) : null);
}

// ---- runs ----------------------------------------------------------------------------------

function toRuns(cls: Cls[]): Run[] {
  const runs: Run[] = [];
  for (let i = 0; i < cls.length; i++) {
    const top = runs[runs.length - 1];
    if (top && top.cls === cls[i]) top.e = i;
    else runs.push({ cls: cls[i]!, s: i, e: i });
  }
  return runs;
}

/** flips unconfirmed runs to the other class, shortest first, merging neighbours after each flip:
 * a one-point glitch goes before the longer run around it is judged. every flip removes at least
 * one run, so this ends within runs.length rounds. */
function debounce(input: Run[], pts: TrackPoint[], o: DetectorOptions): Run[] {
  let runs = input;
  for (;;) {
    let worst = -1;
    let worstLen = Infinity;
    for (let i = 0; i < runs.length; i++) {
      const r = runs[i]!;
      const edge = i === 0 || i === runs.length - 1 || gapBefore(pts, r.s) > o.gapMinS || gapBefore(pts, r.e + 1) > o.gapMinS;
      const ok = r.cls === GROUND ? groundConfirmed(r, pts, o, edge) : airConfirmed(r, pts, o, edge);
      // duration first, point count to break ties (1 s samples give many equal durations)
      const len = pts[r.e]!.t - pts[r.s]!.t + (r.e - r.s) * 1e-3;
      if (!ok && len < worstLen) {
        worst = i;
        worstLen = len;
      }
    }
    if (worst < 0) return runs;
    const flip = runs[worst]!;
    if (runs.length === 1) return [{ ...flip, cls: flip.cls === GROUND ? AIR : GROUND }];
    const next: Run[] = [];
    for (let i = 0; i < runs.length; i++) {
      const r = i === worst ? { ...flip, cls: (flip.cls === GROUND ? AIR : GROUND) as Cls } : runs[i]!;
      const top = next[next.length - 1];
      if (top && top.cls === r.cls) top.e = r.e;
      else next.push({ ...r });
    }
    runs = next;
  }
}

function gapBefore(pts: TrackPoint[], i: number): number {
  return i <= 0 || i >= pts.length ? 0 : pts[i]!.t - pts[i - 1]!.t;
}

function groundConfirmed(r: Run, pts: TrackPoint[], o: DetectorOptions, edge: boolean): boolean {
  const n = r.e - r.s + 1;
  const long = n >= o.minGroundPoints && pts[r.e]!.t - pts[r.s]!.t >= o.minGroundS;
  if (flownThrough(r, pts, o)) return false;
  // with the field's height: a ground run entered from higher than any descent reaches in the time is a
  // flag, long or not (monterey-0602 a69c56: 2,075 ft at 206 kt, 5 s later "ground" at 202 kt for 100 s)
  if (o.fields && !reachableField(pts, r.s - 1, r, o)) return false;
  // a brief ground run right next to a point high aloft is a glitch (alt 0 / gs 0 written for "no data")
  if (!long && (!reachable(pts, r.s - 1, r.s, o) || !reachable(pts, r.e + 1, r.e, o))) return false;
  // with airfield knowledge: a brief ground reading with no field near it is a glitch, not a landing
  if (!long && o.fields) {
    let near = false;
    for (let i = r.s; i <= r.e && !near; i++) near = nearField(pts[i]!, o);
    if (!near) return false;
  }
  // one point after a coverage gap that the next seconds climb away from was flying (monterey-0602 a445a2:
  // 170 ft over KCVH after 15 minutes unheard, 53 kt, 375 then 500 ft): a take-off at most
  if (edge && n < o.minGroundPoints && o.fields && climbsAway(pts, r.e, o)) return false;
  if (edge) return true; // the trace starts or ends (or goes quiet) on the ground: nothing follows to contradict it
  if (n < o.minGroundPoints) return false;
  let known = false;
  for (let i = r.s; i <= r.e; i++) {
    const gs = pts[i]!.gs;
    if (gs == null) continue;
    known = true;
    if (gs <= o.taxiKt) return true;
  }
  // between two flights the aircraft must slow to taxi speed: a ground flag that stays fast is a
  // touch-and-go or a flag flapping in flight (seen: a tow plane "on the ground" at 55 kt for 80 s)
  return !known && long;
}

/** the points within 30 s after i climb fieldClimbFt above it */
function climbsAway(pts: TrackPoint[], i: number, o: DetectorOptions): boolean {
  const a = pts[i]!.alt;
  if (typeof a !== 'number' || saysGround(pts[i]!, o)) return false;
  for (let j = i + 1; j < pts.length && pts[j]!.t - pts[i]!.t <= 30; j++) {
    const b = pts[j]!.alt;
    if (typeof b === 'number' && !saysGround(pts[j]!, o) && b >= a + o.fieldClimbFt) return true;
  }
  return false;
}

/** can the aircraft get from air point `a` to the ground at point `g` (either order) at a steep vertical rate? */
function reachable(pts: TrackPoint[], a: number, g: number, o: DetectorOptions): boolean {
  const p = pts[a];
  if (!p || typeof p.alt !== 'number') return true;
  const above = p.alt - o.maxFieldFt;
  return above <= 0 || Math.abs(p.t - pts[g]!.t) >= (above / o.maxVertFpm) * 60;
}

/** reachable() with the field's own elevation (and the pressure error) instead of maxFieldFt, when one is near, from the last
 * altitude heard before g (ground flags before it are the same run's, read as air at their speed) */
function reachableField(pts: TrackPoint[], a: number, r: Run, o: DetectorOptions): boolean {
  const g = r.s;
  while (a >= 0 && pts[a] && saysGround(pts[a]!, o) && pts[g]!.t - pts[a]!.t <= 60) a--;
  const p = pts[a];
  if (!p || typeof p.alt !== 'number' || saysGround(p, o)) return true;
  // the field the run is at: the first of its points with one near
  let f = null;
  for (let i = r.s; i <= r.e && !f; i++) f = o.fields!(pts[i]!.lat, pts[i]!.lon);
  const above = p.alt - (f ? f.elevation_ft + o.fieldPressureFt : o.maxFieldFt);
  return above <= 0 || Math.abs(p.t - pts[g]!.t) >= (above / o.maxVertFpm) * 60;
}

function airConfirmed(r: Run, pts: TrackPoint[], o: DetectorOptions, edge: boolean): boolean {
  let maxGs = -1;
  let lo = Infinity;
  let hi = -Infinity;
  for (let i = r.s; i <= r.e; i++) {
    const p = pts[i]!;
    maxGs = Math.max(maxGs, p.gs ?? -1);
    if (typeof p.alt === 'number' && !saysGround(p, o) && !belowField(p, o)) {
      lo = Math.min(lo, p.alt);
      hi = Math.max(hi, p.alt);
    }
  }
  // unknown speed: trust the altitude. a run that climbs or descends more than a mode C step is flight
  // at any speed (a flag does not flap through a descent): a light aircraft first heard on short final
  // at 47-49 kt (Monterey aa34f1)
  const fast = maxGs < 0 || maxGs >= o.airMinKt || hi - lo > LEVEL_FT;
  if (edge) return fast;
  return fast && pts[r.e]!.t - pts[r.s]!.t >= o.minAirS;
}

// ---- cutting --------------------------------------------------------------------------------

/** true when the aircraft cannot have flown from a to b without stopping somewhere */
function stoppedBetween(a: TrackPoint, b: TrackPoint, o: DetectorOptions): boolean {
  const dt = b.t - a.t;
  if (dt <= o.gapMinS) return false;
  const kt = Math.max(a.gs ?? 0, b.gs ?? 0) || o.gapRefKt;
  const direct = (distanceNm(a.lat, a.lon, b.lat, b.lon) / kt) * 3600;
  return dt > direct * o.gapStretch + o.gapSlackS;
}

/** point i (after a gap) is low over a runway climbing away from where the aircraft came down unheard: see unheardStopGapS */
function backOnTheRunway(pts: TrackPoint[], i: number, end: number, o: DetectorOptions): boolean {
  const p = pts[i]!;
  const before = pts[i - 1]!.alt;
  if (!o.fields || p.t - pts[i - 1]!.t < o.unheardStopGapS || typeof p.alt !== 'number' || typeof before !== 'number') return false;
  const f = o.fields(p.lat, p.lon);
  // higher before the gap, or a gap long enough to have landed and taxied back in (monterey-0602 a590f3:
  // 215 ft on final to KSNS, 8 minutes unheard, 165 ft over the field climbing away)
  const higher = before >= p.alt + o.fieldClimbFt || (p.t - pts[i - 1]!.t >= o.unheardTurnS && before >= p.alt);
  if (!f || f.km > o.runwayEndKm || p.alt - f.elevation_ft > o.unheardStopAglFt || !higher) return false;
  for (let j = i + 1; j <= end && pts[j]!.t - p.t <= o.climbWindowS; j++) {
    const a = pts[j]!.alt;
    if (typeof a !== 'number') continue;
    if (a >= p.alt + o.fieldClimbFt) return true;
    if (a <= p.alt - o.fieldClimbFt) return false;
  }
  return false;
}

/** arr / dep: a touch-and-go's touchdown (index) and lift-off (index, and time when it fell in a gap) */
interface Core {
  s: number;
  e: number;
  head: [number, number] | null;
  tail: [number, number] | null;
  arr?: number;
  dep?: { i: number; at: number };
}

/** cuts each core at its touch-and-goes (lib/detector/circuits.ts): a landing and a take-off, two legs */
function atContacts(cores: Core[], pts: TrackPoint[], v: FieldView | null, o: DetectorOptions): Core[] {
  if (!v) return cores;
  const out: Core[] = [];
  for (const c of cores) {
    // the first piece keeps the core's start (head, departure), the last its end (tail, arrival)
    let piece: Core = { ...c, tail: null, arr: undefined };
    for (const k of contacts(pts, c.s, c.e, v, o)) {
      out.push({ ...piece, e: k.touch, arr: k.touch });
      const dep = k.unheard ? {} : { dep: { i: k.lift, at: k.liftAt ?? pts[k.lift]!.t } };
      piece = { s: Math.min(k.touch + 1, k.lift), e: c.e, head: null, tail: null, ...dep };
    }
    out.push({ ...piece, tail: c.tail, arr: c.arr });
  }
  return out;
}

function cut(runs: Run[], pts: TrackPoint[], o: DetectorOptions, v: FieldView | null): LegCut[] {
  // air runs, further cut where the aircraft must have landed unheard
  const cores: Core[] = [];
  for (const r of runs) {
    if (r.cls !== AIR) continue;
    let s = r.s;
    for (let i = r.s + 1; i <= r.e; i++) {
      if (stoppedBetween(pts[i - 1]!, pts[i]!, o)) {
        cores.push({ s, e: i - 1, head: null, tail: null });
        s = i;
      } else if (backOnTheRunway(pts, i, r.e, o)) {
        // back on the runway at the aircraft's own ground reading there: it touched down in the gap too
        // (KWVI a2cbcb: 700 ft, 101 s unheard, 0 ft on the runway as at its full stop 10 minutes before)
        const touched = v !== null && pts[i]!.t - pts[i - 1]!.t <= o.touchGapS && touchedAt(pts, i, v, o);
        cores.push(touched ? { s, e: i, head: null, tail: null, arr: i } : { s, e: i - 1, head: null, tail: null });
        s = i;
      }
    }
    cores.push({ s, e: r.e, head: null, tail: null });
  }
  // each ground run gives its first part to the leg before (taxi-in) and its last to the leg after (taxi-out)
  for (const r of runs) {
    if (r.cls !== GROUND) continue;
    const prev = cores.find((c) => c.e === r.s - 1) ?? null;
    const next = cores.find((c) => c.s === r.e + 1) ?? null;
    const toPrev = prev !== null && !stoppedBetween(pts[prev.e]!, pts[r.s]!, o);
    const toNext = next !== null && pts[next.s]!.t - pts[r.e]!.t <= o.takeoffGapMaxS;
    // a ground track that jumps across a gap was flown unheard: neither side owns the middle
    const jumps: number[] = [];
    for (let i = r.s + 1; i <= r.e; i++) {
      const a = pts[i - 1]!;
      const b = pts[i]!;
      if (distanceNm(a.lat, a.lon, b.lat, b.lon) > o.groundJumpNm) jumps.push(i);
    }
    let prevEnd = jumps.length ? jumps[0]! - 1 : r.e;
    let nextStart = jumps.length ? jumps[jumps.length - 1]! : r.s;
    if (toPrev && toNext && jumps.length === 0) {
      // parked between two legs: cut at the longest silence (the transponder sleeps at the gate)
      if (r.s === r.e) {
        prevEnd = r.s;
        nextStart = r.s;
      } else {
        let best = r.s + 1;
        for (let i = r.s + 2; i <= r.e; i++) if (gapBefore(pts, i) > gapBefore(pts, best)) best = i;
        prevEnd = best - 1;
        nextStart = best;
      }
    }
    if (toPrev) prev!.tail = [r.s, prevEnd];
    if (toNext) next!.head = [nextStart, r.e];
  }
  // where an air run was cut (a stop unheard, or back on the runway after a gap): the leg before ends there
  const cutAt = new Set(cores.map((c) => c.s));
  return atContacts(cores, pts, v, o).map((c) => {
    const stuck = c.head ? (stuckFlagLiftOff(pts, c.head[0], c.head[1], c.e, o) ?? pastRunwayLiftOff(pts, c.head[0], c.head[1], c.e, v, o)) : null;
    let off = c.head ? (stuck ?? settle(pts, c.head[1], c.s, c.e, 1, o)) : -1;
    let on = c.arr ?? (c.tail ? settle(pts, c.tail[0], c.e, c.s, -1, o) : lastHeardOnRunway(pts, c, o, v));
    if (v && off >= 0) off = alongRunway(pts, off, 1, c.e, v, o);
    if (v && on >= 0 && c.arr === undefined) on = alongRunway(pts, on, -1, c.s, v, o);
    // went quiet low on final: the touchdown extrapolated (lib/detector/final.ts), placed where last heard
    const next = pts[c.e + 1];
    const ends = !next || stoppedBetween(pts[c.e]!, next, o) || cutAt.has(c.e + 1);
    const final = v && on < 0 && !c.tail && c.arr === undefined && ends ? finalTouchdown(pts, c.s, c.e, v, o) : null;
    return {
      start: c.head ? c.head[0] : c.s,
      end: c.tail ? c.tail[1] : c.e,
      departure: c.dep ? { ...departureAt(pts, c.dep.i, 0), at: c.dep.at } : c.head ? departureAt(pts, off, 0) : aloftDeparture(pts, c, o),
      arrival:
        on >= 0
          ? { at: pts[on]!.t, lat: pts[on]!.lat, lon: pts[on]!.lon, index: on }
          : final !== null
            ? { at: final, lat: pts[c.e]!.lat, lon: pts[c.e]!.lon, index: c.e }
            : null,
    };
  });
}

/** a leg whose last points come down onto a runway (at the field's height, over it) and then go
 * quiet landed there: coverage at small fields often ends before the roll slows (seen at Monterey,
 * the last point 175 ft over the threshold at 75 kt). -1 when the leg does not end so. */
function lastHeardOnRunway(pts: TrackPoint[], c: Core, o: DetectorOptions, v: FieldView | null): number {
  if (!o.fields) return -1;
  const last = pts[c.e]!;
  const next = pts[c.e + 1];
  if (next && !stoppedBetween(last, next, o)) return -1;
  const f = o.fields(last.lat, last.lon);
  // at most lastAglFt over the elevation, or at the level the aircraft itself read on this field's runways
  // (the day's pressure error: a sim airliner's last point read 215 ft over the elevation, its take-off 165)
  const level = v ? (v.groundLevel(c.e) ?? v.levelElsewhere(c.e)) : null;
  const low = typeof last.alt === 'number' && last.alt - (level ?? f?.elevation_ft ?? 0) <= o.lastAglFt;
  if (!f || f.km > o.runwayEndKm || typeof last.alt !== 'number' || !low) return -1;
  // it came down to get there, within the last few minutes (measured from the lowest reading after,
  // as a rolling aircraft's pressure altitude creeps up while it slows: seen 125 ft at 130 kt, 200 at 67)
  let came = false;
  let lo = last.alt;
  for (let i = c.e; i >= c.s && last.t - pts[i]!.t <= o.lastDescentS && !came; i--) {
    const a = pts[i]!.alt;
    if (typeof a !== 'number') continue;
    lo = Math.min(lo, a);
    came = a >= lo + o.lastDescentFt;
  }
  return came ? settle(pts, c.e, c.e, c.s, -1, o) : -1;
}

/** the lift-off (dir 1: from the last ground point g into the air run from..to) or touchdown (dir -1:
 * from the first ground point back into the air run) point: the air points next to the ground that
 * read within 50 ft of the lowest reading near it are still on the runway (a ground flag lags
 * touchdown by up to minutes; a rolling aircraft may report an altitude). at most settleS away. */
function settle(pts: TrackPoint[], g: number, from: number, to: number, dir: 1 | -1, o: DetectorOptions): number {
  if (!o.fields) return g; // without the field's height the lowest reading may as well be 500 ft up
  const t0 = pts[g]!.t;
  let floor = Infinity;
  for (let i = from; dir * (to - i) >= 0 && Math.abs(pts[i]!.t - t0) <= 2 * o.settleS; i += dir) {
    const a = pts[i]!.alt;
    if (typeof a === 'number' && !belowField(pts[i]!, o)) floor = Math.min(floor, a);
  }
  const f = o.fields(pts[g]!.lat, pts[g]!.lon);
  if (!f || !(floor - f.elevation_ft <= o.fieldAglFt)) return g;
  let best = g;
  for (let i = from; dir * (to - i) >= 0 && Math.abs(pts[i]!.t - t0) <= 2 * o.settleS; i += dir) {
    const a = pts[i]!.alt;
    if (typeof a !== 'number' || a > floor + 50) break;
    // further than settleS only straight across a coverage gap, from a reading below the field's
    // elevation: touchdown fell in the gap (88NV: 187 ft below it at 70 kt, then 59 s unheard, then
    // the first ground report). a trace heard all the way down is not moved so (an approach at 88NV
    // read 100 ft below the field for 46 s before the flag)
    if (Math.abs(pts[i]!.t - t0) > o.settleS && (a > f.elevation_ft || i !== from)) break;
    best = i;
  }
  return best;
}

function departureAt(pts: TrackPoint[], i: number, altFt: number): Departure {
  const p = pts[i]!;
  return { at: p.t, lat: p.lat, lon: p.lon, alt_ft: altFt, index: i };
}

/** first heard aloft: a take-off only when low (spec 2.4: below 5,000 ft) and climbing away */
function aloftDeparture(pts: TrackPoint[], c: Core, o: DetectorOptions): Departure | null {
  // a ground reading inside an air run (a glitch, a bad flag) is no altitude: skip it
  const altOf = (p: TrackPoint): number | null => (typeof p.alt === 'number' && !saysGround(p, o) ? p.alt : null);
  let i = c.s;
  while (i <= c.e && altOf(pts[i]!) === null) i++;
  if (i > c.e) return null;
  const first = altOf(pts[i]!)!;
  let climb = o.climbMinFt;
  // with airfield knowledge: low over a field (La Paz is at 13,300 ft), not merely below 5,000 ft somewhere
  if (o.fields) {
    const f = o.fields(pts[i]!.lat, pts[i]!.lon);
    if (!f || first - f.elevation_ft > o.firstAglFt || f.km > o.firstKm) return null;
    climb = o.fieldClimbFt;
  } else if (first > o.maxFirstAltFt) return null;
  for (let j = i + 1; j <= c.e && pts[j]!.t - pts[i]!.t <= o.climbWindowS; j++) {
    const a = altOf(pts[j]!);
    if (a === null) continue;
    if (a >= first + climb) return !o.fields || ((a - first) / (pts[j]!.t - pts[i]!.t)) * 60 >= o.firstClimbFpm ? departureAt(pts, i, first) : null;
    if (a <= first - climb) return null;
  }
  return null;
}
