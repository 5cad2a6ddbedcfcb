// the estimation method: from the last observed position fly on at the last observed ground speed,
// holding the last track for 10 minutes (spec 3 and 8), then turn toward the destination and fly
// the great circle to it. closed form: a position costs two great-circle evaluations, no stepping.
//
// decisions where the spec is silent:
// - the turn is instant. a rate-one turn (3 deg/s) at 450 kt has a 2.4 nm radius and lasts at most
//   a minute, moving the aircraft a few km from the instant-turn path: well below the method's own
//   error after 10 minutes (tens of km, see the nightly accuracy), and it keeps positions closed form.
// - "holding the track" follows the great circle that starts on the last track, as an aircraft on a
//   navigation route does (over 80 nm at 52 deg N it parts from a constant-track line by about 2 km).
// - without a destination the track is held for 30 minutes, then the estimate is dropped.
// - with a destination the estimate is dropped when its distance to go falls to the top of descent
//   (3 nm per 1,000 ft of the last altitude, at least 20 nm): past that point the real aircraft
//   descends and slows, so a cruise-speed estimate overshoots, and it is usually heard again.
// - every estimate ends after 2 hours (the nightly accuracy measures gaps up to 120 min) and never
//   later than 15 minutes past its ETA.
import { bearingDeg, destinationPoint, distanceNm, normalizeDeg } from '../geo.ts';

/** stable identifier of the method; bump the suffix when its results change */
export const METHOD_ID = 'dr-10m-gc/1';
export const METHOD_NOTE =
  'dead reckoning from the last observed position at the last observed ground speed, holding the last track for 10 minutes, ' +
  'then an instant turn onto the great circle to the destination named by the callsign route; altitude and speed stay as last observed';
/** the plain straight-line baseline the nightly accuracy compares against */
export const BASELINE_ID = 'dr-straight/1';

export const FLY = {
  /** spec 8: the last track is held this long before the turn; seconds */
  holdS: 600,
  /** without a destination the track is held this long, then the estimate ends; seconds */
  noDestinationS: 1800,
  /** no estimate lives longer than this after the last position; seconds */
  hardCapS: 7200,
  /** an estimate ends at most this long after its ETA; seconds */
  etaMarginS: 900,
  /** distance to go at which the estimate ends: nm per 1,000 ft of altitude (the 3:1 descent rule) */
  descentNmPerKft: 3,
  /** and never closer than this; nautical miles */
  minNearNm: 20,
} as const;

export interface FlightStart {
  /** time of the last observed position, unix seconds */
  t: number;
  lat: number;
  lon: number;
  /** degrees true */
  track: number;
  /** knots */
  gs: number;
  /** last observed barometric altitude, feet */
  alt: number;
}

export interface Target {
  lat: number;
  lon: number;
}

export interface Position {
  lat: number;
  lon: number;
  /** degrees true, in [0, 360) */
  track: number;
}

/** Everything about one estimate that does not depend on the clock, computed once. */
export interface Plan {
  start: FlightStart;
  dest: Target | null;
  /** end of the held track */
  turn: { t: number; lat: number; lon: number };
  /** great-circle distance from the turn to the destination, nm (0 without one) */
  legNm: number;
  /** initial bearing from the turn to the destination */
  legBearing: number;
  /** arrival at the destination at the held speed, unix seconds; null without a destination */
  eta: number | null;
  /** the estimate is listed strictly before this time, unix seconds */
  expiresAt: number;
}

const nmFlown = (gs: number, dtS: number) => (gs * dtS) / 3600;

/** Distance to go at which an estimate ends (the top of descent), nm. */
export function nearNm(altFt: number): number {
  return Math.max(FLY.minNearNm, (FLY.descentNmPerKft * Math.max(0, altFt)) / 1000);
}

/** Plan an estimate from the last observed state and the destination (null when unknown). */
export function makePlan(start: FlightStart, dest: Target | null): Plan {
  const held = destinationPoint(start.lat, start.lon, start.track, nmFlown(start.gs, FLY.holdS));
  const turn = { t: start.t + FLY.holdS, lat: held.lat, lon: held.lon };
  if (!dest) {
    return { start, dest: null, turn, legNm: 0, legBearing: start.track, eta: null, expiresAt: start.t + FLY.noDestinationS };
  }
  const legNm = distanceNm(turn.lat, turn.lon, dest.lat, dest.lon);
  const legBearing = bearingDeg(turn.lat, turn.lon, dest.lat, dest.lon);
  const eta = turn.t + (legNm / start.gs) * 3600;
  // distance to go along the estimated path falls linearly from (held + leg) to 0 at the ETA
  const nearAt = eta - (nearNm(start.alt) / start.gs) * 3600;
  const expiresAt = Math.min(nearAt, eta + FLY.etaMarginS, start.t + FLY.hardCapS);
  return { start, dest, turn, legNm, legBearing, eta, expiresAt };
}

/** Fly the held track for `dtS` seconds: position and the great circle's track there. */
function hold(s: FlightStart, dtS: number): Position {
  const d = nmFlown(s.gs, dtS);
  if (d < 1e-6) return { lat: s.lat, lon: s.lon, track: normalizeDeg(s.track) };
  const p = destinationPoint(s.lat, s.lon, s.track, d);
  // the track at p is the reverse of the bearing from p back to the start
  return { lat: p.lat, lon: p.lon, track: normalizeDeg(bearingDeg(p.lat, p.lon, s.lat, s.lon) + 180) };
}

/** The estimated position at time t (unix seconds); before the start it is the start. */
export function positionAt(plan: Plan, t: number): Position {
  const { start, dest, turn } = plan;
  const dt = Math.max(0, t - start.t);
  if (!dest || t <= turn.t) return hold(start, dt);
  const flown = nmFlown(start.gs, t - turn.t);
  if (flown >= plan.legNm) {
    // arrived: stay at the destination on the final track
    const back = bearingDeg(dest.lat, dest.lon, turn.lat, turn.lon);
    return { lat: dest.lat, lon: dest.lon, track: plan.legNm < 1e-6 ? plan.legBearing : normalizeDeg(back + 180) };
  }
  const p = destinationPoint(turn.lat, turn.lon, plan.legBearing, flown);
  return { lat: p.lat, lon: p.lon, track: bearingDeg(p.lat, p.lon, dest.lat, dest.lon) };
}

/** The plain straight-line dead reckoning baseline: the last track held, no turn. */
export function straightAt(start: FlightStart, t: number): Position {
  return hold(start, Math.max(0, t - start.t));
}
