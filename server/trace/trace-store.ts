// the live trace store: about 30 minutes of positions per aircraft, in memory (spec 2.4, 4.1).
// fed by every live snapshot; a restart forgets and trails regrow. each aircraft holds compact
// point arrays (20 bytes a point, one Int32Array each) that grow by doubling up to a cap; the map is kept in order of
// last update, so expiry and eviction only ever look at its front.
//
// thinning keeps the shape (lib/trace-thin.ts, the rule the nightly's leg tracks share): a point is
// kept whenever the aircraft turns, changes its vertical profile or goes between ground and air;
// straight, level flight keeps one point every levelSpacingS. the day's take-off is remembered when its points age out, so a
// flight two hours out still says where it took off (until it lands or the UTC day ends).

import { cutLegs, type FieldLookup, type TrackPoint } from '../../lib/detector.ts';
import { ALT_GROUND, ALT_NULL, DEFAULT_THIN, DEG, NONE16, TENTH, fixed16, keepsPoint } from '../../lib/trace-thin.ts';
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
   * global feed (the 12k benchmark snapshot) with room; at the point cap that is < 400 MB worst case */
  maxAircraft?: number;
  /** points kept per aircraft at most (20 bytes each); the oldest go first. default: the window at
   * one point per minSpacingS (at least 2 s), 901 for 30 minutes */
  maxPoints?: number;
  /** s. a record whose position is older than this (seen_pos) adds no point: it is a held position, not a new one */
  maxSeenPosS?: number;
  /** s. no two kept points closer than this, unless ground/air state changes (a 3 deg/s turn is then
   * drawn every 6 deg) */
  minSpacingS?: number;
  /** s. straight, level flight keeps one point this often (cruise: 60 points per 30 minutes) */
  levelSpacingS?: number;
  /** airfield heights for the detector (ground without a ground flag, touchdown placement); null: flags only */
  fields?: FieldLookup | null;
}

/** the take-off remembered after its points aged out of the window */
interface Takeoff {
  at: number;
  lat: number;
  lon: number;
  alt_ft: number;
}

// one point is 5 Int32s (20 bytes), in one array per aircraft: time in tenths of a second after
// the trail's base, lat and lon in 1e-6 deg, alt_baro in ft (or a sentinel), and track and gs in
// tenths packed into the high and low halves of the fifth
const STRIDE = 5;
const T = 0;
const LAT = 1;
const LON = 2;
const ALT = 3;
const TRK_GS = 4;

class Trail {
  /** the map key, kept: re-inserting under it leaves the record's own copy of the hex to die young */
  key = '';
  len = 0;
  start = 0;
  /** s: times are kept as tenths after this (an Int32 holds 6 years of them) */
  readonly base: number;
  p: Int32Array;
  /** the day's take-off, kept when its points left the window; null once the aircraft landed */
  takeoff: Takeoff | null = null;

  constructor(cap: number, base: number) {
    this.p = new Int32Array(cap * STRIDE);
    this.base = Math.floor(base);
  }

  get count(): number {
    return this.len - this.start;
  }

  last(): number {
    return this.len - 1;
  }

  /** s, as it was given to push (the same double: tenths are divided exactly once) */
  t(i: number): number {
    return (this.base * TENTH + this.p[i * STRIDE + T]!) / TENTH;
  }

  lat(i: number): number {
    return this.p[i * STRIDE + LAT]!;
  }

  lon(i: number): number {
    return this.p[i * STRIDE + LON]!;
  }

  alt(i: number): number {
    return this.p[i * STRIDE + ALT]!;
  }

  track(i: number): number {
    return this.p[i * STRIDE + TRK_GS]! >> 16;
  }

  gs(i: number): number {
    return (this.p[i * STRIDE + TRK_GS]! << 16) >> 16;
  }

  /** drops points older than `since` from the front */
  trim(since: number): void {
    while (this.start < this.len && this.t(this.start) < since) this.start++;
  }

  push(t: number, lat: number, lon: number, alt: number, track: number, gs: number, maxPoints: number): void {
    if (this.count >= maxPoints) this.start++;
    if (this.len * STRIDE === this.p.length) this.compact(maxPoints);
    const o = this.len++ * STRIDE;
    const p = this.p;
    p[o + T] = Math.round((t - this.base) * TENTH);
    p[o + LAT] = lat;
    p[o + LON] = lon;
    p[o + ALT] = alt;
    p[o + TRK_GS] = (track << 16) | (gs & 0xffff);
  }

  /** moves live points to the front, doubling the capacity (up to maxPoints) when they fill more than half */
  private compact(maxPoints: number): void {
    const n = this.count;
    const have = this.p.length / STRIDE;
    const cap = n * 2 > have ? Math.min(Math.max(have * 2, 16), Math.max(maxPoints, 16)) : have;
    const live = this.p.subarray(this.start * STRIDE, this.len * STRIDE);
    if (cap === have) this.p.copyWithin(0, this.start * STRIDE, this.len * STRIDE);
    else {
      const b = new Int32Array(cap * STRIDE);
      b.set(live);
      this.p = b;
    }
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
  private readonly levelSpacingS: number;
  private readonly fields: FieldLookup | null;
  // insertion order = last-update order: the front is always the stalest aircraft
  private readonly trails = new Map<string, Trail>();

  constructor(opts: TraceStoreOptions) {
    if (!(opts.minutes > 0)) throw new Error(`TraceStore: minutes must be > 0, got ${opts.minutes}`);
    this.minutes = opts.minutes;
    this.windowS = opts.minutes * 60;
    this.maxAircraft = opts.maxAircraft ?? 20_000;
    this.maxSeenPosS = opts.maxSeenPosS ?? 15;
    this.minSpacingS = opts.minSpacingS ?? DEFAULT_THIN.minSpacingS;
    this.maxPoints = opts.maxPoints ?? Math.ceil(this.windowS / Math.max(this.minSpacingS, 2)) + 1;
    this.levelSpacingS = opts.levelSpacingS ?? DEFAULT_THIN.levelSpacingS;
    this.fields = opts.fields ?? null;
  }

  /** aircraft held now */
  get size(): number {
    return this.trails.size;
  }

  /** Adds one point per aircraft with a fresh, changed position; forgets what aged out. */
  update(snap: FeedSnapshot): void {
    for (const rec of snap.aircraft) this.add(rec, snap.now);
    this.end(snap.now);
  }

  // the feed follower's steps (ingest/followers.ts): the snapshot a slice at a time
  begin(): boolean {
    return true;
  }

  takeOne(rec: AircraftRecord, now: number): void {
    this.add(rec, now);
  }

  end(now: number): void {
    this.expire(now);
  }

  /** The trace of one aircraft as served (spec 2.4); null when no point is held in the window. */
  get(hex: string, nowS: number): TraceDoc | null {
    const key = hex.toLowerCase();
    const tr = this.trails.get(key);
    if (!tr) return null;
    const since = nowS - this.windowS;
    let i0 = tr.start;
    while (i0 < tr.len && tr.t(i0) < since) i0++;
    if (i0 >= tr.len) return null;
    const track = trackOf(tr, i0);
    const points: TraceTuple[] = track.map((p) => [p.t, p.lat, p.lon, p.alt, p.track ?? null]);
    const legs = cutLegs(track, { fields: this.fields });
    const leg = legs[legs.length - 1];
    // the window shows no landing before the current leg: its take-off may have aged out, so the
    // remembered one of the same UTC day stands in
    const kept = legs.length === 1 && tr.takeoff && utcDay(tr.takeoff.at) === utcDay(nowS) ? tr.takeoff : null;
    const dep = leg?.departure ?? kept;
    // an arrival only when the trace ends on the ground, i.e. the last leg owns the last point
    const arr = leg && leg.end === track.length - 1 ? leg.arrival : null;
    return {
      hex: key,
      points,
      departure: dep && { at: dep.at, lat: dep.lat, lon: dep.lon, alt_ft: dep.alt_ft },
      arrival: arr && { at: arr.at, lat: arr.lat, lon: arr.lon },
    };
  }

  /** ft: the elevation of the field a point is near (so "low" at La Paz is low over La Paz), 0 without one */
  private fieldElevation(tr: Trail, i: number): number {
    return this.fields?.(tr.lat(i) / DEG, tr.lon(i) / DEG)?.elevation_ft ?? 0;
  }

  /** before low points leave the window: what the detector says of the whole trail, so a take-off is kept */
  private remember(tr: Trail, since: number): void {
    let low = false;
    for (let i = tr.start; i < tr.len && tr.t(i) < since; i++) {
      const a = tr.alt(i);
      if (a === ALT_GROUND || (a !== ALT_NULL && a < DEPARTURE_BELOW_FT + this.fieldElevation(tr, i))) low = true;
    }
    // cruise points leaving the window say nothing about a take-off: no detector run for them
    if (!low) return;
    const legs = cutLegs(trackOf(tr, tr.start), { fields: this.fields });
    const last = legs[legs.length - 1];
    if (!last) return;
    // a leg that ends on the ground has landed: no take-off to carry
    if (last.arrival && last.end === tr.count - 1) tr.takeoff = null;
    // a landing in between: the current leg is a new flight, with its own take-off or none heard
    else if (legs.length > 1)
      tr.takeoff = last.departure && { at: last.departure.at, lat: last.departure.lat, lon: last.departure.lon, alt_ft: last.departure.alt_ft };
    // one leg: a take-off already held is the earliest of this flight (later low points of the
    // climb, once the ground roll is gone, would read as a "first heard aloft" departure)
    else if (!tr.takeoff && last.departure)
      tr.takeoff = { at: last.departure.at, lat: last.departure.lat, lon: last.departure.lon, alt_ft: last.departure.alt_ft };
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
    const trk = fixed16(rec.track);
    const gs = fixed16(rec.gs);
    const hex = rec.hex;
    let tr = this.trails.get(hex);
    if (tr && tr.count > 0) {
      const j = tr.last();
      if (t <= tr.t(j)) return; // not newer than what we hold
      if (tr.lat(j) === lat && tr.lon(j) === lon) return; // position did not change
      if (!this.keeps(tr, t, alt, trk, gs)) return;
    }
    if (tr) {
      this.remember(tr, t - this.windowS);
      tr.trim(t - this.windowS);
      this.trails.delete(tr.key); // re-insert: moves it to the back (freshest)
    } else {
      tr = new Trail(16, t);
      tr.key = hex;
      while (this.trails.size >= this.maxAircraft) this.evictOldest();
    }
    this.trails.set(tr.key, tr);
    tr.push(t, lat, lon, alt, trk, gs, this.maxPoints);
  }

  /** whether a new point changes the shape enough to keep (the header's rule) */
  private keeps(tr: Trail, t: number, alt: number, trk: number, gs: number): boolean {
    return keepsPoint(tr, tr.last(), tr.start, t, alt, trk, gs, { minSpacingS: this.minSpacingS, levelSpacingS: this.levelSpacingS });
  }

  private expire(now: number): void {
    const since = now - this.windowS;
    for (const [hex, tr] of this.trails) {
      if (tr.t(tr.last()) >= since) break; // everything after is fresher
      this.trails.delete(hex);
    }
  }

  private evictOldest(): void {
    const first = this.trails.keys().next();
    if (!first.done) this.trails.delete(first.value);
  }
}

/** ft above the field (or sea level without one): points below this leaving the window may hold a take-off
 * (spec 2.4: heard from the ground or below 5,000 ft) */
const DEPARTURE_BELOW_FT = 5000;

/** the held points from index i0 on, as the detector reads them */
function trackOf(tr: Trail, i0: number): TrackPoint[] {
  const out: TrackPoint[] = [];
  for (let i = i0; i < tr.len; i++) {
    const a = tr.alt(i);
    out.push({
      t: tr.t(i),
      lat: tr.lat(i) / DEG,
      lon: tr.lon(i) / DEG,
      alt: a === ALT_GROUND ? 'ground' : a === ALT_NULL ? null : a,
      gs: tr.gs(i) === NONE16 ? null : tr.gs(i) / TENTH,
      track: tr.track(i) === NONE16 ? null : tr.track(i) / TENTH,
    });
  }
  return out;
}

const utcDay = (s: number) => Math.floor(s / 86400);
