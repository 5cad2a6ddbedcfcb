// the live trace store: about 30 minutes of positions per aircraft, in memory (spec 2.4, 4.1).
// fed by every live snapshot; a restart forgets and trails regrow. each aircraft holds compact
// typed arrays (24 bytes a point) that grow by doubling up to a cap; the map is kept in order of
// last update, so expiry and eviction only ever look at its front.

import { cutLegs, type TrackPoint } from '../../lib/detector.ts';
import type { AircraftRecord, FeedSnapshot } from '../feed/record.ts';

/** [t, lat, lon, alt_baro, track] as spec 2.4 serves it */
type TraceTuple = [number, number, number, number | 'ground' | null, number | null];

export interface TraceDoc {
  hex: string;
  points: TraceTuple[];
  departure: { at: number; lat: number; lon: number; alt_ft: number } | null;
  arrival: { at: number; lat: number; lon: number } | null;
}

export interface TraceStoreOptions {
  /** minutes of positions kept per aircraft (spec 8: about 30) */
  minutes: number;
  /** aircraft held at most; the one updated longest ago is evicted first. 20,000 covers a
   * global feed (the 12k benchmark snapshot) with room; at the point cap that is < 250 MB worst case */
  maxAircraft?: number;
  /** points kept per aircraft at most (24 bytes each); the oldest go first */
  maxPoints?: number;
  /** s. a record whose position is older than this (seen_pos) adds no point: it is a held position, not a new one */
  maxSeenPosS?: number;
  /** s. a point closer than this to the previous one is skipped unless it changes ground/air state:
   * readsb updates every second; at 4 s, 30 minutes fit in maxPoints (450 < 512) */
  minSpacingS?: number;
}

// alt_baro sentinels in the Int32 column (real altitudes are far from both)
const ALT_GROUND = -2147483648;
const ALT_NULL = -2147483647;
// fixed point for lat/lon (1e-6 deg is ~0.1 m, finer than any ADS-B position) and track/gs (0.1)
const DEG = 1e6;
const TENTH = 10;
const NONE16 = -32768;

class Trail {
  len = 0;
  start = 0;
  t: Float64Array;
  lat: Int32Array;
  lon: Int32Array;
  alt: Int32Array;
  track: Int16Array;
  gs: Int16Array;

  constructor(cap: number) {
    this.t = new Float64Array(cap);
    this.lat = new Int32Array(cap);
    this.lon = new Int32Array(cap);
    this.alt = new Int32Array(cap);
    this.track = new Int16Array(cap);
    this.gs = new Int16Array(cap);
  }

  get count(): number {
    return this.len - this.start;
  }

  last(): number {
    return this.len - 1;
  }

  /** drops points older than `since` from the front */
  trim(since: number): void {
    while (this.start < this.len && this.t[this.start]! < since) this.start++;
  }

  push(t: number, lat: number, lon: number, alt: number, track: number, gs: number, maxPoints: number): void {
    if (this.count >= maxPoints) this.start++;
    if (this.len === this.t.length) this.compact(maxPoints);
    const i = this.len++;
    this.t[i] = t;
    this.lat[i] = lat;
    this.lon[i] = lon;
    this.alt[i] = alt;
    this.track[i] = track;
    this.gs[i] = gs;
  }

  /** moves live points to the front, doubling the capacity when they fill more than half */
  private compact(maxPoints: number): void {
    const n = this.count;
    const cap = n * 2 > this.t.length ? Math.min(Math.max(this.t.length * 2, 16), Math.max(maxPoints, 16)) : this.t.length;
    const move = <T extends Float64Array | Int32Array | Int16Array>(a: T, make: (n: number) => T): T => {
      const b = cap === a.length ? a : make(cap);
      if (b === a) a.copyWithin(0, this.start, this.len);
      else b.set(a.subarray(this.start, this.len));
      return b;
    };
    this.t = move(this.t, (c) => new Float64Array(c));
    this.lat = move(this.lat, (c) => new Int32Array(c));
    this.lon = move(this.lon, (c) => new Int32Array(c));
    this.alt = move(this.alt, (c) => new Int32Array(c));
    this.track = move(this.track, (c) => new Int16Array(c));
    this.gs = move(this.gs, (c) => new Int16Array(c));
    this.start = 0;
    this.len = n;
  }
}

export class TraceStore {
  /** the retention window, minutes */
  readonly minutes: number;
  private readonly windowS: number;
  private readonly maxAircraft: number;
  private readonly maxPoints: number;
  private readonly maxSeenPosS: number;
  private readonly minSpacingS: number;
  // insertion order = last-update order: the front is always the stalest aircraft
  private readonly trails = new Map<string, Trail>();

  constructor(opts: TraceStoreOptions) {
    if (!(opts.minutes > 0)) throw new Error(`TraceStore: minutes must be > 0, got ${opts.minutes}`);
    this.minutes = opts.minutes;
    this.windowS = opts.minutes * 60;
    this.maxAircraft = opts.maxAircraft ?? 20_000;
    this.maxPoints = opts.maxPoints ?? 512;
    this.maxSeenPosS = opts.maxSeenPosS ?? 15;
    this.minSpacingS = opts.minSpacingS ?? 4;
  }

  /** aircraft held now */
  get size(): number {
    return this.trails.size;
  }

  /** Adds one point per aircraft with a fresh, changed position; forgets what aged out. */
  update(snap: FeedSnapshot): void {
    for (const rec of snap.aircraft) this.add(rec, snap.now);
    this.expire(snap.now);
  }

  /** The trace of one aircraft as served (spec 2.4); null when no point is held in the window. */
  get(hex: string, nowS: number): TraceDoc | null {
    const key = hex.toLowerCase();
    const tr = this.trails.get(key);
    if (!tr) return null;
    const since = nowS - this.windowS;
    let i0 = tr.start;
    while (i0 < tr.len && tr.t[i0]! < since) i0++;
    if (i0 >= tr.len) return null;
    const points: TraceTuple[] = [];
    const track: TrackPoint[] = [];
    for (let i = i0; i < tr.len; i++) {
      const a = tr.alt[i]!;
      const alt = a === ALT_GROUND ? 'ground' : a === ALT_NULL ? null : a;
      const trk = tr.track[i] === NONE16 ? null : tr.track[i]! / TENTH;
      const gs = tr.gs[i] === NONE16 ? null : tr.gs[i]! / TENTH;
      const lat = tr.lat[i]! / DEG;
      const lon = tr.lon[i]! / DEG;
      points.push([tr.t[i]!, lat, lon, alt, trk]);
      track.push({ t: tr.t[i]!, lat, lon, alt, gs, track: trk });
    }
    const legs = cutLegs(track);
    const leg = legs[legs.length - 1];
    const dep = leg?.departure ?? null;
    // an arrival only when the trace ends on the ground, i.e. the last leg owns the last point
    const arr = leg && leg.end === track.length - 1 ? leg.arrival : null;
    return {
      hex: key,
      points,
      departure: dep && { at: dep.at, lat: dep.lat, lon: dep.lon, alt_ft: dep.alt_ft },
      arrival: arr && { at: arr.at, lat: arr.lat, lon: arr.lon },
    };
  }

  private add(rec: AircraftRecord, now: number): void {
    if (rec.lat === undefined || rec.lon === undefined) return;
    const age = rec.seen_pos ?? 0;
    if (!(age >= 0 && age <= this.maxSeenPosS)) return;
    // tenths of a second: what readsb's `now` carries
    const t = Math.round((now - age) * 10) / 10;
    const lat = Math.round(rec.lat * DEG);
    const lon = Math.round(rec.lon * DEG);
    const alt = rec.alt_baro === 'ground' ? ALT_GROUND : rec.alt_baro === undefined ? ALT_NULL : Math.round(rec.alt_baro);
    let tr = this.trails.get(rec.hex);
    if (tr && tr.count > 0) {
      const j = tr.last();
      if (t <= tr.t[j]!) return; // not newer than what we hold
      if (tr.lat[j] === lat && tr.lon[j] === lon) return; // position did not change
      const sameState = (tr.alt[j] === ALT_GROUND) === (alt === ALT_GROUND);
      if (sameState && t - tr.t[j]! < this.minSpacingS) return;
    }
    if (tr) {
      tr.trim(t - this.windowS);
      this.trails.delete(rec.hex); // re-insert: moves it to the back (freshest)
    }
    else {
      tr = new Trail(16);
      while (this.trails.size >= this.maxAircraft) this.evictOldest();
    }
    this.trails.set(rec.hex, tr);
    tr.push(t, lat, lon, alt, fixed16(rec.track), fixed16(rec.gs), this.maxPoints);
  }

  private expire(now: number): void {
    const since = now - this.windowS;
    for (const [hex, tr] of this.trails) {
      if (tr.t[tr.last()]! >= since) break; // everything after is fresher
      this.trails.delete(hex);
    }
  }

  private evictOldest(): void {
    const first = this.trails.keys().next();
    if (!first.done) this.trails.delete(first.value);
  }
}

/** one decimal in an Int16: track (0..360) and gs (0..3276 kt) fit; absent or out of range = none */
function fixed16(v: number | undefined): number {
  if (v === undefined || !Number.isFinite(v)) return NONE16;
  const x = Math.round(v * TENTH);
  return x > NONE16 && x <= 32767 ? x : NONE16;
}
