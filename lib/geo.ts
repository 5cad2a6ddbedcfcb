// great-circle helpers on a spherical earth (mean radius, IUGG): good to ~0.5 %,
// which is what a receiver network's positions and a radius query need.

/** mean earth radius, km (IUGG R1) */
const EARTH_RADIUS_KM = 6371.0088;
/** one international nautical mile, km */
const KM_PER_NM = 1.852;
/** mean earth radius, nautical miles */
export const EARTH_RADIUS_NM = EARTH_RADIUS_KM / KM_PER_NM;

const RAD = Math.PI / 180;
const DEG = 180 / Math.PI;

/** Central angle between two points, radians (haversine: stable for short distances). */
function centralAngle(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const s1 = Math.sin(((lat2 - lat1) * RAD) / 2);
  const s2 = Math.sin(((lon2 - lon1) * RAD) / 2);
  const h = s1 * s1 + Math.cos(lat1 * RAD) * Math.cos(lat2 * RAD) * s2 * s2;
  // clamp: rounding can push h a hair above 1 for antipodal points
  return 2 * Math.asin(Math.sqrt(Math.min(1, h)));
}

/** Great-circle distance, nautical miles. */
export function distanceNm(lat1: number, lon1: number, lat2: number, lon2: number): number {
  return centralAngle(lat1, lon1, lat2, lon2) * EARTH_RADIUS_NM;
}

/** Great-circle distance, kilometres. */
export function distanceKm(lat1: number, lon1: number, lat2: number, lon2: number): number {
  return centralAngle(lat1, lon1, lat2, lon2) * EARTH_RADIUS_KM;
}

/** Initial bearing from point 1 to point 2, degrees true in [0, 360). */
export function bearingDeg(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const p1 = lat1 * RAD;
  const p2 = lat2 * RAD;
  const dl = (lon2 - lon1) * RAD;
  const y = Math.sin(dl) * Math.cos(p2);
  const x = Math.cos(p1) * Math.sin(p2) - Math.sin(p1) * Math.cos(p2) * Math.cos(dl);
  return normalizeDeg(Math.atan2(y, x) * DEG);
}

/** The point reached from (lat, lon) along a great circle: longitude normalised to [-180, 180). */
export function destinationPoint(lat: number, lon: number, bearing: number, dNm: number): { lat: number; lon: number } {
  const d = dNm / EARTH_RADIUS_NM;
  const p1 = lat * RAD;
  const b = bearing * RAD;
  const sinP2 = Math.sin(p1) * Math.cos(d) + Math.cos(p1) * Math.sin(d) * Math.cos(b);
  const p2 = Math.asin(Math.max(-1, Math.min(1, sinP2)));
  const l2 = lon * RAD + Math.atan2(Math.sin(b) * Math.sin(d) * Math.cos(p1), Math.cos(d) - Math.sin(p1) * sinP2);
  return { lat: p2 * DEG, lon: normalizeLon(l2 * DEG) };
}

/** Degrees into [0, 360). */
export function normalizeDeg(deg: number): number {
  const r = deg % 360;
  return r < 0 ? r + 360 : r;
}

/** Longitude into [-180, 180). */
export function normalizeLon(lon: number): number {
  return normalizeDeg(lon + 180) - 180;
}

/**
 * Half-width in longitude degrees of the smallest band holding a circle of `dNm` around
 * latitude `lat`; Infinity when the circle reaches a pole (every longitude then qualifies).
 * the band grows as 1/cos(lat): asin(sin d / cos lat) is exact on the sphere.
 */
export function lonHalfWidthDeg(lat: number, dNm: number): number {
  const d = dNm / EARTH_RADIUS_NM;
  const p = Math.abs(lat) * RAD;
  if (p + d >= Math.PI / 2) return Infinity;
  const s = Math.sin(d) / Math.cos(p);
  return s >= 1 ? Infinity : Math.asin(s) * DEG;
}

/** Half-height in latitude degrees of a circle of `dNm`. */
export function latHalfHeightDeg(dNm: number): number {
  return (dNm / EARTH_RADIUS_NM) * DEG;
}
