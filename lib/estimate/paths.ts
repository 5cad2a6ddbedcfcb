// the traffic paths: where aircraft really flew, kept as compact polylines (one per stretch of a
// leg heard at altitude, simplified to a few hundred metres) with the destination the callsign's
// route named. an estimate past its 10-minute hold follows the paths of the traffic that passed
// its last position on its heading and went its way (follow.ts). learned each night from the
// network's own traces of the last days and published as meta/paths (schemas/paths.schema.json).
// pure: tracks in, paths out.
import { cutLegs, type TrackPoint } from '../detector.ts';
import { CRUISE } from './cruise.ts';
import { distanceKm } from '../geo.ts';

export interface PathParams {
  /** a polyline stays within this of the heard points (Douglas-Peucker); km */
  toleranceKm: number;
  /** two points further apart than this break a polyline; seconds */
  maxSpacingS: number;
  /** stretches shorter than this are not kept; km */
  minLengthKm: number;
  /** days of traffic kept (a night drops paths older than this). one day of the whole network is
   * about 3 million kept points (a point per ~54 km flown at altitude, measured on the Swiss
   * traffic), some 70 MB of JSON and 100 MB of server memory: more days multiply that */
  keepDays: number;
  /** the spatial index's cell, degrees of latitude and longitude */
  cellDeg: number;
}

export const PATH_PARAMS: PathParams = { toleranceKm: 1, maxSpacingS: 120, minLengthKm: 30, keepDays: 1, cellDeg: 0.2 };

/** One stretch of real traffic. */
export interface TrafficPath {
  /** the day it was flown (ISO date) */
  day: string;
  /** where the callsign's route said it was going, as the live server knew it; null: unknown */
  to: { lat: number; lon: number } | null;
  lat: Float64Array;
  lon: Float64Array;
  /** distance along the polyline from its first point, km */
  cum: Float64Array;
}

export interface PathSet {
  params: PathParams;
  paths: TrafficPath[];
  /** cell key `${latIndex},${lonIndex}` -> [path, segment] pairs, flat (segment i joins points i and i+1) */
  index: Map<string, number[]>;
}

/** what the learner may know of destinations: the live server's lookup over the routes it serves */
export type DestinationOf = (callsign: string) => { lat: number; lon: number } | null;

export interface PathTrack {
  points: readonly (TrackPoint & { callsign?: string })[];
}

const KM_PER_DEG = 111.195;

/** Douglas-Peucker on a local flat projection: the indexes of the points kept. */
export function simplify(lat: readonly number[], lon: readonly number[], toleranceKm: number): number[] {
  const n = lat.length;
  if (n <= 2) return [...Array(n).keys()];
  const kx = KM_PER_DEG * Math.cos((lat[0]! * Math.PI) / 180);
  const keep = new Uint8Array(n);
  keep[0] = keep[n - 1] = 1;
  const stack: [number, number][] = [[0, n - 1]];
  while (stack.length) {
    const [a, b] = stack.pop()!;
    const ax = lon[a]! * kx,
      ay = lat[a]! * KM_PER_DEG;
    const dx = lon[b]! * kx - ax,
      dy = lat[b]! * KM_PER_DEG - ay;
    const len2 = dx * dx + dy * dy;
    let worst = -1;
    let far = 0;
    for (let i = a + 1; i < b; i++) {
      const px = lon[i]! * kx - ax,
        py = lat[i]! * KM_PER_DEG - ay;
      const f = len2 > 0 ? Math.max(0, Math.min(1, (px * dx + py * dy) / len2)) : 0;
      const d = Math.hypot(px - f * dx, py - f * dy);
      if (d > far) [far, worst] = [d, i];
    }
    if (worst >= 0 && far > toleranceKm) {
      keep[worst] = 1;
      stack.push([a, worst], [worst, b]);
    }
  }
  const out: number[] = [];
  for (let i = 0; i < n; i++) if (keep[i]) out.push(i);
  return out;
}

function makePath(day: string, to: TrafficPath['to'], lat: number[], lon: number[]): TrafficPath {
  const cum = new Float64Array(lat.length);
  for (let i = 1; i < lat.length; i++) cum[i] = cum[i - 1]! + distanceKm(lat[i - 1]!, lon[i - 1]!, lat[i]!, lon[i]!);
  return { day, to, lat: Float64Array.from(lat), lon: Float64Array.from(lon), cum };
}

const finite = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/**
 * One day of observed tracks as paths: each leg (the shared take-off/landing detector) split where
 * it was not heard for maxSpacingS or went below cruise altitude, simplified, short ones dropped.
 */
export function learnPaths(day: string, tracks: Iterable<PathTrack>, destinationOf: DestinationOf, params: PathParams = PATH_PARAMS): TrafficPath[] {
  const out: TrafficPath[] = [];
  for (const track of tracks) {
    const pts = track.points.filter((p) => finite(p.t) && finite(p.lat) && finite(p.lon)).sort((a, b) => a.t - b.t);
    for (const cut of cutLegs(pts)) {
      const leg = pts.slice(cut.start, cut.end + 1);
      const callsign = leg.find((p) => p.callsign)?.callsign;
      const to = callsign ? destinationOf(callsign) : null;
      let lat: number[] = [];
      let lon: number[] = [];
      let lastT = -Infinity;
      const flush = () => {
        if (lat.length >= 2) {
          const keep = simplify(lat, lon, params.toleranceKm);
          const p = makePath(
            day,
            to && { lat: to.lat, lon: to.lon },
            keep.map((i) => lat[i]!),
            keep.map((i) => lon[i]!),
          );
          if (p.cum[p.cum.length - 1]! >= params.minLengthKm) out.push(p);
        }
        lat = [];
        lon = [];
      };
      for (const p of leg) {
        const high = finite(p.alt) && p.alt >= CRUISE.minAltFt;
        if (!high || p.t - lastT > params.maxSpacingS) flush();
        if (!high) continue;
        lat.push(p.lat);
        lon.push(p.lon);
        lastT = p.t;
      }
      flush();
    }
  }
  return out;
}

/** The paths with their spatial index: every cell a segment passes through lists it. */
export function pathSet(paths: TrafficPath[], params: PathParams = PATH_PARAMS): PathSet {
  const index = new Map<string, number[]>();
  const c = params.cellDeg;
  paths.forEach((p, pi) => {
    for (let s = 0; s + 1 < p.lat.length; s++) {
      // sample the segment finely enough that no cell it crosses is skipped (a quarter cell)
      const steps = Math.max(1, Math.ceil((Math.max(Math.abs(p.lat[s + 1]! - p.lat[s]!), Math.abs(p.lon[s + 1]! - p.lon[s]!)) * 4) / c));
      let prev = '';
      for (let k = 0; k <= steps; k++) {
        const f = k / steps;
        const key = `${Math.floor((p.lat[s]! + (p.lat[s + 1]! - p.lat[s]!) * f) / c)},${Math.floor((p.lon[s]! + (p.lon[s + 1]! - p.lon[s]!) * f) / c)}`;
        if (key === prev) continue;
        prev = key;
        const list = index.get(key);
        if (list && list[list.length - 2] === pi && list[list.length - 1] === s) continue;
        if (list) list.push(pi, s);
        else index.set(key, [pi, s]);
      }
    }
  });
  return { params, paths, index };
}

/** Tonight's paths: the kept days of the previous set (newer than `keepDays` before `day`) and the new day's. */
export function mergePaths(previous: TrafficPath[], added: TrafficPath[], day: string, params: PathParams = PATH_PARAMS): TrafficPath[] {
  const oldest = new Date(Date.parse(`${day}T00:00:00Z`) - (params.keepDays - 1) * 86_400_000).toISOString().slice(0, 10);
  return [...previous.filter((p) => p.day >= oldest && p.day < day), ...added];
}

/** The published form (meta/paths, schemas/paths.schema.json). */
export interface PathsDoc {
  /** the newest day of traces learned (ISO date); a replay of a day may use it only if earlier */
  through: string;
  params: PathParams;
  /** [day, destination [lat, lon] or null, flat [lat, lon, lat, lon, ...]] */
  paths: [string, [number, number] | null, number[]][];
}

const r4 = (v: number) => Math.round(v * 1e4) / 1e4;

export function encodePaths(paths: readonly TrafficPath[], through: string, params: PathParams = PATH_PARAMS): PathsDoc {
  return {
    through,
    params,
    paths: paths.map((p) => {
      const flat: number[] = [];
      for (let i = 0; i < p.lat.length; i++) flat.push(r4(p.lat[i]!), r4(p.lon[i]!));
      return [p.day, p.to && [r4(p.to.lat), r4(p.to.lon)], flat];
    }),
  };
}

export function decodePaths(doc: PathsDoc): PathSet {
  const paths = doc.paths.map(([day, to, flat]) => {
    const lat: number[] = [];
    const lon: number[] = [];
    for (let i = 0; i + 1 < flat.length; i += 2) lat.push(flat[i]!), lon.push(flat[i + 1]!);
    return makePath(day, to && { lat: to[0], lon: to[1] }, lat, lon);
  });
  return pathSet(paths, { ...doc.params });
}
