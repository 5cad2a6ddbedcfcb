// the station roster: pure state and its transitions (README.md states the rules).
// a station is online while the latest feeder list is fresh and lists it as connected.
import { timingSafeEqual } from 'node:crypto';
import type { Equal } from './ids.ts';
import type { Feeder, FeederList } from './parse.ts';

/** What survives a restart (store.ts writes it): no UUID, no IP, no exact position. */
export interface SavedStation {
  /** hex of the keyed UUID hash */
  key: string;
  id: string;
  coarse_lat: number;
  coarse_lon: number;
  position_source: PositionSource;
  /** unix seconds */
  first_seen: number;
  last_seen: number;
}

type PositionSource = Feeder['positionSource'];

/** spec 2.7, and where the position comes from */
export interface RosterEntry {
  id: string;
  coarse_lat: number;
  coarse_lon: number;
  /** reported: the feeder's own; estimated: readsb's, the centre of the positions the receiver decoded */
  position_source: PositionSource;
  first_seen: string;
  last_seen: string;
  online: boolean;
}

/** The private status of one station (schemas/station-status.schema.json). */
export interface StationStatus extends RosterEntry {
  presence_available: boolean;
  lat: number | null;
  lon: number | null;
  software: string | null;
  connected_since: string | null;
  reported_at: string | null;
  messages: number | null;
  positions: number | null;
  aircraft: number | null;
  message_rate: number | null;
  position_rate: number | null;
  rate_window_s: number | null;
}

export interface RosterOptions {
  /** a feeder list older than this (by its generated_at) no longer says who is online; default 120 */
  staleAfterS?: number;
  /** stations not seen for this many days leave the roster; default 30 */
  retentionDays?: number;
}

export type ApplyResult =
  | {
      applied: true /** public ids of stations seen for the first time */;
      added: string[];
      dropped: number /** a change worth saving at once */;
      urgent: boolean;
    }
  | { applied: false; reason: 'same_list' | 'older_than_current' };

interface Station {
  key: Buffer;
  id: string;
  coarseLat: number;
  coarseLon: number;
  positionSource: PositionSource;
  firstSeen: number;
  lastSeen: number;
  /** connected in the latest accepted list */
  listed: boolean;
  /** the latest report, memory only */
  report: (Feeder & { at: number }) | null;
  rates: { messages: number | null; positions: number | null; windowS: number } | null;
}

/** 0.1° ≈ 11 km of latitude (spec 8); -0 becomes 0 */
export const coarse = (deg: number) => Math.round(deg * 10) / 10 + 0;

/** ISO 8601 UTC with its offset, to the second: 2026-11-22T12:00:00Z */
export const isoSeconds = (unixS: number) => new Date(Math.floor(unixS) * 1000).toISOString().slice(0, 19) + 'Z';

export class Roster {
  readonly staleAfterS: number;
  readonly retentionS: number;
  /** bumps on every change a reader can see, so replies can be prepared once per version */
  version = 0;
  private stations: Station[] = [];
  /** the stations by the hex of their keyed hash: the private status's lookup (O(1), see status) */
  private readonly byHex = new Map<string, Station>();
  /** stations listed as connected, counted once per version (/v1/now asks for it every request) */
  private listedCount = { version: -1, n: 0 };
  /** generated_at of the latest accepted list, and the time it counts from (never later than its arrival) */
  private listGen: number | null = null;
  private listAtS: number | null = null;

  constructor(opts: RosterOptions = {}) {
    this.staleAfterS = opts.staleAfterS ?? 120;
    this.retentionS = (opts.retentionDays ?? 30) * 86_400;
  }

  /** Load what a previous run saved (all offline until a list arrives). Entries past the retention are left out. */
  restore(saved: readonly SavedStation[], nowMs: number): void {
    for (const s of saved) {
      if (this.byHex.has(s.key)) continue;
      this.add({
        key: Buffer.from(s.key, 'hex'),
        id: s.id,
        coarseLat: s.coarse_lat,
        coarseLon: s.coarse_lon,
        positionSource: s.position_source,
        firstSeen: s.first_seen,
        lastSeen: s.last_seen,
        listed: false,
        report: null,
        rates: null,
      });
    }
    this.prune(nowMs);
    this.version++;
  }

  /** Take a new feeder list. `publicId` derives the id of a station seen for the first time. */
  apply(list: FeederList, nowMs: number, publicId: (key: Buffer) => string): ApplyResult {
    if (this.listGen !== null && list.generatedAt === this.listGen) return { applied: false, reason: 'same_list' };
    if (this.listGen !== null && list.generatedAt < this.listGen) return { applied: false, reason: 'older_than_current' };
    // a list stamped in the future (aggregator clock ahead) counts from its arrival
    const at = Math.floor(Math.min(list.generatedAt, nowMs / 1000));
    this.listGen = list.generatedAt;
    this.listAtS = at;
    const added: string[] = [];
    let moved = false;
    for (const s of this.stations) s.listed = false;
    for (const f of list.feeders) {
      const hex = f.key.toString('hex');
      let s = this.byHex.get(hex);
      // a feeder listed as disconnected is not a station yet, and an existing one simply goes offline
      if (!f.connected) {
        if (s) s.report = { ...f, at };
        continue;
      }
      if (!s) {
        s = {
          key: Buffer.from(f.key),
          id: publicId(f.key),
          coarseLat: coarse(f.lat),
          coarseLon: coarse(f.lon),
          positionSource: f.positionSource,
          firstSeen: at,
          lastSeen: at,
          listed: false,
          report: null,
          rates: null,
        };
        this.add(s);
        added.push(s.id);
      }
      s.rates = rates(s.report, f, at);
      s.report = { ...f, at };
      s.listed = true;
      s.lastSeen = Math.max(s.lastSeen, at);
      const cl = coarse(f.lat);
      const cn = coarse(f.lon);
      if (cl !== s.coarseLat || cn !== s.coarseLon || f.positionSource !== s.positionSource) moved = true;
      s.coarseLat = cl;
      s.coarseLon = cn;
      s.positionSource = f.positionSource;
    }
    const dropped = this.prune(nowMs);
    this.version++;
    return { applied: true, added, dropped, urgent: added.length > 0 || dropped > 0 || moved };
  }

  /** Forget stations not seen within the retention. Returns how many left. */
  prune(nowMs: number): number {
    const cutoff = nowMs / 1000 - this.retentionS;
    const keep = this.stations.filter((s) => s.lastSeen >= cutoff);
    const dropped = this.stations.length - keep.length;
    if (dropped > 0) {
      this.stations = keep;
      this.byHex.clear();
      for (const s of keep) this.byHex.set(s.key.toString('hex'), s);
      this.version++;
    }
    return dropped;
  }

  /** Whether a fresh feeder list says who is connected right now. */
  presenceAvailable(nowMs: number): boolean {
    return this.listAtS !== null && nowMs / 1000 - this.listAtS <= this.staleAfterS;
  }

  /** /v1/now station_count: stations online now; null when presence is unavailable (never 0 for that). */
  stationCount(nowMs: number): number | null {
    if (!this.presenceAvailable(nowMs)) return null;
    // `listed` changes only in apply and restore, and each bumps the version
    if (this.listedCount.version !== this.version) {
      let n = 0;
      for (const s of this.stations) if (s.listed) n++;
      this.listedCount = { version: this.version, n };
    }
    return this.listedCount.n;
  }

  /** The public roster (spec 2.7), sorted by id. */
  publicList(nowMs: number): RosterEntry[] {
    const fresh = this.presenceAvailable(nowMs);
    return this.stations.map((s) => entry(s, fresh)).sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }

  /**
   * The private status for a key (the keyed hash of a UUID): one lookup by its hex and one
   * constant-time compare, against the station found or a stand-in, so a known and an unknown UUID
   * cost the same whatever the roster's size. the lookup may take longer or shorter by whether the
   * hash is stored (or how much of its hex matches a stored one): that says only what the 200 or
   * 404 says anyway, and nothing of a stored UUID, which the secret keeps unguessable from its hash
   * (README.md, "Private status"). `eq` is injectable so tests can count.
   */
  status(key: Buffer, nowMs: number, eq: Equal = timingSafeEqual): StationStatus | null {
    const found = this.byHex.get(key.toString('hex'));
    const same = eq(found?.key ?? STAND_IN, key);
    if (!found || !same) return null;
    const s = found;
    const fresh = this.presenceAvailable(nowMs);
    const r = s.report;
    return {
      ...entry(s, fresh),
      presence_available: fresh,
      lat: r?.lat ?? null,
      lon: r?.lon ?? null,
      software: r?.software ?? null,
      connected_since: r?.connectedSince != null ? isoSeconds(r.connectedSince) : null,
      reported_at: r ? isoSeconds(r.at) : null,
      messages: r?.messages ?? null,
      positions: r?.positions ?? null,
      aircraft: r?.aircraft ?? null,
      message_rate: s.rates?.messages ?? null,
      position_rate: s.rates?.positions ?? null,
      rate_window_s: s.rates?.windowS ?? null,
    };
  }

  /** What to persist. */
  saved(): SavedStation[] {
    return this.stations.map((s) => ({
      key: s.key.toString('hex'),
      id: s.id,
      coarse_lat: s.coarseLat,
      coarse_lon: s.coarseLon,
      position_source: s.positionSource,
      first_seen: s.firstSeen,
      last_seen: s.lastSeen,
    }));
  }

  get size(): number {
    return this.stations.length;
  }

  private add(s: Station): void {
    this.stations.push(s);
    this.byHex.set(s.key.toString('hex'), s);
  }
}

/** what an unknown key is compared with: a key's length (HMAC-SHA256), matching no key in practice */
const STAND_IN = Buffer.alloc(32);

function entry(s: Station, fresh: boolean): RosterEntry {
  return {
    id: s.id,
    coarse_lat: s.coarseLat,
    coarse_lon: s.coarseLon,
    position_source: s.positionSource,
    first_seen: isoSeconds(s.firstSeen),
    last_seen: isoSeconds(s.lastSeen),
    online: fresh && s.listed,
  };
}

// counters are totals since the feeder connected: a rate needs two reports of the same connection,
// the later one newer, and counters that did not go backwards (a reset means a reconnect)
function rates(prev: (Feeder & { at: number }) | null, f: Feeder, at: number): Station['rates'] {
  if (!prev || !prev.connected || prev.connectedSince !== f.connectedSince) return null;
  const dt = at - prev.at;
  if (dt <= 0) return null;
  const per = (a: number | null, b: number | null) => (a !== null && b !== null && b >= a ? Math.round(((b - a) / dt) * 100) / 100 : null);
  const messages = per(prev.messages, f.messages);
  const positions = per(prev.positions, f.positions);
  if (messages === null && positions === null) return null;
  return { messages, positions, windowS: dt };
}
