// one flight's path and profile, pure: taxi out along the runway, take-off roll, climb, cruise on
// great circles, descent on a ~3 degree slope, landing roll, taxi in. a Plan is relative to its
// off-block time, so an airframe flying the same sector every day reuses one plan.
import { bearingDeg, destinationPoint, distanceNm } from '../lib/geo.ts';
import type { Perf } from './perf.ts';
import type { SimAirport, SimRunwayEnd } from './world.ts';

export interface LatLon {
  lat: number;
  lon: number;
}

export interface State {
  lat: number;
  lon: number;
  /** ft, or 'ground' */
  alt: number | 'ground';
  /** kt */
  gs: number;
  /** deg true */
  track: number;
  /** ft/min */
  rate: number;
}

export interface GroundLeg {
  kind: 'ground';
  from: LatLon;
  to: LatLon;
  t0: number;
  t1: number;
  v0: number;
  v1: number;
  track: number;
}

/** a stretch in the air: time after off-block (s), distance flown (nm) and altitude (ft) tables over a polyline */
export interface AirLeg {
  kind: 'air';
  t0: number;
  t1: number;
  t: Float64Array;
  s: Float64Array;
  alt: Float64Array;
  /** air polyline: points and cumulative distance */
  pts: LatLon[];
  cum: number[];
}

/** what really happened, for the truth file (sim/truth.ts): a touch-and-go is a landing and a take-off
 * (touchAndGo on both); a go-around and a low pass are neither */
export interface PlanEvent {
  at: number;
  kind: 'takeoff' | 'landing' | 'go-around' | 'low-pass';
  airport: string;
  /** the runway end used (its designator, the end the roll starts from or the final flies toward); null when not known */
  runway: string | null;
  touchAndGo?: boolean;
}

export interface Plan {
  /** s from off-block to on-block */
  duration: number;
  /** s after off-block of the first lift-off and the last touch-down */
  offAt: number;
  onAt: number;
  /** contiguous, oldest first */
  legs: (GroundLeg | AirLeg)[];
  events: PlanEvent[];
}

const TAXI_KT = 14;
/** ft per nm on the descent (3 degrees is ~318) */
const DESCENT_FT_NM = 300;
const FINAL_NM = 8;
const CLIMBOUT_NM = 4;

/** the runway end to use when leaving toward (or arriving from) a bearing: [threshold, far end] */
function pickRunway(ap: SimAirport, bearing: number): [SimRunwayEnd, LatLon] {
  let best: [SimRunwayEnd, LatLon] = [ap.runways[0]!.a, ap.runways[0]!.b];
  let bestDiff = Infinity;
  for (const r of ap.runways) {
    for (const [th, far] of [
      [r.a, r.b],
      [r.b, r.a],
    ] as const) {
      const h = bearingDeg(th.lat, th.lon, far.lat, far.lon);
      const diff = Math.abs(((h - bearing + 540) % 360) - 180);
      if (diff < bestDiff - 1e-9) {
        bestDiff = diff;
        best = [th, far];
      }
    }
  }
  return best;
}

const along = (a: LatLon, b: LatLon, nm: number): LatLon => destinationPoint(a.lat, a.lon, bearingDeg(a.lat, a.lon, b.lat, b.lon), nm);
const mid = (a: LatLon, b: LatLon): LatLon => along(a, b, distanceNm(a.lat, a.lon, b.lat, b.lon) / 2);

/** how a helicopter differs (sim/faults.ts heliShare): a short run-up, a steep climb-out and approach, and a
 * touch-down at a walking pace instead of a landing roll (Monterey a81f3c: 25-50 kt 200 ft over KWVI) */
const HELI = { rollS: 8, climboutNm: 1, finalNm: 2, descentFtNm: 700, touchKt: 8 };

/** Plans a flight from org to dst (the same airport for a local flight) through optional waypoints. */
export function planFlight(org: SimAirport, dst: SimAirport, perf: Perf, waypoints: LatLon[] = [], heli = false): Plan {
  const firstAim = waypoints[0] ?? dst;
  const lastFrom = waypoints[waypoints.length - 1] ?? org;
  const [th0, far0] = pickRunway(org, bearingDeg(org.lat, org.lon, firstAim.lat, firstAim.lon));
  const [th1, far1] = pickRunway(dst, bearingDeg(lastFrom.lat, lastFrom.lon, dst.lat, dst.lon));
  const len0 = distanceNm(th0.lat, th0.lon, far0.lat, far0.lon);
  const len1 = distanceNm(th1.lat, th1.lon, far1.lat, far1.lon);
  const hdg0 = bearingDeg(th0.lat, th0.lon, far0.lat, far0.lon);
  const hdg1 = bearingDeg(th1.lat, th1.lon, far1.lat, far1.lon);
  const ground: GroundLeg[] = [];
  let t = 0;
  // taxi out: from mid-runway (the apron stand-in) to the threshold, then hold a minute
  const m0 = mid(th0, far0);
  const taxiOut = Math.max(60, (len0 / 2 / TAXI_KT) * 3600);
  ground.push({ kind: 'ground', from: m0, to: th0, t0: t, t1: (t += taxiOut), v0: TAXI_KT, v1: TAXI_KT, track: (hdg0 + 180) % 360 });
  ground.push({ kind: 'ground', from: th0, to: th0, t0: t, t1: (t += 60), v0: 0, v1: 0, track: hdg0 });
  // take-off roll: constant acceleration to lift-off within 80 % of the runway
  const rollNm = Math.min(0.8 * len0, (perf.vLoKt * (heli ? HELI.rollS : 35)) / 2 / 3600);
  const rollS = (2 * rollNm * 3600) / perf.vLoKt;
  const lift = along(th0, far0, rollNm);
  ground.push({ kind: 'ground', from: th0, to: lift, t0: t, t1: (t += rollS), v0: 0, v1: perf.vLoKt, track: hdg0 });
  const offAt = t;
  // air polyline
  const climbout = destinationPoint(lift.lat, lift.lon, hdg0, heli ? HELI.climboutNm : CLIMBOUT_NM);
  const touch = along(th1, far1, Math.min(0.2, len1 / 4));
  const faf = destinationPoint(th1.lat, th1.lon, (hdg1 + 180) % 360, heli ? HELI.finalNm : FINAL_NM);
  const descent = heli ? HELI.descentFtNm : DESCENT_FT_NM;
  const pts: LatLon[] = [lift, climbout, ...waypoints, faf, touch];
  const cum = cumulative(pts);
  const D = cum[cum.length - 1]!;
  const e0 = org.elevation_ft ?? 0;
  const e1 = dst.elevation_ft ?? 0;
  // light aircraft from a high field still cruise some 1,500 ft above it
  const cruise = Math.max(perf.cruiseFt, Math.max(e0, e1) + 1500);
  const altAt = (s: number) => Math.max(Math.min(e0, e1), Math.min(cruise, e0 + perf.climbFtNm * s, e1 + 50 + descent * (D - s)));
  const speedAt = (alt: number, s: number) => {
    const agl = alt - (s < D / 2 ? e0 : e1);
    let v = perf.vLoKt + (perf.cruiseKt - perf.vLoKt) * Math.min(1, Math.max(0, agl) / (0.7 * cruise));
    // below 10,000 ft: the 250 kt limit
    if (alt < 10000) v = Math.min(v, Math.max(250, perf.vLoKt));
    return v;
  };
  // a helicopter slows from its approach speed to a walking pace over the last few hundred metres
  const endSpeed = heli
    ? (alt: number, s2: number) => Math.min(speedAt(alt, s2), HELI.touchKt + (D - s2) * 150)
    : (alt: number, s2: number) => (s2 >= D ? perf.vLoKt * 0.95 : speedAt(alt, s2));
  const air = airLeg(t, pts, cum, altAt, endSpeed, perf.vLoKt, e0, cruise);
  t = air.t1;
  const onAt = t;
  // landing roll, then taxi back to mid-runway
  const vTouch = heli ? HELI.touchKt : perf.vLoKt * 0.95;
  const vOut = heli ? 5 : 20;
  const rolloutNm = Math.min(0.6 * len1, (((vTouch + vOut) / 2) * (heli ? 5 : 30)) / 3600);
  const rolloutS = (rolloutNm / ((vTouch + vOut) / 2)) * 3600;
  const stop = along(touch, far1, rolloutNm);
  ground.push({ kind: 'ground', from: touch, to: stop, t0: t, t1: (t += rolloutS), v0: vTouch, v1: vOut, track: hdg1 });
  const m1 = mid(th1, far1);
  const back = distanceNm(stop.lat, stop.lon, m1.lat, m1.lon);
  const taxiIn = Math.max(60, (back / TAXI_KT) * 3600);
  ground.push({
    kind: 'ground',
    from: stop,
    to: m1,
    t0: t,
    t1: (t += taxiIn),
    v0: TAXI_KT,
    v1: TAXI_KT,
    track: bearingDeg(stop.lat, stop.lon, m1.lat, m1.lon),
  });
  const legs = [...ground.slice(0, 3), air, ...ground.slice(3)];
  const events: PlanEvent[] = [
    { at: offAt, kind: 'takeoff', airport: org.ident, runway: th0.ident },
    { at: onAt, kind: 'landing', airport: dst.ident, runway: th1.ident },
  ];
  return { duration: t, offAt, onAt, legs, events };
}

/** the air table along a polyline from t0: altitude and speed as functions of the distance flown,
 * 1 nm steps below `level` or near the end, 10 nm in cruise */
export function airLeg(
  t0: number,
  pts: LatLon[],
  cum: number[],
  altAt: (s: number) => number,
  speedAt: (alt: number, s: number) => number,
  v0: number,
  a0: number,
  level: number,
): AirLeg {
  const D = cum[cum.length - 1]!;
  let t = t0;
  const ts: number[] = [t];
  const ss: number[] = [0];
  const as: number[] = [a0];
  let s = 0;
  let alt = a0;
  let v = v0;
  while (s < D) {
    const ds = Math.min(D - s, alt < level - 1 || D - s < 150 ? 1 : 10);
    const s2 = s + ds;
    const alt2 = altAt(s2);
    const v2 = speedAt(alt2, s2);
    t += (ds / ((v + v2) / 2)) * 3600;
    s = s2;
    alt = alt2;
    v = v2;
    ts.push(t);
    ss.push(s);
    as.push(alt);
  }
  return { kind: 'air', t0, t1: t, t: Float64Array.from(ts), s: Float64Array.from(ss), alt: Float64Array.from(as), pts, cum };
}

/** cumulative distances along a polyline, nm */
export function cumulative(pts: LatLon[]): number[] {
  const cum = [0];
  for (let i = 1; i < pts.length; i++) cum.push(cum[i - 1]! + distanceNm(pts[i - 1]!.lat, pts[i - 1]!.lon, pts[i]!.lat, pts[i]!.lon));
  return cum;
}

const r1 = (x: number) => Math.round(x * 10) / 10;

/** The state `dt` seconds after off-block, or null outside [0, duration]. */
export function stateAt(plan: Plan, dt: number): State | null {
  if (!(dt >= 0 && dt <= plan.duration)) return null;
  const leg = legAt(plan.legs, dt);
  return leg.kind === 'ground' ? groundState(leg, dt) : airState(leg, dt);
}

/** the leg holding dt: at a boundary the earlier one, except that an air leg's first instant is in the air */
function legAt(legs: Plan['legs'], dt: number): GroundLeg | AirLeg {
  let lo = 0;
  let hi = legs.length - 1;
  while (lo < hi) {
    const m = (lo + hi + 1) >> 1;
    if (legs[m]!.t0 <= dt) lo = m;
    else hi = m - 1;
  }
  const leg = legs[lo]!;
  const prev = legs[lo - 1];
  return prev && leg.kind === 'ground' && dt === leg.t0 && prev.t1 >= dt ? prev : leg;
}

function groundState(g: GroundLeg, dt: number): State {
  const f = g.t1 > g.t0 ? (dt - g.t0) / (g.t1 - g.t0) : 0;
  // constant acceleration: distance goes with the mean speed so far
  const vMean = g.v0 + ((g.v1 - g.v0) * f) / 2;
  const total = (g.v0 + g.v1) / 2;
  const frac = total > 0 ? (f * vMean) / total : 0;
  const d = distanceNm(g.from.lat, g.from.lon, g.to.lat, g.to.lon);
  const p = d > 0 ? along(g.from, g.to, d * frac) : g.from;
  return { lat: p.lat, lon: p.lon, alt: 'ground', gs: r1(g.v0 + (g.v1 - g.v0) * f), track: g.track, rate: 0 };
}

function airState(plan: AirLeg, dt: number): State {
  // binary search in the air table
  const T = plan.t;
  let lo = 0;
  let hi = T.length - 1;
  while (hi - lo > 1) {
    const m = (lo + hi) >> 1;
    if (T[m]! <= dt) lo = m;
    else hi = m;
  }
  const span = T[hi]! - T[lo]!;
  const f = span > 0 ? (dt - T[lo]!) / span : 0;
  const s = plan.s[lo]! + (plan.s[hi]! - plan.s[lo]!) * f;
  const alt = plan.alt[lo]! + (plan.alt[hi]! - plan.alt[lo]!) * f;
  const gs = span > 0 ? ((plan.s[hi]! - plan.s[lo]!) / span) * 3600 : 0;
  const rate = span > 0 ? ((plan.alt[hi]! - plan.alt[lo]!) / span) * 60 : 0;
  // position on the polyline
  const cum = plan.cum;
  let k = 0;
  while (k < cum.length - 2 && cum[k + 1]! < s) k++;
  const a = plan.pts[k]!;
  const b = plan.pts[k + 1]!;
  const p = along(a, b, s - cum[k]!);
  const track = distanceNm(p.lat, p.lon, b.lat, b.lon) > 0.05 ? bearingDeg(p.lat, p.lon, b.lat, b.lon) : bearingDeg(a.lat, a.lon, b.lat, b.lon);
  return { lat: p.lat, lon: p.lon, alt: Math.round(alt / 25) * 25, gs: r1(gs), track: r1(track), rate: Math.round(rate / 64) * 64 };
}
