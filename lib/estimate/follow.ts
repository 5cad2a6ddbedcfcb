// following the traffic paths (paths.ts) after the hold: the paths of the traffic that passed the
// last heard position on about the same track are the neighbours; flown on from there at the
// aircraft's own last speed, their positions some time ahead are a cloud, and the estimate steers
// toward the cloud's weighted medoid (the neighbour position closest to the others: where most of
// the traffic went, not the average of two airways). an estimate off its airway after the hold
// (the aircraft turned while the estimate held the track) converges back onto it.
//
// decisions where the spec is silent:
// - neighbours whose route goes the aircraft's way weigh more: the same destination 10, one within
//   30 degrees of the aircraft's bearing to its own destination 4, within 60 degrees 1, others 0.1;
//   where either destination is unknown, 1. a destination that does not lie ahead still weighs:
//   the paths say where the traffic went, the destination only which of it to believe.
// - distance along a neighbour is the aircraft's own last ground speed times the time (spec 3:
//   flown on at the last observed speed), not the neighbour's own timing.
import { bearingDeg, distanceKm } from '../geo.ts';
import type { PathSet, TrafficPath } from './paths.ts';

export const FOLLOW = {
  /** a path passing within this of the last heard position is a neighbour; km */
  radiusKm: 12,
  /** and only if its direction there is within this of the last track; degrees */
  trackDeg: 25,
  /** the estimate steers toward where the neighbours are this long ahead of it; seconds (120 and 240 measured no better) */
  leadS: 180,
  /** fewer neighbours than this at a time: the cloud says nothing (the flow or the destination steer) */
  minNeighbours: 2,
  /** the neighbours kept, heaviest and nearest first (the medoid costs their square; 40 measured no better) */
  maxNeighbours: 16,
  /** destination agreement, degrees (see above) */
  agreeDeg: 30,
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

function weightOf(from: { lat: number; lon: number }, dest: { lat: number; lon: number } | null, to: TrafficPath['to']): number {
  if (!dest || !to) return 1;
  if (distanceKm(dest.lat, dest.lon, to.lat, to.lon) < 1) return 10;
  const off = Math.abs(wrap180(bearingDeg(from.lat, from.lon, dest.lat, dest.lon) - bearingDeg(from.lat, from.lon, to.lat, to.lon)));
  return off < FOLLOW.agreeDeg ? 4 : off < 2 * FOLLOW.agreeDeg ? 1 : 0.1;
}

/** The paths that passed (lat, lon) on about `track`, each at its nearest point, heaviest and nearest first. */
export function neighboursOf(set: PathSet, from: { lat: number; lon: number; track: number }, dest: { lat: number; lon: number } | null): Neighbour[] {
  const c = set.params.cellDeg;
  const kx = KM_PER_DEG * Math.cos((from.lat * Math.PI) / 180);
  const dLat = FOLLOW.radiusKm / KM_PER_DEG;
  const dLon = FOLLOW.radiusKm / Math.max(1, kx);
  const best = new Map<number, { at: number; km: number }>();
  for (let i = Math.floor((from.lat - dLat) / c); i <= Math.floor((from.lat + dLat) / c); i++) {
    for (let j = Math.floor((from.lon - dLon) / c); j <= Math.floor((from.lon + dLon) / c); j++) {
      const refs = set.index.get(`${i},${j}`);
      if (!refs) continue;
      for (let r = 0; r < refs.length; r += 2) {
        const pi = refs[r]!;
        const s = refs[r + 1]!;
        const p = set.paths[pi]!;
        // the segment in km around `from` (flat: a segment is tens of km at most)
        const ax = (p.lon[s]! - from.lon) * kx, ay = (p.lat[s]! - from.lat) * KM_PER_DEG;
        const dx = (p.lon[s + 1]! - p.lon[s]!) * kx, dy = (p.lat[s + 1]! - p.lat[s]!) * KM_PER_DEG;
        const len2 = dx * dx + dy * dy;
        if (len2 === 0) continue;
        if (Math.abs(wrap180((Math.atan2(dx, dy) * 180) / Math.PI - from.track)) > FOLLOW.trackDeg) continue;
        const f = Math.max(0, Math.min(1, -(ax * dx + ay * dy) / len2));
        const km = Math.hypot(ax + f * dx, ay + f * dy);
        if (km > FOLLOW.radiusKm) continue;
        const known = best.get(pi);
        if (!known || km < known.km) best.set(pi, { at: p.cum[s]! + f * (p.cum[s + 1]! - p.cum[s]!), km });
      }
    }
  }
  const out: Neighbour[] = [];
  for (const [pi, { at, km }] of best) out.push({ path: set.paths[pi]!, at, km, weight: weightOf(from, dest, set.paths[pi]!.to) });
  out.sort((a, b) => b.weight - a.weight || a.km - b.km);
  return out.slice(0, FOLLOW.maxNeighbours);
}

/** The point `km` along a path; null past its end. */
function pointAlong(p: TrafficPath, km: number): { lat: number; lon: number } | null {
  const n = p.cum.length;
  if (km > p.cum[n - 1]! || km < 0) return null;
  let lo = 0;
  let hi = n - 1;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (p.cum[mid]! <= km) lo = mid;
    else hi = mid;
  }
  const span = p.cum[hi]! - p.cum[lo]!;
  const f = span > 0 ? (km - p.cum[lo]!) / span : 0;
  return { lat: p.lat[lo]! + (p.lat[hi]! - p.lat[lo]!) * f, lon: p.lon[lo]! + (p.lon[hi]! - p.lon[lo]!) * f };
}

/**
 * Where the neighbours are `km` on from their nearest points: the weighted medoid of their
 * positions, or null when fewer than FOLLOW.minNeighbours reach that far.
 */
export function cloudAt(neighbours: readonly Neighbour[], km: number): { lat: number; lon: number } | null {
  const pts: { lat: number; lon: number; w: number }[] = [];
  for (const n of neighbours) {
    const q = pointAlong(n.path, n.at + km);
    if (q) pts.push({ ...q, w: n.weight });
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
  return { lat: best.lat, lon: best.lon };
}
