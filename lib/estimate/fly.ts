// the estimation method: from the last observed position fly on at the last observed ground speed,
// holding the last track for 10 minutes (spec 3 and 8), then turn toward the destination. how it
// gets there, first that applies, re-decided every step of the path after the hold:
// 1. the traffic paths (follow.ts): the traffic that passed the last position on that track (those
//    going to the same airport weigh more). an estimate within reach of it (where it was at the same
//    time, or the path it flew) joins it and flies with it, corners and all; one off it (it held its
//    track while the aircraft turned) turns back toward it, at most at a standard rate (3 deg/s),
//    until it can join. it takes the branch toward its destination where traffic forks;
// 2. the traffic flow (flow.ts): the turn that traffic at that place and heading made;
// 3. toward the destination when it lies ahead (below), on a curve that leaves the held track
//    tangentially and bends onto the destination over the distance remaining (curve.ts); else the
//    held track.
// without anything learned (no meta/paths, no meta/flow) the path is closed form: the curve from
// the end of the hold, a position costs a binary search in a 64-point table and one evaluation.
//
// decisions where the spec is silent:
// - with anything learned the path is stepped (20 s) and turns at most at a standard rate (3 deg/s,
//   60 deg a step), as an airliner does; where nothing learned applies it steers along the curve
//   toward the destination made again from where it is.
// - "turning toward the destination" is a curve, not a snap onto the great circle: an airliner
//   keeps its airway to the next waypoint and comes round over its route. with nothing learned the
//   snap (dr-10m-path/2) was 1.10x straight-line dead reckoning at 5-15 minutes and 1.21x at 15-30
//   on real held-out cruise traffic (issue 43); the curve: docs/performance.md "Estimate accuracy".
// - "holding the track" follows the great circle that starts on the last track, as an aircraft on a
//   navigation route does (over 80 nm at 52 deg N it parts from a constant-track line by about 2 km).
// - the turn is made only toward a destination that lies ahead: within 60 deg of the held track at
//   the end of the hold (issue 12: the recent path must be consistent with the destination). a
//   route's destination behind or abeam the aircraft is a stale or wrong catalog route, or a
//   flight that is not going there yet: turning toward it flew 11 % of estimates the wrong way
//   (86 km median error). such an estimate holds its track as one without a destination, and says
//   so: its entry names the destination but has no eta.
// - without a destination the track is held for 30 minutes, then the estimate is dropped.
// - with a destination the estimate is dropped when its distance to go (along the curve) falls to
//   the top of descent (3 nm per 1,000 ft of the last altitude, at least 20 nm): past that point the
//   real aircraft descends and slows, so a cruise-speed estimate overshoots, and it is usually heard
//   again.
// - every estimate ends after 2 hours (the nightly accuracy measures gaps up to 120 min) and never
//   later than 15 minutes past its ETA (the curve's length at the held speed).
import { bearingDeg, destinationPoint, normalizeDeg, normalizeLon } from '../geo.ts';
import { alongCurve, curveSteer, curveTo, type Curve } from './curve.ts';
import { turnAt, type FlowField } from './flow.ts';
import { follower, neighboursOf } from './follow.ts';
import type { PathSet } from './paths.ts';

/** stable identifier of the method; bump the suffix when its results change */
export const METHOD_ID = 'dr-10m-path/3';
export const METHOD_NOTE =
  'dead reckoning from the last observed position at the last observed ground speed, holding the last track for 10 minutes; ' +
  'then turning (at most at a standard rate) to rejoin the traffic that passed the last position on that track (its paths of ' +
  'the last days, heard by the network, those going to the same airport as the callsign route weighing more) and flying with ' +
  'it where it was at the same time; where no such traffic is known, the turn that traffic heard at that place and heading made, and where ' +
  'the network knows nothing, a curve toward the destination named by the callsign route when it lies ahead (within 60 ' +
  'degrees of the held track; otherwise the track is held and the entry names the destination without an eta): it leaves the ' +
  'held track tangentially and bends onto the destination over the distance remaining; altitude and speed stay as last observed';
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
  /** the turn is made only toward a destination within this angle of the held track at the turn; degrees */
  aheadDeg: 60,
  /** a stepped path turns at most this fast (a standard-rate turn); degrees per second */
  turnRateDegS: 3,
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

/** One point of an estimated path after the hold. */
interface PathPoint {
  t: number;
  lat: number;
  lon: number;
  track: number;
}

/** What the nightly learned from the network's traces (both optional: without them, the great circle). */
export interface Learned {
  flow?: FlowField | null;
  paths?: PathSet | null;
}

/** the path after the hold is stepped this often when it follows traffic paths; seconds */
const PATH_STEP_S = 20;

/** Everything about one estimate that does not depend on the clock, computed once. */
export interface Plan {
  start: FlightStart;
  /** the destination flown to; null without one, or when it does not lie ahead (see `behind`) */
  dest: Target | null;
  /** a destination was known but did not lie ahead at the turn: the track is held */
  behind: boolean;
  /** end of the held track, with the held great circle's track there */
  turn: { t: number; lat: number; lon: number; track: number };
  /** the curve from the turn to the destination (curve.ts); null without one */
  curve: Curve | null;
  /** its length: the distance to go from the turn, nm (0 without a destination) */
  legNm: number;
  /** arrival at the destination along the curve at the held speed, unix seconds; null without a destination */
  eta: number | null;
  /** the estimate is listed strictly before this time, unix seconds */
  expiresAt: number;
  /**
   * after the turn: the path following what was learned, one point a step, flown only as far as a
   * position has been asked for (`grow`); null with nothing learned that applies
   */
  path: PathPoint[] | null;
  /** flies `path` on to at least time t (never past the expiry): a plan is made once and asked every second,
   * so a step is flown when first needed, not all two hours of them on the serving thread at once */
  grow: ((t: number) => void) | null;
}

const nmFlown = (gs: number, dtS: number) => (gs * dtS) / 3600;

/** Distance to go at which an estimate ends (the top of descent), nm. */
export function nearNm(altFt: number): number {
  return Math.max(FLY.minNearNm, (FLY.descentNmPerKft * Math.max(0, altFt)) / 1000);
}

/**
 * Plan an estimate from the last observed state, the destination (null when unknown) and what was
 * learned (nothing: the curve toward the destination, closed form, see the top of this file).
 */
export function makePlan(start: FlightStart, dest: Target | null, learned: Learned = {}): Plan {
  const plan = planTurn(start, dest);
  const flow = learned.flow?.bins.size ? learned.flow : null;
  const near = learned.paths?.paths.length ? neighboursOf(learned.paths, start, dest) : [];
  if (!flow && !near.length) return plan;
  const toward = plan.dest;
  const stepS = near.length ? PATH_STEP_S : flow!.params.stepS;
  const stepNm = nmFlown(start.gs, stepS);
  const maxTurn = FLY.turnRateDegS * stepS;
  const traffic = near.length ? follower(near, start, stepS, maxTurn) : null;
  const steer = (p: PathPoint): number => {
    const cloud = traffic ? traffic.aim(p) : null;
    if (cloud) return bearingDeg(p.lat, p.lon, cloud.lat, cloud.lon);
    const turn = flow ? turnAt(flow, p.lat, p.lon, p.track) : null;
    if (turn !== null) return normalizeDeg(p.track + (turn * stepS) / flow!.params.stepS);
    return toward ? curveSteer(p, toward, stepNm) : p.track;
  };
  const path: PathPoint[] = [plan.turn];
  // one point per stepS at gs knots (never faster), up to the expiry at most: with the traffic when
  // it is within reach, else on the track `steer` gives, turning at most maxTurn a step
  const grow = (t: number) => {
    let cur = path[path.length - 1]!;
    while (cur.t < Math.min(t, plan.expiresAt)) {
      const t1 = cur.t + stepS;
      const next = traffic ? traffic.step(cur, t1) : null;
      if (next) {
        cur = next;
      } else {
        const track = normalizeDeg(cur.track + clamp(normalizeDeg(steer(cur) - cur.track + 180) - 180, maxTurn));
        cur = { t: t1, ...destinationPoint(cur.lat, cur.lon, track, stepNm), track };
      }
      path.push(cur);
    }
  };
  return { ...plan, path, grow };
}

const clamp = (v: number, m: number) => Math.max(-m, Math.min(m, v));

function planTurn(start: FlightStart, dest: Target | null): Plan {
  const turn = { t: start.t + FLY.holdS, ...hold(start, FLY.holdS) };
  const holdOnly = (behind: boolean): Plan => ({
    start,
    dest: null,
    behind,
    turn,
    curve: null,
    legNm: 0,
    eta: null,
    expiresAt: start.t + FLY.noDestinationS,
    path: null,
    grow: null,
  });
  if (!dest) return holdOnly(false);
  const off = Math.abs(normalizeDeg(bearingDeg(turn.lat, turn.lon, dest.lat, dest.lon) - turn.track + 180) - 180);
  if (off > FLY.aheadDeg) return holdOnly(true);
  const curve = curveTo(turn, turn.track, dest);
  const legNm = curve.lengthNm;
  const eta = turn.t + (legNm / start.gs) * 3600;
  // distance to go along the curve falls linearly from (held + leg) to 0 at the ETA
  const nearAt = eta - (nearNm(start.alt) / start.gs) * 3600;
  const expiresAt = Math.min(nearAt, eta + FLY.etaMarginS, start.t + FLY.hardCapS);
  return { start, dest, behind: false, turn, curve, legNm, eta, expiresAt, path: null, grow: null };
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
  const { start, turn } = plan;
  const dt = Math.max(0, t - start.t);
  if (plan.path && t > turn.t) {
    plan.grow?.(t);
    return along(plan.path, t);
  }
  if (!plan.curve || t <= turn.t) return hold(start, dt);
  // past the end of the curve: at the destination on the final track
  return alongCurve(plan.curve, nmFlown(start.gs, t - turn.t));
}

/** The point of a minute-by-minute path at time t (between two points: in proportion; past the end: its last point) */
function along(path: readonly PathPoint[], t: number): Position {
  const step = path.length > 1 ? path[1]!.t - path[0]!.t : 1;
  const i = Math.min(path.length - 1, Math.max(0, Math.floor((t - path[0]!.t) / step)));
  const a = path[i]!;
  const b = path[i + 1];
  if (!b) return { lat: a.lat, lon: a.lon, track: a.track };
  const f = (t - a.t) / (b.t - a.t);
  // across the antimeridian the short way round
  const dLon = ((((b.lon - a.lon + 180) % 360) + 360) % 360) - 180;
  return { lat: a.lat + (b.lat - a.lat) * f, lon: normalizeLon(a.lon + dLon * f), track: b.track };
}

/** The plain straight-line dead reckoning baseline: the last track held, no turn. */
export function straightAt(start: FlightStart, t: number): Position {
  return hold(start, Math.max(0, t - start.t));
}
