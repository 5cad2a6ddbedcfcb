// one flight's path and profile, pure: taxi out along the runway, take-off roll, climb, cruise on
// great circles, descent on a ~3 degree slope, landing roll, taxi in. a Plan is relative to its
// off-block time, so an airframe flying the same sector every day reuses one plan.
import { bearingDeg, destinationPoint, distanceNm } from '../lib/geo.ts';
import type { Perf } from './perf.ts';
import type { SimAirport } from './world.ts';

export interface LatLon { lat: number; lon: number }

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

interface GroundLeg { from: LatLon; to: LatLon; t0: number; t1: number; v0: number; v1: number; track: number }

export interface Plan {
  /** s from off-block to on-block */
  duration: number;
  /** s after off-block of lift-off and touch-down */
  offAt: number;
  onAt: number;
  ground: GroundLeg[];
  /** air table: time after off-block (s), distance flown (nm), altitude (ft) */
  t: Float64Array;
  s: Float64Array;
  alt: Float64Array;
  /** air polyline: points and cumulative distance */
  pts: LatLon[];
  cum: number[];
}

const TAXI_KT = 14;
/** ft per nm on the descent (3 degrees is ~318) */
const DESCENT_FT_NM = 300;
const FINAL_NM = 8;
const CLIMBOUT_NM = 4;

/** the runway end to use when leaving toward (or arriving from) a bearing: [threshold, far end] */
function pickRunway(ap: SimAirport, bearing: number): [LatLon, LatLon] {
  let best: [LatLon, LatLon] = [ap.runways[0]!.a, ap.runways[0]!.b];
  let bestDiff = Infinity;
  for (const r of ap.runways) {
    for (const [th, far] of [[r.a, r.b], [r.b, r.a]] as const) {
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

/** Plans a flight from org to dst (the same airport for a local flight) through optional waypoints. */
export function planFlight(org: SimAirport, dst: SimAirport, perf: Perf, waypoints: LatLon[] = []): Plan {
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
  ground.push({ from: m0, to: th0, t0: t, t1: (t += taxiOut), v0: TAXI_KT, v1: TAXI_KT, track: (hdg0 + 180) % 360 });
  ground.push({ from: th0, to: th0, t0: t, t1: (t += 60), v0: 0, v1: 0, track: hdg0 });
  // take-off roll: constant acceleration to lift-off within 80 % of the runway
  const rollNm = Math.min(0.8 * len0, (perf.vLoKt * 35) / 2 / 3600);
  const rollS = (2 * rollNm * 3600) / perf.vLoKt;
  const lift = along(th0, far0, rollNm);
  ground.push({ from: th0, to: lift, t0: t, t1: (t += rollS), v0: 0, v1: perf.vLoKt, track: hdg0 });
  const offAt = t;
  // air polyline
  const climbout = destinationPoint(lift.lat, lift.lon, hdg0, CLIMBOUT_NM);
  const touch = along(th1, far1, Math.min(0.2, len1 / 4));
  const faf = destinationPoint(th1.lat, th1.lon, (hdg1 + 180) % 360, FINAL_NM);
  const pts: LatLon[] = [lift, climbout, ...waypoints, faf, touch];
  const cum = [0];
  for (let i = 1; i < pts.length; i++) cum.push(cum[i - 1]! + distanceNm(pts[i - 1]!.lat, pts[i - 1]!.lon, pts[i]!.lat, pts[i]!.lon));
  const D = cum[cum.length - 1]!;
  const e0 = org.elevation_ft ?? 0;
  const e1 = dst.elevation_ft ?? 0;
  // light aircraft from a high field still cruise some 1,500 ft above it
  const cruise = Math.max(perf.cruiseFt, Math.max(e0, e1) + 1500);
  const altAt = (s: number) => Math.max(Math.min(e0, e1), Math.min(cruise, e0 + perf.climbFtNm * s, e1 + 50 + DESCENT_FT_NM * (D - s)));
  const speedAt = (alt: number, s: number) => {
    const agl = alt - (s < D / 2 ? e0 : e1);
    let v = perf.vLoKt + (perf.cruiseKt - perf.vLoKt) * Math.min(1, Math.max(0, agl) / (0.7 * cruise));
    // below 10,000 ft: the 250 kt limit
    if (alt < 10000) v = Math.min(v, Math.max(250, perf.vLoKt));
    return v;
  };
  const ts: number[] = [t];
  const ss: number[] = [0];
  const as: number[] = [e0];
  let s = 0;
  let alt = e0;
  let v = perf.vLoKt;
  while (s < D) {
    const ds = Math.min(D - s, alt < cruise - 1 || D - s < 150 ? 1 : 10);
    const s2 = s + ds;
    const alt2 = altAt(s2);
    const v2 = s2 >= D ? perf.vLoKt * 0.95 : speedAt(alt2, s2);
    t += (ds / ((v + v2) / 2)) * 3600;
    s = s2;
    alt = alt2;
    v = v2;
    ts.push(t);
    ss.push(s);
    as.push(alt);
  }
  const onAt = t;
  // landing roll, then taxi back to mid-runway
  const vTouch = perf.vLoKt * 0.95;
  const rolloutNm = Math.min(0.6 * len1, ((vTouch + 20) / 2) * 30 / 3600);
  const rolloutS = (rolloutNm / ((vTouch + 20) / 2)) * 3600;
  const stop = along(touch, far1, rolloutNm);
  ground.push({ from: touch, to: stop, t0: t, t1: (t += rolloutS), v0: vTouch, v1: 20, track: hdg1 });
  const m1 = mid(th1, far1);
  const back = distanceNm(stop.lat, stop.lon, m1.lat, m1.lon);
  const taxiIn = Math.max(60, (back / TAXI_KT) * 3600);
  ground.push({ from: stop, to: m1, t0: t, t1: (t += taxiIn), v0: TAXI_KT, v1: TAXI_KT, track: bearingDeg(stop.lat, stop.lon, m1.lat, m1.lon) });
  return { duration: t, offAt, onAt, ground, t: Float64Array.from(ts), s: Float64Array.from(ss), alt: Float64Array.from(as), pts, cum };
}

const r1 = (x: number) => Math.round(x * 10) / 10;

/** The state `dt` seconds after off-block, or null outside [0, duration]. */
export function stateAt(plan: Plan, dt: number): State | null {
  if (!(dt >= 0 && dt <= plan.duration)) return null;
  if (dt < plan.offAt || dt > plan.onAt) {
    for (const g of plan.ground) {
      if (dt < g.t0 || dt > g.t1) continue;
      const f = g.t1 > g.t0 ? (dt - g.t0) / (g.t1 - g.t0) : 0;
      // constant acceleration: distance goes with the mean speed so far
      const vMean = g.v0 + ((g.v1 - g.v0) * f) / 2;
      const total = (g.v0 + g.v1) / 2;
      const frac = total > 0 ? (f * vMean) / total : 0;
      const d = distanceNm(g.from.lat, g.from.lon, g.to.lat, g.to.lon);
      const p = d > 0 ? along(g.from, g.to, d * frac) : g.from;
      return { lat: p.lat, lon: p.lon, alt: 'ground', gs: r1(g.v0 + (g.v1 - g.v0) * f), track: g.track, rate: 0 };
    }
    return null;
  }
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
