// a static spatial index over one snapshot's positions: points sorted by longitude in flat
// typed arrays; a query binary-searches its longitude range (split in two at the antimeridian,
// as readsb's api.c does) and tests latitude, then distance, only inside that range. the
// distance test is the haversine term from unit vectors made once per snapshot: sin²(d/2) is a
// quarter of the squared chord, so a candidate costs a few multiplications, no sine.
import { EARTH_RADIUS_NM, latHalfHeightDeg, lonHalfWidthDeg } from '../../lib/geo.ts';

export interface Bbox {
  minLon: number;
  minLat: number;
  maxLon: number;
  maxLat: number;
}

export interface Near {
  /** the id given to the constructor (e.g. the record's index in the snapshot) */
  ids: Int32Array;
  /** great-circle distance from the query point, nautical miles, same order as ids */
  dst: Float64Array;
}

// a hair of slack on the longitude band: the exact distance test decides, the band only prunes
const BAND_SLACK_DEG = 1e-9;
const RAD = Math.PI / 180;
// sort keys: distance in the printed 0.001 nm steps, times 2^21 positions (2,097,152 aircraft)
const DST_QUANTA = 1e3;
const ID_SPAN = 2 ** 21;

/** an index's arrays, made once (on the ingest thread) and handed to the serving thread as they are */
export interface SpatialParts {
  /** longitudes, ascending, degrees [-180, 180] */
  lon: Float64Array;
  /** latitudes in the same order, degrees [-90, 90] */
  lat: Float64Array;
  /** caller ids in the same order */
  id: Int32Array;
  /** each point's unit vector (x, y, z), three numbers per point in the same order */
  xyz: Float64Array;
}

/** Sort the points by longitude: `ids[i]` names the point (lats[i], lons[i]); all three have the same length. */
export function spatialParts(lats: ArrayLike<number>, lons: ArrayLike<number>, ids: ArrayLike<number>): SpatialParts {
  const n = ids.length;
  if (n >= ID_SPAN) throw new RangeError(`SpatialIndex holds at most ${ID_SPAN - 1} points, got ${n}`);
  const order = new Int32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  const lonIn = Float64Array.from(lons);
  order.sort((a, b) => lonIn[a]! - lonIn[b]! || a - b);
  const p: SpatialParts = { lon: new Float64Array(n), lat: new Float64Array(n), id: new Int32Array(n), xyz: new Float64Array(3 * n) };
  for (let k = 0; k < n; k++) {
    const i = order[k]!;
    p.lon[k] = lonIn[i]!;
    p.lat[k] = lats[i]!;
    p.id[k] = ids[i]!;
    unitVector(p.lat[k]!, p.lon[k]!, p.xyz, 3 * k);
  }
  return p;
}

/** The unit vector of (lat, lon) degrees, written at out[at..at+2]. */
function unitVector(lat: number, lon: number, out: Float64Array, at: number): void {
  const c = Math.cos(lat * RAD);
  out[at] = c * Math.cos(lon * RAD);
  out[at + 1] = c * Math.sin(lon * RAD);
  out[at + 2] = Math.sin(lat * RAD);
}

// the query point's unit vector (queries run one at a time on the thread that owns the index)
const here = new Float64Array(3);

/** one radius query's constants and its hit count, handed to each longitude band's scan */
interface Query {
  /** latitude band */
  lo: number;
  hi: number;
  /** haversine term of the radius */
  hMax: number;
  n: number;
}

export class SpatialIndex {
  private readonly lon: Float64Array;
  private readonly lat: Float64Array;
  private readonly id: Int32Array;
  private readonly xyz: Float64Array;
  // per-query scratch, reused: queries run one at a time on the thread that owns this object
  private readonly scratchIds: Int32Array;
  private readonly scratchH: Float64Array;
  private readonly scratchKeys: Float64Array;

  /** Wrap prepared arrays (spatialParts): no work per point. */
  constructor(readonly parts: SpatialParts) {
    ({ lon: this.lon, lat: this.lat, id: this.id, xyz: this.xyz } = parts);
    this.scratchIds = new Int32Array(this.id.length);
    this.scratchH = new Float64Array(this.id.length);
    this.scratchKeys = new Float64Array(this.id.length);
  }

  /** Build from points: `ids[i]` names the point (lats[i], lons[i]). */
  static of(lats: ArrayLike<number>, lons: ArrayLike<number>, ids: ArrayLike<number>): SpatialIndex {
    return new SpatialIndex(spatialParts(lats, lons, ids));
  }

  get size(): number {
    return this.id.length;
  }

  /** Ids inside the box, edges included; west > east crosses the antimeridian. Ascending id order. */
  bbox(b: Bbox): Int32Array {
    const out: number[] = [];
    if (b.minLon <= b.maxLon) this.scanBox(out, b, b.minLon, b.maxLon);
    else {
      this.scanBox(out, b, b.minLon, 180);
      this.scanBox(out, b, -180, b.maxLon);
    }
    return Int32Array.from(out).sort();
  }

  private scanBox(out: number[], b: Bbox, from: number, to: number): void {
    for (let k = this.lowerBound(from); k < this.id.length && this.lon[k]! <= to; k++) {
      const la = this.lat[k]!;
      if (la >= b.minLat && la <= b.maxLat) out.push(this.id[k]!);
    }
  }

  /** Ids within `radiusNm` (great circle) of the point, nearest first to 0.001 nm (ties by longitude). */
  within(lat: number, lon: number, radiusNm: number): Near {
    // haversine term of the radius: compare h, take asin only for hits
    const sMax = Math.sin(Math.min(Math.PI, radiusNm / EARTH_RADIUS_NM) / 2);
    const q: Query = { lo: lat - latHalfHeightDeg(radiusNm), hi: lat + latHalfHeightDeg(radiusNm), hMax: sMax * sMax, n: 0 };
    unitVector(lat, lon, here, 0);
    const half = lonHalfWidthDeg(lat, radiusNm);
    if (half >= 180) this.scanNear(q, -180, 180);
    else {
      const west = lon - half - BAND_SLACK_DEG;
      const east = lon + half + BAND_SLACK_DEG;
      if (west < -180) {
        this.scanNear(q, west + 360, 180);
        this.scanNear(q, -180, east);
      } else if (east > 180) {
        this.scanNear(q, west, 180);
        this.scanNear(q, -180, east - 360);
      } else this.scanNear(q, west, east);
    }
    const { n } = q;
    const ids = this.scratchIds;
    const hs = this.scratchH;
    // sort without a comparator: pack (distance in the 3 decimals /v2/point prints, hit position)
    // into one double, exact below 2^53 (10,800 nm * 1000 < 2^24; positions < 2^21); so the
    // printed dst never decreases, and equal printed distances keep longitude order
    const keys = this.scratchKeys.subarray(0, n);
    for (let j = 0; j < n; j++) {
      // the distance is kept in hs from here on (a hit's h is read once, just above)
      hs[j] = 2 * Math.asin(Math.sqrt(Math.min(1, hs[j]!))) * EARTH_RADIUS_NM;
      keys[j] = Math.round(hs[j]! * DST_QUANTA) * ID_SPAN + j;
    }
    keys.sort();
    const near: Near = { ids: new Int32Array(n), dst: new Float64Array(n) };
    for (let j = 0; j < n; j++) {
      const at = keys[j]! % ID_SPAN;
      near.ids[j] = ids[at]!;
      near.dst[j] = hs[at]!;
    }
    return near;
  }

  /** the hits of one longitude band into the scratch arrays (haversine term in scratchH) */
  private scanNear(q: Query, from: number, to: number): void {
    const { lo, hi, hMax } = q;
    const xyz = this.xyz;
    const x0 = here[0]!;
    const y0 = here[1]!;
    const z0 = here[2]!;
    let n = q.n;
    for (let k = this.lowerBound(from); k < this.id.length && this.lon[k]! <= to; k++) {
      const la = this.lat[k]!;
      if (la < lo || la > hi) continue;
      const dx = xyz[3 * k]! - x0;
      const dy = xyz[3 * k + 1]! - y0;
      const dz = xyz[3 * k + 2]! - z0;
      // sin²(d/2) = (chord / 2)²
      const h = (dx * dx + dy * dy + dz * dz) / 4;
      if (h <= hMax) {
        this.scratchIds[n] = this.id[k]!;
        this.scratchH[n++] = h;
      }
    }
    q.n = n;
  }

  /** First position whose longitude is >= lon. */
  private lowerBound(lon: number): number {
    let lo = 0;
    let hi = this.lon.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.lon[mid]! < lon) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}
