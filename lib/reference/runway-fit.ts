// which runway end a take-off or landing used: the aircraft's track against each end's heading, and
// its position in the runway's frame (along from the end's threshold, across from the centreline).
// pure; the rule is in lib/reference/README.md ("Runway of a take-off or landing").
//
// a landing heard only down to a few hundred feet is still on the extended centreline: a point
// before the threshold fits when it lies within APPROACH_M of it along the track and close to the
// centreline; a take-off first heard climbing away likewise beyond the far end (CLIMB_M).
import type { Runway } from './runways.ts';

/** one end of a located runway, as the aircraft uses it: from its threshold toward the other end */
export interface RunwayEnd {
  airport: string;
  /** designator, e.g. 27R */
  ident: string;
  lat: number;
  lon: number;
  /** degrees true, from this end toward the other (from the ends' positions) */
  heading: number;
  lengthM: number;
  widthM: number;
}

/** where and how an aircraft met or left the ground */
export interface GroundContact {
  kind: 'takeoff' | 'landing';
  lat: number;
  lon: number;
  /** degrees true along the runway (lib/reference/runway-fit.ts contactTrack), null when not known */
  track: number | null;
}

type RunwayFit = { kind: 'fit'; end: RunwayEnd; cost: number } | { kind: 'ambiguous'; ends: RunwayEnd[] } | { kind: 'none' };

/** a track within this of the end's heading fits: a ground roll or a final is within a few degrees of
 * the runway; a strong crosswind's crab shows in the heading, not in the track */
const HEADING_TOL_DEG = 20;
/** m across the centreline beyond the half width: receiver position error (ADS-B NACp 8: < 93 m, 95 %) */
const LATERAL_M = 90;
/** m before the threshold a landing may be last heard (about 500 ft on a 3-degree glide path) */
export const APPROACH_M = 3000;
/** m past the far end a take-off may be first heard (a climb of about 600 ft) */
const CLIMB_M = 3000;
/** m a landing's roll or a take-off's line-up may lie past the runway's ends (overruns, stopways) */
const OVERRUN_M = 300;
/** off the runway the allowed offset widens with the distance: about 3 degrees */
const SPLAY = 0.05;
/** two ends whose offsets from the point differ by less than this cannot be told apart (m) */
const AMBIGUOUS_M = 60;
/** runway width when OurAirports gives none (m): 100 ft, a typical paved runway */
const DEFAULT_WIDTH_M = 30;
/** a located "runway" shorter than this is a pad (m) */
const MIN_RUNWAY_M = 150;

const KM_PER_DEG = 111.195;
const RAD = Math.PI / 180;
const FT_M = 0.3048;

const angleDiff = (a: number, b: number) => {
  const d = Math.abs((((a - b) % 360) + 360) % 360);
  return d > 180 ? 360 - d : d;
};

/** The usable ends of OurAirports runways by airport ident: open runways with both ends located. */
export function runwayEnds(runways: readonly Runway[]): Map<string, RunwayEnd[]> {
  const out = new Map<string, RunwayEnd[]>();
  for (const r of runways) {
    if (r.closed || !r.le || !r.he) continue;
    const kx = KM_PER_DEG * Math.cos(((r.le.lat + r.he.lat) / 2) * RAD);
    const dx = (r.he.lon - r.le.lon) * kx * 1000;
    const dy = (r.he.lat - r.le.lat) * KM_PER_DEG * 1000;
    const lengthM = Math.hypot(dx, dy);
    if (lengthM < MIN_RUNWAY_M) continue;
    const heading = (((Math.atan2(dx, dy) / RAD) % 360) + 360) % 360;
    const widthM = r.width_ft ? r.width_ft * FT_M : DEFAULT_WIDTH_M;
    const list = out.get(r.airport_ident) ?? [];
    out.set(r.airport_ident, list);
    list.push({ airport: r.airport_ident, ident: r.le_ident ?? '', lat: r.le.lat, lon: r.le.lon, heading, lengthM, widthM });
    list.push({ airport: r.airport_ident, ident: r.he_ident ?? '', lat: r.he.lat, lon: r.he.lon, heading: (heading + 180) % 360, lengthM, widthM });
  }
  return out;
}

/**
 * How badly the contact fits this end, or null when it does not: 0 on the centreline with the
 * runway's heading, up to about 2 at the edges of what fits.
 */
function endCost(c: GroundContact, e: RunwayEnd): number | null {
  if (c.track === null) return null;
  const dh = angleDiff(c.track, e.heading);
  if (dh > HEADING_TOL_DEG) return null;
  const { along, across } = frame(c, e);
  // how far outside the runway's length the point lies, and how far it may
  const before = c.kind === 'landing' ? APPROACH_M : OVERRUN_M;
  const after = c.kind === 'takeoff' ? CLIMB_M : OVERRUN_M;
  const outside = along < 0 ? -along : along > e.lengthM ? along - e.lengthM : 0;
  if (along < -before || along > e.lengthM + after) return null;
  const maxAcross = e.widthM / 2 + LATERAL_M + SPLAY * outside;
  if (Math.abs(across) > maxAcross) return null;
  return (across / maxAcross) ** 2 + (dh / HEADING_TOL_DEG) ** 2;
}

/** the contact in the end's frame, m: along from the threshold toward the other end, across to the right */
function frame(c: { lat: number; lon: number }, e: RunwayEnd): { along: number; across: number } {
  const kx = KM_PER_DEG * Math.cos(e.lat * RAD) * 1000;
  const x = (c.lon - e.lon) * kx;
  const y = (c.lat - e.lat) * KM_PER_DEG * 1000;
  const s = Math.sin(e.heading * RAD);
  const co = Math.cos(e.heading * RAD);
  return { along: x * s + y * co, across: x * co - y * s };
}

/**
 * The runway end the contact used among `ends`: the one with the smallest offset from its
 * centreline among those that fit (heading and position). Two fitting ends with nearly the same
 * heading whose offsets differ by less than AMBIGUOUS_M cannot be told apart: ambiguous, never a guess.
 */
export function fitRunway(c: GroundContact, ends: readonly RunwayEnd[]): RunwayFit {
  const fits: { end: RunwayEnd; cost: number; off: number }[] = [];
  for (const e of ends) {
    const cost = endCost(c, e);
    if (cost !== null) fits.push({ end: e, cost, off: Math.abs(frame(c, e).across) });
  }
  if (fits.length === 0) return { kind: 'none' };
  // the nearest centreline decides (parallel runways are told apart by the offset); the heading, which
  // parallels share, only orders ends whose offsets are alike
  fits.sort((a, b) => a.off - b.off || a.cost - b.cost);
  const best = fits[0]!;
  const rivals = fits.filter((f) => f !== best && f.off - best.off < AMBIGUOUS_M && !sameEnd(f.end, best.end));
  if (rivals.length) return { kind: 'ambiguous', ends: [best.end, ...rivals.map((r) => r.end)] };
  return { kind: 'fit', end: best.end, cost: best.cost };
}

// the same end listed twice (OurAirports has a few duplicated rows)
const sameEnd = (a: RunwayEnd, b: RunwayEnd) => a.airport === b.airport && a.ident === b.ident;

/** a point of a track, as the detector reads it (lib/detector/points.ts TrackPoint) */
interface Point {
  t: number;
  lat: number;
  lon: number;
  track?: number | null;
}

/** s of track read around a contact: a landing's final and roll, a take-off's roll and initial climb */
const BEFORE_S = { landing: 30, takeoff: 20 } as const;
const AFTER_S = { landing: 10, takeoff: 30 } as const;
/** tracks spread wider than this (a turn onto final, a turn off the runway) give no track */
const SPREAD_DEG = 15;
/** m: positions closer than this give no bearing (a stop, position noise) */
const MIN_BEARING_M = 150;

/**
 * The track of the contact at points[i]: the circular mean of the reported tracks within the window
 * around it (the final and the roll for a landing, the roll and the climb for a take-off), else the
 * bearing between the window's first and last positions; null when the window turns or holds nothing.
 */
export function contactTrack(points: readonly Point[], i: number, kind: GroundContact['kind']): number | null {
  const t0 = points[i]!.t - BEFORE_S[kind];
  const t1 = points[i]!.t + AFTER_S[kind];
  let a = i;
  let b = i;
  while (a > 0 && points[a - 1]!.t >= t0) a--;
  while (b < points.length - 1 && points[b + 1]!.t <= t1) b++;
  const tracks: number[] = [];
  for (let k = a; k <= b; k++) {
    const tr = points[k]!.track;
    if (typeof tr === 'number' && Number.isFinite(tr)) tracks.push(tr);
  }
  if (tracks.length >= 2) {
    let sx = 0;
    let sy = 0;
    for (const tr of tracks) {
      sx += Math.sin(tr * RAD);
      sy += Math.cos(tr * RAD);
    }
    const mean = (((Math.atan2(sx, sy) / RAD) % 360) + 360) % 360;
    return tracks.every((tr) => angleDiff(tr, mean) <= SPREAD_DEG) ? mean : null;
  }
  const p = points[a]!;
  const q = points[b]!;
  const kx = KM_PER_DEG * Math.cos(p.lat * RAD) * 1000;
  const dx = (q.lon - p.lon) * kx;
  const dy = (q.lat - p.lat) * KM_PER_DEG * 1000;
  if (Math.hypot(dx, dy) < MIN_BEARING_M) return tracks.length === 1 ? tracks[0]! : null;
  return (((Math.atan2(dx, dy) / RAD) % 360) + 360) % 360;
}
