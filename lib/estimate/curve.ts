// the turn toward the destination when nothing learned applies (fly.ts): a curve that leaves the
// held track tangentially and bends onto the destination over the distance remaining, instead of
// snapping onto the great circle to it at the end of the hold. pure geometry.
//
// why a curve: an airliner on an airway keeps its track to the next waypoint, often tens of minutes
// away, and comes round toward its destination over the route, not at once. on real held-out cruise
// traffic with nothing learned the instant turn onto the great circle was 1.10x straight-line dead
// reckoning at 5-15 minutes and 1.21x at 15-30 (issue 43); the curve's figures are in
// docs/performance.md "Estimate accuracy" (docs/perf-log/estimates.md "No learned history").
//
// the curve is a quadratic Bézier in earth-centred coordinates, projected onto the sphere: from
// the turn point p0, through the control point p1 (CURVE.control of the distance to the
// destination along the held track's great circle) to the destination p2. its tangent at p0 is the
// held track, so the heading is continuous at the end of the hold; how fast it bends depends on how
// far off the destination lies and how far away it is (a far destination barely bends it in the
// first half hour). positions along it are by arc length, from a table made once per plan.
import { bearingDeg, destinationPoint, distanceNm, EARTH_RADIUS_NM, normalizeDeg } from '../geo.ts';

const CURVE = {
  /**
   * the control point lies this fraction of the distance to the destination along the held track.
   * 0 is the great circle (the instant turn), 1 holds the track longest; 0.6 was picked on the
   * tuning half (docs/perf-log/estimates.md "No learned history")
   */
  control: 0.6,
  /** the arc-length table's segments: 64 keep a curve that bends 120 degrees within 0.1 % of its length */
  segments: 64,
} as const;

type V3 = [number, number, number];

const RAD = Math.PI / 180;
const DEG = 180 / Math.PI;

const toV = (lat: number, lon: number): V3 => {
  const a = lat * RAD;
  const b = lon * RAD;
  return [Math.cos(a) * Math.cos(b), Math.cos(a) * Math.sin(b), Math.sin(a)];
};

const toLatLon = (v: V3): { lat: number; lon: number } => {
  const n = Math.hypot(v[0], v[1], v[2]);
  return { lat: Math.asin(Math.max(-1, Math.min(1, v[2] / n))) * DEG, lon: Math.atan2(v[1], v[0]) * DEG };
};

export interface Curve {
  p0: V3;
  p1: V3;
  p2: V3;
  /** arc length from p0 at each of the table's parameters (u = i / segments), nautical miles */
  cum: Float64Array;
  /** the curve's points at those parameters, degrees */
  lat: Float64Array;
  lon: Float64Array;
  /** the curve's length, nautical miles */
  lengthNm: number;
}

function bezier(c: Pick<Curve, 'p0' | 'p1' | 'p2'>, u: number): V3 {
  const a = (1 - u) * (1 - u);
  const b = 2 * u * (1 - u);
  const d = u * u;
  return [a * c.p0[0] + b * c.p1[0] + d * c.p2[0], a * c.p0[1] + b * c.p1[1] + d * c.p2[1], a * c.p0[2] + b * c.p1[2] + d * c.p2[2]];
}

/** The curve's derivative at parameter u, before projection onto the sphere. */
const tangent = (c: Curve, u: number): V3 => [0, 1, 2].map((k) => 2 * (1 - u) * (c.p1[k]! - c.p0[k]!) + 2 * u * (c.p2[k]! - c.p1[k]!)) as V3;

/** Ground speed along the curve at parameter u (b = the curve's point there, unprojected): nm per unit of u. */
function speedAt(c: Curve, u: number, b: V3): number {
  const t = tangent(c, u);
  const n = Math.hypot(b[0], b[1], b[2]);
  const along = (t[0] * b[0] + t[1] * b[1] + t[2] * b[2]) / (n * n);
  return (Math.hypot(t[0] - along * b[0], t[1] - along * b[1], t[2] - along * b[2]) / n) * EARTH_RADIUS_NM;
}

/** The track at parameter u: the bearing of the curve's tangent there, degrees true in [0, 360). */
function trackAt(c: Curve, u: number, at: { lat: number; lon: number }): number {
  const t = tangent(c, u);
  const la = at.lat * RAD;
  const lo = at.lon * RAD;
  const east = -Math.sin(lo) * t[0] + Math.cos(lo) * t[1];
  const north = -Math.sin(la) * Math.cos(lo) * t[0] - Math.sin(la) * Math.sin(lo) * t[1] + Math.cos(la) * t[2];
  return normalizeDeg(Math.atan2(east, north) * DEG);
}

/** The curve from `from`, leaving it on `track`, to `dest`. */
export function curveTo(from: { lat: number; lon: number }, track: number, dest: { lat: number; lon: number }, control: number = CURVE.control): Curve {
  const L = distanceNm(from.lat, from.lon, dest.lat, dest.lon);
  const ctl = destinationPoint(from.lat, from.lon, track, control * L);
  const c = { p0: toV(from.lat, from.lon), p1: toV(ctl.lat, ctl.lon), p2: toV(dest.lat, dest.lon) };
  const n: number = CURVE.segments;
  const cum = new Float64Array(n + 1);
  const lat = new Float64Array(n + 1);
  const lon = new Float64Array(n + 1);
  lat[0] = from.lat;
  lon[0] = from.lon;
  for (let i = 1; i <= n; i++) {
    const p = i === n ? dest : toLatLon(bezier(c, i / n));
    lat[i] = p.lat;
    lon[i] = p.lon;
    cum[i] = cum[i - 1]! + distanceNm(lat[i - 1]!, lon[i - 1]!, p.lat, p.lon);
  }
  return { ...c, cum, lat, lon, lengthNm: cum[n]! };
}

/** The point `nm` along the curve, with its track; past the end, the destination on the final track. */
export function alongCurve(c: Curve, nm: number): { lat: number; lon: number; track: number } {
  const n: number = CURVE.segments;
  if (c.lengthNm < 1e-6 || nm >= c.lengthNm) {
    const end = toLatLon(c.p2);
    return { ...end, track: trackAt(c, 1, end) };
  }
  let lo = 0;
  let hi = n;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (c.cum[mid]! <= nm) lo = mid;
    else hi = mid;
  }
  const want = Math.max(0, nm) - c.cum[lo]!;
  const span = c.cum[hi]! - c.cum[lo]!;
  let u = (lo + (span > 0 ? want / span : 0)) / n;
  // the curve's speed varies along a segment: one newton step on the distance from the segment's
  // start (the proportional guess was up to 4 m off on a 300 nm curve, the step leaves millimetres)
  let b = bezier(c, u);
  let p = toLatLon(b);
  const speed = speedAt(c, u, b);
  if (speed > 0 && want > 0) {
    u = Math.min(hi / n, Math.max(lo / n, u + (want - distanceNm(c.lat[lo]!, c.lon[lo]!, p.lat, p.lon)) / speed));
    b = bezier(c, u);
    p = toLatLon(b);
  }
  return { ...p, track: trackAt(c, u, p) };
}

/**
 * Where to steer from `at` (on `track`) to fly the same kind of curve toward `dest`, re-made from
 * here: the bearing to the point a step (`stepNm`) along it. the stepped path of fly.ts uses it where
 * nothing learned applies, so an estimate that leaves the traffic also bends toward its destination.
 */
export function curveSteer(at: { lat: number; lon: number; track: number }, dest: { lat: number; lon: number }, stepNm: number): number {
  const L = distanceNm(at.lat, at.lon, dest.lat, dest.lon);
  // the curve's speed at its start is 2 * control * L (chord units are about nm over a step)
  const u = L > 0 ? stepNm / (2 * CURVE.control * L) : 1;
  if (u >= 1) return bearingDeg(at.lat, at.lon, dest.lat, dest.lon);
  const ctl = destinationPoint(at.lat, at.lon, at.track, CURVE.control * L);
  const p = toLatLon(bezier({ p0: toV(at.lat, at.lon), p1: toV(ctl.lat, ctl.lon), p2: toV(dest.lat, dest.lon) }, u));
  return bearingDeg(at.lat, at.lon, p.lat, p.lon);
}
