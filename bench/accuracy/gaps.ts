// the live replay's hidden gaps and the aircraft.json it feeds: pure, tracks and a seed in, records
// out. each scored aircraft is dropped from the feed at one seeded point of its track for up to
// 30 minutes (its truth continues); the feed otherwise replays every aircraft as readsb lists it:
// its newest point, `seen` counting up while it is silent, gone 60 s after it was last heard.
//
// decisions (the brief of the live replay, not the nightly's code, so the two stay independent):
// - a gap starts at a point picked (seeded) among the aircraft's cruising points by the numbers of
//   spec section 3 as written here (at or above 10,000 ft, 150-1,000 kt, climbing or descending
//   under 1,000 ft/min, a track), with at least 2 minutes of track after it. whether the server
//   agrees and lists it is what is measured. each sample weighs the number of points it was picked
//   among (score.ts), so the medians are over every cruising point alike, as the nightly's starts
//   (one every 5 minutes of cruise) are: picked among all points at altitude, or weighed per
//   aircraft, the figures are of other populations (the level-off moments of a climbing departure
//   weighed as much as a whole overflight), not of the method.
// - one gap per aircraft and pass; a pass picks again with its own seed.
import type { ObservedTrack, TrackPoint } from '../../lib/estimate/accuracy.ts';
import { rng } from '../../lib/random.ts';

export const GAPS = {
  /** a gap hides the aircraft this long at most; seconds */
  maxS: 1800,
  /** a gap starts only at a cruising point: this high or higher; feet */
  minAltFt: 10_000,
  /** at this ground speed or faster, and not faster than maxGsKt; knots */
  minGsKt: 150,
  maxGsKt: 1_000,
  /** climbing or descending slower than this (or not known); feet per minute */
  maxRateFpm: 1_000,
  /** and only with this much track after it; seconds */
  tailS: 120,
  /** readsb keeps a silent aircraft in aircraft.json this long; seconds */
  retainS: 60,
} as const;

export interface Gap {
  hex: string;
  /** time of the last point heard before the gap, unix seconds */
  from: number;
  /** points strictly between `from` and `to` are hidden; heard again from `to` on */
  to: number;
  /** how many points it was picked among */
  among: number;
}

/** Whether a gap may start at a point (see the top of this file). */
export function startable(p: TrackPoint): boolean {
  const n = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
  return (
    n(p.alt) &&
    p.alt >= GAPS.minAltFt &&
    n(p.gs) &&
    p.gs >= GAPS.minGsKt &&
    p.gs <= GAPS.maxGsKt &&
    n(p.track) &&
    (!n(p.rate) || Math.abs(p.rate) < GAPS.maxRateFpm)
  );
}

/** One seeded gap per aircraft that has a point to start it (see the top of this file). */
export function chooseGaps(tracks: readonly ObservedTrack[], seed: number, pass: number): Map<string, Gap> {
  const out = new Map<string, Gap>();
  for (const { hex, points } of tracks) {
    const end = points[points.length - 1]?.t ?? -Infinity;
    const starts = points.filter((p) => startable(p) && p.t <= end - GAPS.tailS);
    if (!starts.length) continue;
    const from = rng(seed, pass, hex).pick(starts).t;
    out.set(hex, { hex, from, to: from + GAPS.maxS, among: starts.length });
  }
  return out;
}

/** One record of aircraft.json (the readsb fields the replay knows). */
export interface FeedRecord {
  hex: string;
  flight?: string;
  lat: number;
  lon: number;
  alt_baro?: number;
  gs?: number;
  track?: number;
  baro_rate?: number;
  seen: number;
  seen_pos: number;
}

const hidden = (gap: Gap | undefined, t: number) => gap !== undefined && t > gap.from && t < gap.to;

/**
 * The feed, snapshot by snapshot: `at(now)` with `now` never going back gives the aircraft.json
 * records at that time and remembers, per aircraft, the last point the feed gave (`lastHeard`).
 */
export class FeedPlayer {
  private readonly next: Int32Array;
  private readonly heard: (TrackPoint | null)[];
  private readonly index: Map<string, number>;
  private last = -Infinity;

  constructor(
    private readonly tracks: readonly ObservedTrack[],
    private readonly gaps: ReadonlyMap<string, Gap>,
  ) {
    this.next = new Int32Array(tracks.length);
    this.heard = tracks.map(() => null);
    this.index = new Map(tracks.map((t, k) => [t.hex, k]));
  }

  at(now: number): FeedRecord[] {
    if (now < this.last) throw new Error(`the feed goes forward only: ${now} after ${this.last}`);
    this.last = now;
    const out: FeedRecord[] = [];
    this.tracks.forEach(({ hex, points }, k) => {
      const gap = this.gaps.get(hex);
      let i = this.next[k]!;
      for (; i < points.length && points[i]!.t <= now; i++) if (!hidden(gap, points[i]!.t)) this.heard[k] = points[i]!;
      this.next[k] = i;
      const p = this.heard[k];
      if (!p || now - p.t > GAPS.retainS) return;
      out.push(recordOf(hex, p, now));
    });
    return out;
  }

  /** the last point of `hex` the feed gave by the last `at`, or null */
  lastHeard(hex: string): TrackPoint | null {
    const k = this.index.get(hex);
    return k === undefined ? null : this.heard[k]!;
  }
}

function recordOf(hex: string, p: TrackPoint, now: number): FeedRecord {
  const age = Math.round((now - p.t) * 10) / 10;
  const num = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
  return {
    hex,
    ...(p.callsign ? { flight: p.callsign } : {}),
    lat: p.lat,
    lon: p.lon,
    ...(num(p.alt) ? { alt_baro: p.alt } : {}),
    ...(num(p.gs) ? { gs: p.gs } : {}),
    ...(num(p.track) ? { track: p.track } : {}),
    ...(num(p.rate) ? { baro_rate: p.rate } : {}),
    seen: age,
    seen_pos: age,
  };
}
