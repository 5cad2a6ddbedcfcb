// following the traffic paths (paths.ts) after the hold: the paths of the traffic that passed the
// last heard position on about the same track are the neighbours; flown on from there at the
// aircraft's own last speed, their positions at a time are a cloud, and the estimate heads for the
// cloud's weighted medoid (the neighbour position closest to the others: where most of the traffic
// went, not the average of two airways). an estimate off its airway after the hold (the aircraft
// turned while the estimate held the track) turns back onto it, then flies with it (`follower`).
//
// decisions where the spec is silent:
// - a neighbour's weight falls off with how far its direction there is from the last track
//   (gaussian, 8 degrees) and how far it passed (gaussian, 10 km); one that goes to the same airport
//   as the aircraft's route weighs 10 times more; a route merely going the same way counts for
//   nothing (on the tuning half of the Swiss traffic, a neighbour whose destination lay within 30 deg
//   of the aircraft's was 29 km off at 15 minutes at the median, one with no known destination 27 km,
//   one to the same airport 12 km). a path that began less than 30 km before the last heard position
//   weighs a tenth: it is mostly a departure that had just climbed through 10,000 ft, about to turn
//   onto its own route (such neighbours were 41-47 km off at 15 minutes, older ones 19-23 km).
// - distance along a neighbour is the aircraft's own last ground speed times the time (spec 3:
//   flown on at the last observed speed), not the neighbour's own timing.
import { bearingDeg, destinationPoint, distanceKm, normalizeDeg } from '../geo.ts';
import type { PathSet, TrafficPath } from './paths.ts';

export const FOLLOW = {
  /** a path passing within this of the last heard position is a neighbour; km */
  radiusKm: 20,
  /** and only if its direction there is within this of the last track; degrees */
  trackDeg: 40,
  /** the weight's fall-off with the direction's difference from the last track (gaussian scale); degrees */
  trackScaleDeg: 8,
  /** the weight's fall-off with the distance the path passed at (gaussian scale); km */
  distanceScaleKm: 10,
  /** a path that began less than this before its nearest point weighs `freshWeight`; km */
  freshKm: 30,
  freshWeight: 0.1,
  /** the weight of a neighbour whose route ends at the aircraft's destination, against 1 */
  sameDestinationWeight: 10,
  /** off the neighbours' path, the estimate steers toward where they are this long ahead of it; seconds */
  leadS: 120,
  /** an estimate joins the traffic (and then flies with it) when the traffic's position is at most this beyond a step's flight,
   * or it is this close to the path the traffic flew in the last `joinBackKm`; km */
  joinKm: 2,
  joinBackKm: 60,
  /** fewer neighbours than this at a time: the cloud says nothing (the flow or the destination steer) */
  minNeighbours: 2,
  /** the neighbours kept, heaviest and nearest first (the medoid costs their square; 40 measured no better under dr-10m-path/1) */
  maxNeighbours: 16,
} as const;

export interface Neighbour {
  path: TrafficPath;
  /** distance along the path of its point nearest the last heard position, km */
  at: number;
  weight: number;
  /** how far the path passed from the last heard position, km */
  km: number;
}

const wrap180 = (d: number) => ((((d + 180) % 360) + 360) % 360) - 180;
const KM_PER_DEG = 111.195;

/** A neighbour's weight (see above): `offDeg` its direction's difference from the last track, `km` how far it passed, `at` how far along it began. */
export function weightOf(dest: { lat: number; lon: number } | null, to: TrafficPath['to'], offDeg: number, km: number, at: number): number {
  const same = dest && to && distanceKm(dest.lat, dest.lon, to.lat, to.lon) < 1;
  const a = offDeg / FOLLOW.trackScaleDeg;
  const d = km / FOLLOW.distanceScaleKm;
  return (same ? FOLLOW.sameDestinationWeight : 1) * Math.exp(-a * a - d * d) * (at < FOLLOW.freshKm ? FOLLOW.freshWeight : 1);
}

/** The paths that passed (lat, lon) on about `track`, each at its nearest point, heaviest and nearest first. */
export function neighboursOf(set: PathSet, from: { lat: number; lon: number; track: number }, dest: { lat: number; lon: number } | null): Neighbour[] {
  const c = set.params.cellDeg;
  const kx = KM_PER_DEG * Math.cos((from.lat * Math.PI) / 180);
  const dLat = FOLLOW.radiusKm / KM_PER_DEG;
  const dLon = FOLLOW.radiusKm / Math.max(1, kx);
  const best = new Map<number, { at: number; km: number; off: number }>();
  for (let i = Math.floor((from.lat - dLat) / c); i <= Math.floor((from.lat + dLat) / c); i++) {
    for (let j = Math.floor((from.lon - dLon) / c); j <= Math.floor((from.lon + dLon) / c); j++) {
      const refs = set.index.get(`${i},${j}`);
      if (!refs) continue;
      for (let r = 0; r < refs.length; r += 2) {
        const pi = refs[r]!;
        const s = refs[r + 1]!;
        const p = set.paths[pi]!;
        // the segment in km around `from` (flat: a segment is tens of km at most)
        const ax = (p.lon[s]! - from.lon) * kx,
          ay = (p.lat[s]! - from.lat) * KM_PER_DEG;
        const dx = (p.lon[s + 1]! - p.lon[s]!) * kx,
          dy = (p.lat[s + 1]! - p.lat[s]!) * KM_PER_DEG;
        const len2 = dx * dx + dy * dy;
        if (len2 === 0) continue;
        const off = Math.abs(wrap180((Math.atan2(dx, dy) * 180) / Math.PI - from.track));
        if (off > FOLLOW.trackDeg) continue;
        const f = Math.max(0, Math.min(1, -(ax * dx + ay * dy) / len2));
        const km = Math.hypot(ax + f * dx, ay + f * dy);
        if (km > FOLLOW.radiusKm) continue;
        const known = best.get(pi);
        if (!known || km < known.km) best.set(pi, { at: p.cum[s]! + f * (p.cum[s + 1]! - p.cum[s]!), km, off });
      }
    }
  }
  const out: Neighbour[] = [];
  for (const [pi, { at, km, off }] of best) out.push({ path: set.paths[pi]!, at, km, weight: weightOf(dest, set.paths[pi]!.to, off, km, at) });
  out.sort((a, b) => b.weight - a.weight || a.km - b.km);
  return out.slice(0, FOLLOW.maxNeighbours);
}

/** The segment (its first point's index) `km` along a path; the first or the last beyond the ends. */
function segmentAt(p: TrafficPath, km: number): number {
  let lo = 0;
  let hi = p.cum.length - 1;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (p.cum[mid]! <= km) lo = mid;
    else hi = mid;
  }
  return lo;
}

/** The point `km` along a path; null past its end. */
function pointAlong(p: TrafficPath, km: number): { lat: number; lon: number } | null {
  const n = p.cum.length;
  if (km > p.cum[n - 1]! || km < 0) return null;
  const lo = segmentAt(p, km);
  const hi = lo + 1;
  const span = p.cum[hi]! - p.cum[lo]!;
  const f = span > 0 ? (km - p.cum[lo]!) / span : 0;
  return { lat: p.lat[lo]! + (p.lat[hi]! - p.lat[lo]!) * f, lon: p.lon[lo]! + (p.lon[hi]! - p.lon[lo]!) * f };
}

/**
 * Where the neighbours are `km` on from their nearest points: the weighted medoid of their
 * positions, or null when fewer than FOLLOW.minNeighbours reach that far.
 */
export function cloudAt(neighbours: readonly Neighbour[], km: number): { lat: number; lon: number; of: Neighbour } | null {
  const pts: { lat: number; lon: number; w: number; of: Neighbour }[] = [];
  for (const n of neighbours) {
    const q = pointAlong(n.path, n.at + km);
    if (q) pts.push({ ...q, w: n.weight, of: n });
  }
  if (pts.length < FOLLOW.minNeighbours) return null;
  const kx = Math.cos((pts[0]!.lat * Math.PI) / 180);
  let best = pts[0]!;
  let bestSum = Infinity;
  // on the serving thread: plain sqrt (Math.hypot is several times slower), and a candidate is
  // dropped as soon as its sum passes the best one's
  for (const p of pts) {
    let sum = 0;
    for (const q of pts) {
      let dLon = p.lon - q.lon;
      if (dLon > 180) dLon -= 360;
      else if (dLon < -180) dLon += 360;
      const dLat = p.lat - q.lat;
      sum += q.w * Math.sqrt(dLat * dLat + dLon * kx * dLon * kx);
      if (sum >= bestSum) break;
    }
    if (sum < bestSum) [bestSum, best] = [sum, p];
  }
  return { lat: best.lat, lon: best.lon, of: best.of };
}

/**
 * Where (lat, lon) is on a neighbour's path between `fromKm` and `toKm` on from its nearest point:
 * how far on its nearest point there is, and how far off it lies (km); null when that stretch is
 * not on the path.
 */
function ontoPath(n: Neighbour, fromKm: number, toKm: number, lat: number, lon: number): { along: number; km: number } | null {
  const p = n.path;
  const kx = KM_PER_DEG * Math.cos((lat * Math.PI) / 180);
  let best: { along: number; km: number } | null = null;
  for (let s = segmentAt(p, n.at + fromKm); s + 1 < p.lat.length; s++) {
    if (p.cum[s]! > n.at + toKm) break;
    const ax = (p.lon[s]! - lon) * kx,
      ay = (p.lat[s]! - lat) * KM_PER_DEG;
    const dx = (p.lon[s + 1]! - p.lon[s]!) * kx,
      dy = (p.lat[s + 1]! - p.lat[s]!) * KM_PER_DEG;
    const len2 = dx * dx + dy * dy;
    const f = len2 > 0 ? Math.max(0, Math.min(1, -(ax * dx + ay * dy) / len2)) : 0;
    const km = Math.sqrt((ax + f * dx) ** 2 + (ay + f * dy) ** 2);
    const along = Math.max(fromKm, Math.min(toKm, p.cum[s]! + f * (p.cum[s + 1]! - p.cum[s]!) - n.at));
    if (!best || km < best.km) best = { along, km };
  }
  return best;
}

/** A point of the estimated path (fly.ts): unix seconds, position, track. */
interface Step {
  t: number;
  lat: number;
  lon: number;
  track: number;
}

/** How far an aircraft at `p` turns to head for c; degrees. */
const turnTo = (p: Step, c: { lat: number; lon: number }) => Math.abs(normalizeDeg(bearingDeg(p.lat, p.lon, c.lat, c.lon) - p.track + 180) - 180);

/**
 * Flying with the neighbours, a step at a time, for an estimate that last heard at `start` flies on
 * at its speed (steps of `stepS`, turning at most `maxTurnDeg` a step to join): `step` is where the
 * traffic takes it by t1 (null while it is not with the traffic), `aim` where to steer when it is
 * not. it keeps how far along the traffic the estimate is, so steps must be asked in order.
 */
export function follower(near: readonly Neighbour[], start: { t: number; gs: number }, stepS: number, maxTurnDeg: number) {
  const kmPerS = (start.gs * 1.852) / 3600;
  const stepKm = kmPerS * stepS;
  const stepNm = stepKm / 1.852;
  const leadKm = kmPerS * FOLLOW.leadS;
  // where the traffic was at the same time is asked for by a step (to join) and by the next (to
  // steer, when it did not): the last answer is kept
  let memo: { km: number; c: ReturnType<typeof cloudAt> } = { km: NaN, c: null };
  const cloudNow = (km: number) => (memo.km === km ? memo.c : (memo = { km, c: cloudAt(near, km) }).c);
  // once with the traffic: how far along it the estimate is, km on from the neighbours' nearest
  // points to the last heard position (a step's flight more each step); null until then
  let along: number | null = null;

  /** a step from `cur` toward c: onto it when within a step's flight, else a step's flight toward it (never faster) */
  const stepToward = (cur: Step, c: { lat: number; lon: number }, t1: number): Step => {
    const track = bearingDeg(cur.lat, cur.lon, c.lat, c.lon);
    if (distanceKm(cur.lat, cur.lon, c.lat, c.lon) <= stepKm) return { t: t1, lat: c.lat, lon: c.lon, track };
    return { t: t1, ...destinationPoint(cur.lat, cur.lon, track, stepNm), track };
  };

  const step = (cur: Step, t1: number): Step | null => {
    if (along !== null) {
      const c = cloudAt(near, along + stepKm);
      if (c && distanceKm(cur.lat, cur.lon, c.lat, c.lon) <= stepKm + FOLLOW.joinKm) {
        along += stepKm;
        return stepToward(cur, c, t1);
      }
      along = null; // the traffic ended, or went on where the estimate cannot follow in a step
    }
    // joining (turning no faster than maxTurnDeg; once joined, the estimate turns as the traffic
    // did): where the traffic was at the same time, when it is within about a step's reach; or,
    // behind it, onto the path it flew, then as far along it as the estimate is
    const km = kmPerS * (t1 - start.t);
    const c = cloudNow(km);
    if (!c) return null;
    const d = distanceKm(cur.lat, cur.lon, c.lat, c.lon);
    if (d <= stepKm + FOLLOW.joinKm && turnTo(cur, c) <= maxTurnDeg) {
      along = km - Math.max(0, d - stepKm);
      return stepToward(cur, c, t1);
    }
    const onto = ontoPath(c.of, km - FOLLOW.joinBackKm, km, cur.lat, cur.lon);
    if (!onto || onto.km > FOLLOW.joinKm) return null;
    const next = cloudAt(near, onto.along + stepKm);
    if (!next || distanceKm(cur.lat, cur.lon, next.lat, next.lon) > stepKm + FOLLOW.joinKm || turnTo(cur, next) > maxTurnDeg) return null;
    along = onto.along + stepKm;
    return stepToward(cur, next, t1);
  };

  /** off the traffic: leadS ahead of the estimate's place along the traffic's path (its nearest point
   * there in the last joinBackKm; where the traffic is now when the estimate is ahead of it) */
  const aim = (p: Step): { lat: number; lon: number } | null => {
    const km = kmPerS * (p.t - start.t);
    const c = cloudNow(km);
    const onto = c && ontoPath(c.of, km - FOLLOW.joinBackKm, km, p.lat, p.lon);
    return cloudAt(near, (onto ? onto.along : km) + leadKm);
  };

  return { step, aim };
}
