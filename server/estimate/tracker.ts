// the estimate list of spec section 3, fed one live snapshot at a time (no clock of its own:
// time is the snapshot's `now`, so a replay or a test pins it).
//
//   not listed --(last heard while cruising, 90 s passed)--> listed
//   listed --(heard again)--> not listed (normal live data applies)
//   listed --(distance to go down to the top of descent)--> not listed
//   listed --(flight time runs out: 2 h cap, ETA + 15 min, or 30 min without destination)--> not listed
//
// a plan is made when an estimate is first listed and kept until the aircraft is heard again, with
// one exception: the routes table it was looked up in changes (docs/api.md "Estimated aircraft").
// - planned before any routes table is loaded (the server started before its first build): it
//   has no destination and no eta, and is listed for 30 minutes like any estimate without one;
//   its entry is kept (unlisted) up to the 2 h cap all the same, as an entry never listed would be,
//   so what is listed once a table loads does not depend on whether anyone asked before.
// - when a routes table loads or a newer one replaces it, every planned estimate is looked up
//   again: one whose callsign now names a destination other than its plan's (or one where it had
//   none) is planned again from the same last-heard state, and lives by its new plan (it may be
//   listed again past its 30 minutes). one whose destination is unchanged keeps its plan (its path
//   does not jump), and so does one whose callsign the new table no longer names (the destination
//   it is flying to is still the best the server knows).
//
// memory holds one small entry per aircraft whose last-heard state was cruising, and only until
// its estimate has run out: an aircraft heard in any other state is forgotten at once.
// estimates live here only: nothing in this file writes anywhere.
import type { AircraftRecord, FeedSnapshot } from '../feed/record.ts';
import type { EstimatedAircraft } from '../../lib/live-records.ts';
import { notCruisingBecause } from '../../lib/estimate/cruise.ts';
import { FLY, makePlan, positionAt, type FlightStart, type Learned, type Plan } from '../../lib/estimate/fly.ts';

import type { Destination } from '../../artifacts/meta.ts';

/** The routes table's answer for a callsign: where it is going, or null when unknown. */
export type DestinationOf = (callsign: string) => Destination | null;

export interface TrackerOptions {
  destinationOf: DestinationOf;
  /**
   * which routes table `destinationOf` answers from (the served build's id), null while none is
   * loaded; when it changes, planned estimates are looked up again (see the top of this file).
   * absent: `destinationOf` is a fixed table
   */
  routesVersion?: () => string | null;
  /** what the served build learned (meta/flow, meta/paths); none: estimates turn toward destinations only */
  learnedOf?: () => Learned;
  /** spec 8: an estimate appears this long after the aircraft was last heard; seconds */
  appearAfterS?: number;
  /** hard bound on remembered aircraft; the longest-unheard go first */
  maxEntries?: number;
}

/** the identity fields an estimate repeats from the last record heard */
type Identity = Pick<AircraftRecord, 'hex' | 'flight' | 't' | 'r' | 'category'>;

interface Entry {
  rec: Identity;
  /** last message of any kind, unix seconds */
  heardAt: number;
  start: FlightStart;
  /** resolved on first listing: the routes table is only asked about aircraft that went quiet */
  plan?: Plan;
  destCode?: string;
  /** the routes table the plan's destination was looked up in (routesVersion); null: none was loaded */
  planRoutes?: string | null;
}

/** readsb rounds `seen` to 0.1 s: a last-heard time that moves by less is the same message */
const SAME_MESSAGE_S = 0.5;
/** expired entries are swept at most this often (feed time), seconds */
const SWEEP_EVERY_S = 30;
/** the routes version of a tracker whose destinationOf never changes */
const FIXED_TABLE = 'fixed';

const age = (v: number | undefined) => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : undefined);
const round = (v: number, places: number) => Math.round(v * 10 ** places) / 10 ** places;

export class Tracker {
  private readonly entries = new Map<string, Entry>();
  private readonly destinationOf: DestinationOf;
  private readonly routesVersion: () => string | null;
  private readonly learnedOf: () => Learned;
  private readonly appearAfterS: number;
  private readonly maxEntries: number;
  private latest: number | null = null;
  private swept = -Infinity;

  constructor(opts: TrackerOptions) {
    this.destinationOf = opts.destinationOf;
    this.routesVersion = opts.routesVersion ?? (() => FIXED_TABLE);
    this.learnedOf = opts.learnedOf ?? (() => ({}));
    this.appearAfterS = opts.appearAfterS ?? 90;
    this.maxEntries = opts.maxEntries ?? 200_000;
  }

  /** `now` of the newest snapshot taken in, unix seconds; null before the first. */
  get lastSnapshotS(): number | null {
    return this.latest;
  }

  /** Aircraft remembered (listed or waiting to be). */
  get size(): number {
    return this.entries.size;
  }

  /** Take in one live snapshot whole (tests, replays; the server takes it in slices: ingest/followers.ts). Older or malformed snapshots are ignored. */
  ingest = (snap: FeedSnapshot): void => {
    if (!snap || !Array.isArray(snap.aircraft) || !this.begin(snap.now)) return;
    for (const rec of snap.aircraft) this.takeOne(rec, snap.now);
    this.end(snap.now);
  };

  /** A snapshot begins: false when its time is malformed or older than the newest taken. */
  begin(now: number): boolean {
    return typeof now === 'number' && Number.isFinite(now) && (this.latest === null || now >= this.latest);
  }

  /** The snapshot is whole: it becomes the newest (the list is made at its time), then expiry and the bound. */
  end(now: number): void {
    this.latest = now;
    if (now - this.swept >= SWEEP_EVERY_S) this.sweep(now);
    if (this.entries.size > this.maxEntries) this.evictOldest();
  }

  /** Over the bound: the entries heard longest ago go, down to 99 % of it (so this runs seldom). */
  private evictOldest(): void {
    const keep = Math.floor(this.maxEntries * 0.99);
    const heard = Float64Array.from(this.entries.values(), (e) => e.heardAt).sort();
    // heard[cut] is the oldest time kept; ties at it go in map order until the size is reached
    const cut = heard[heard.length - keep]!;
    for (const [hex, e] of this.entries) {
      if (this.entries.size <= keep) break;
      if (e.heardAt <= cut) this.entries.delete(hex);
    }
  }

  /** The snapshot's next record (a view, maybe: nothing of it is kept but copied fields). */
  takeOne(rec: AircraftRecord, now: number): void {
    const hex = rec?.hex;
    if (typeof hex !== 'string') return;
    const heardAt = now - (age(rec.seen) ?? 0);
    const known = this.entries.get(hex);
    if (known && heardAt <= known.heardAt + SAME_MESSAGE_S) return; // not heard again: the record is only ageing
    if (notCruisingBecause(rec) !== null) {
      if (known) this.entries.delete(hex);
      return;
    }
    const posAt = now - (age(rec.seen_pos) ?? age(rec.seen) ?? 0);
    // heard again while cruising: the entry is updated in place and stays where it is in the map,
    // so a second of a 12k sky leaves next to nothing for the garbage collector (a new entry per
    // aircraft per second cost 10-40 ms scavenges on the serving thread; deleting and re-inserting
    // every entry to keep the map in last-heard order made V8 rebuild the map's table, ~1 MB
    // allocated straight in the old generation, about every second: a full collection every 2-3 s);
    // a string that did not change keeps its old copy
    const e: Entry = known ?? { rec: { hex }, heardAt, start: { t: 0, lat: 0, lon: 0, track: 0, gs: 0, alt: 0 } };
    e.heardAt = heardAt;
    e.plan = undefined;
    e.destCode = undefined;
    e.planRoutes = undefined;
    const id = e.rec;
    if (id.flight !== rec.flight) id.flight = rec.flight;
    if (id.t !== rec.t) id.t = rec.t;
    if (id.r !== rec.r) id.r = rec.r;
    if (id.category !== rec.category) id.category = rec.category;
    const st = e.start;
    st.t = posAt;
    st.lat = rec.lat!;
    st.lon = rec.lon!;
    st.track = rec.track!;
    st.gs = rec.gs!;
    st.alt = rec.alt_baro as number;
    // under the key kept in the entry: the record's own copy of the hex dies young
    if (!known) this.entries.set(e.rec.hex, e);
  }

  private sweep(now: number): void {
    this.swept = now;
    const routes = this.routesVersion();
    for (const [hex, e] of this.entries) if (now >= this.keptUntil(e, routes)) this.entries.delete(hex);
  }

  /** Until when an entry is remembered: its plan's end; unplanned, or planned with no routes table, the 2 h cap. */
  private keptUntil(e: Entry, routes: string | null): number {
    const cap = e.start.t + FLY.hardCapS;
    if (!e.plan) return cap;
    const plan = this.planOf(e, routes);
    return e.planRoutes === null ? Math.max(cap, plan.expiresAt) : plan.expiresAt;
  }

  /** The callsign's destination in the routes table now served, or null. */
  private destinationFor(e: Entry): Destination | null {
    if (!e.rec.flight) return null;
    const d = this.destinationOf(e.rec.flight);
    return d && Number.isFinite(d.lat) && Number.isFinite(d.lon) && Math.abs(d.lat) <= 90 && Math.abs(d.lon) <= 180 && d.code ? d : null;
  }

  /** The entry's plan, made on first listing, and again when a new routes table names another destination (top of this file). */
  private planOf(e: Entry, routes: string | null): Plan {
    if (e.plan && e.planRoutes === routes) return e.plan;
    const dest = this.destinationFor(e);
    if (!e.plan || (dest && dest.code !== e.destCode)) {
      e.plan = makePlan(e.start, dest, this.learnedOf());
      e.destCode = dest?.code;
    }
    e.planRoutes = routes;
    return e.plan;
  }

  /** The estimate list at time `at` (unix seconds; default the newest snapshot's time), sorted by hex. */
  list(at: number | null = this.latest): EstimatedAircraft[] {
    if (at === null) return [];
    const routes = this.routesVersion();
    const out: EstimatedAircraft[] = [];
    for (const e of this.entries.values()) {
      if (at - e.heardAt < this.appearAfterS) continue;
      const plan = this.planOf(e, routes);
      if (at >= plan.expiresAt) continue;
      out.push(this.entryAt(e, plan, at));
    }
    return out.sort((a, b) => (a.hex < b.hex ? -1 : a.hex > b.hex ? 1 : 0));
  }

  private entryAt(e: Entry, plan: Plan, at: number): EstimatedAircraft {
    const p = positionAt(plan, at);
    const r = e.rec;
    // four decimals is about 10 m: far finer than any estimate, and it keeps the body small
    const out: EstimatedAircraft = {
      hex: r.hex,
      ...(r.flight !== undefined && { flight: r.flight }),
      ...(r.t !== undefined && { t: r.t }),
      ...(r.r !== undefined && { r: r.r }),
      ...(r.category !== undefined && { category: r.category }),
      lat: round(p.lat, 4),
      lon: round(p.lon, 4),
      track: round(p.track, 1) % 360,
      alt_baro: Math.round(e.start.alt),
      gs: round(e.start.gs, 1),
      estimated: true,
      last_seen: { at: round(e.start.t, 1), lat: e.start.lat, lon: e.start.lon },
    };
    // a destination that does not lie ahead is named, without an eta: the estimate holds its track
    if (e.destCode !== undefined && (plan.eta !== null || plan.behind)) out.destination = e.destCode;
    if (e.destCode !== undefined && plan.eta !== null) out.eta = Math.round(plan.eta);
    return out;
  }
}
