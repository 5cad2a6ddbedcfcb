// a circuit session at a GA field, pure: taxi out, take-off, laps of the traffic pattern each ending
// in a touch-and-go (touch down, roll 15-40 s, lift off again), a go-around (down to 100-300 ft on
// final, climb away) or a low pass (20-150 ft along the runway at speed), then a full stop. the
// pattern is the usual rectangle: upwind past the far end, crosswind, downwind ~0.9 nm abeam at
// 1,000 ft above the field, base and a ~1.2 nm final. events say what really happened (sim/truth.ts).
import { bearingDeg, destinationPoint, distanceNm } from '../lib/geo.ts';
import type { Perf } from './perf.ts';
import type { SimAirport, SimRunwayEnd } from './world.ts';
import { airLeg, cumulative, type AirLeg, type GroundLeg, type LatLon, type Plan, type PlanEvent } from './fly.ts';

export type LapEnd = { kind: 'touch-and-go'; rollS: number } | { kind: 'go-around'; floorFt: number } | { kind: 'low-pass'; floorFt: number };

const TAXI_KT = 14;
const PATTERN_AGL_FT = 1000;
const DESCENT_FT_NM = 300;
/** nm: the downwind's offset from the runway, how far the upwind runs past it, and the final's length */
const OFFSET_NM = 0.9;
const UPWIND_NM = 0.8;
const FINAL_NM = 1.2;

const along = (a: LatLon, b: LatLon, nm: number): LatLon => destinationPoint(a.lat, a.lon, bearingDeg(a.lat, a.lon, b.lat, b.lon), nm);

/** the session's runway: the field's longest, flown in the direction `u` in [0, 1) picks */
function runwayOf(ap: SimAirport, u: number): [SimRunwayEnd, LatLon, number] {
  let best = ap.runways[0]!;
  for (const r of ap.runways) if (distanceNm(r.a.lat, r.a.lon, r.b.lat, r.b.lon) > distanceNm(best.a.lat, best.a.lon, best.b.lat, best.b.lon)) best = r;
  const [th, far] = u < 0.5 ? [best.a, best.b] : [best.b, best.a];
  return [th, far, distanceNm(th.lat, th.lon, far.lat, far.lon)];
}

/** Plans a circuit session: `laps` patterns, each ending as its LapEnd says, then a full-stop landing. `u` picks the runway direction and the side. */
export function circuitPlan(home: SimAirport, perf: Perf, laps: LapEnd[], u: number): Plan {
  const [th, far, len] = runwayOf(home, u);
  const hdg = bearingDeg(th.lat, th.lon, far.lat, far.lon);
  const runway = th.ident;
  const side = (u * 4) % 1 < 0.5 ? -90 : 90;
  const e = home.elevation_ft ?? 0;
  const legs: (GroundLeg | AirLeg)[] = [];
  const events: PlanEvent[] = [];
  const ground = (from: LatLon, to: LatLon, dur: number, v0: number, v1: number, track: number) => {
    const t0 = legs.length ? legs[legs.length - 1]!.t1 : 0;
    legs.push({ kind: 'ground', from, to, t0, t1: t0 + dur, v0, v1, track });
    return t0 + dur;
  };
  // taxi out from mid-runway to the threshold, hold, take-off roll
  const mid = along(th, far, len / 2);
  ground(mid, th, Math.max(60, (len / 2 / TAXI_KT) * 3600), TAXI_KT, TAXI_KT, (hdg + 180) % 360);
  ground(th, th, 30, 0, 0, hdg);
  const rollNm = Math.min(0.7 * len, (perf.vLoKt * 25) / 2 / 3600);
  let lift = along(th, far, rollNm);
  let t = ground(th, lift, (2 * rollNm * 3600) / perf.vLoKt, 0, perf.vLoKt, hdg);
  events.push({ at: t, kind: 'takeoff', airport: home.ident, runway });
  const offAt = t;
  // the pattern's corners
  const upwind = destinationPoint(far.lat, far.lon, hdg, UPWIND_NM);
  const cross = destinationPoint(upwind.lat, upwind.lon, hdg + side, OFFSET_NM);
  const baseAt = destinationPoint(th.lat, th.lon, hdg + 180, FINAL_NM);
  const downEnd = destinationPoint(baseAt.lat, baseAt.lon, hdg + side, OFFSET_NM);
  const touch = along(th, far, Math.min(0.1, len / 5));
  let startAgl = 0;
  let vStart = perf.vLoKt;
  let from = lift;
  const vApp = perf.vLoKt * 1.05;
  const lap = (to: LatLon, endAgl: number) => {
    const pts = [from, upwind, cross, downEnd, baseAt, to];
    const cum = cumulative(pts);
    const D = cum[cum.length - 1]!;
    const altAt = (s: number) => e + Math.max(endAgl, Math.min(PATTERN_AGL_FT, startAgl + perf.climbFtNm * s, endAgl + DESCENT_FT_NM * (D - s)));
    const cruiseKt = Math.min(perf.cruiseKt, perf.vLoKt * 1.5);
    const speedAt = (alt: number, s: number) => (D - s < FINAL_NM ? vApp : Math.min(cruiseKt, vStart + (cruiseKt - vStart) * Math.min(1, s / 1.5)));
    const leg = airLeg(t, pts, cum, altAt, speedAt, vStart, e + startAgl, e + PATTERN_AGL_FT);
    legs.push(leg);
    t = leg.t1;
  };
  for (const end of laps) {
    if (end.kind === 'touch-and-go') {
      lap(touch, 0);
      events.push({ at: t, kind: 'landing', airport: home.ident, runway, touchAndGo: true });
      // decelerate, then accelerate again, within what is left of the runway
      const roomNm = Math.max(0.1, len - Math.min(0.1, len / 5) - 0.05);
      const vMin = perf.vLoKt * 0.6;
      const avg = (perf.vLoKt * 0.95 + 2 * vMin + perf.vLoKt) / 4;
      const rollS = Math.min(end.rollS, (roomNm / avg) * 3600);
      const halfway = along(touch, far, (((perf.vLoKt * 0.95 + vMin) / 2) * (rollS / 2)) / 3600);
      ground(touch, halfway, rollS / 2, perf.vLoKt * 0.95, vMin, hdg);
      lift = along(halfway, far, (((vMin + perf.vLoKt) / 2) * (rollS / 2)) / 3600);
      t = ground(halfway, lift, rollS / 2, vMin, perf.vLoKt, hdg);
      events.push({ at: t, kind: 'takeoff', airport: home.ident, runway, touchAndGo: true });
      from = lift;
      startAgl = 0;
      vStart = perf.vLoKt;
    } else {
      // a go-around turns back up short of the threshold; a low pass flies along the runway
      const pass = end.kind === 'go-around' ? destinationPoint(th.lat, th.lon, hdg + 180, 0.3) : along(th, far, len / 2);
      lap(pass, end.floorFt);
      events.push({ at: t, kind: end.kind, airport: home.ident, runway });
      from = pass;
      startAgl = end.floorFt;
      vStart = vApp;
    }
  }
  // the full stop: final, touch-down, roll-out to taxi speed, back to mid-runway
  lap(touch, 0);
  const onAt = t;
  events.push({ at: t, kind: 'landing', airport: home.ident, runway });
  const rolloutNm = Math.min(0.6 * len, (((perf.vLoKt * 0.95 + 15) / 2) * 20) / 3600);
  const stop = along(touch, far, rolloutNm);
  ground(touch, stop, (rolloutNm / ((perf.vLoKt * 0.95 + 15) / 2)) * 3600, perf.vLoKt * 0.95, 15, hdg);
  const back = distanceNm(stop.lat, stop.lon, mid.lat, mid.lon);
  const end = ground(stop, mid, Math.max(60, (back / TAXI_KT) * 3600), TAXI_KT, TAXI_KT, bearingDeg(stop.lat, stop.lon, mid.lat, mid.lon));
  return { duration: end, offAt, onAt, legs, events };
}
