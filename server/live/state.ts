// the current live snapshot, prepared once on arrival and swapped whole (readers never see a
// half-built one). a snapshot older than maxAgeS is never served as live (spec 1 rule 5): 503.
import { staleSnapshot } from '../../lib/errors.ts';
import type { FeedSnapshot } from '../feed/record.ts';
import type { SnapshotParts } from '../parts/prepare.ts';
import { PreparedSnapshot } from './snapshot.ts';
import type { Log } from '../../lib/log.ts';

export interface LiveStateOptions {
  /** seconds after which the snapshot is stale (spec: 60) */
  maxAgeS?: number;
  /** Retry-After on a 503: readsb writes once a second, so a recovery shows within seconds */
  retryAfterS?: number;
  /** gzip the whole body as soon as a snapshot arrives (default true; benchmarks turn it off) */
  eagerGzip?: boolean;
}

/**
 * brotli of the whole body costs ~100 ms of the ingest thread per 12k snapshot: it is made only
 * while clients ask for it, for this long after the last one did (the first asker gets gzip)
 */
const BROTLI_DEMAND_S = 120;

export class LiveState {
  readonly maxAgeS: number;
  readonly retryAfterS: number;
  private readonly eagerGzip: boolean;
  private snap: PreparedSnapshot | null = null;
  /** unix s the current snapshot's age counts from: its `now`, but never later than its arrival */
  private trustedS = 0;
  private staleLogged = false;
  private arrivals = 0;
  private liveSeq = 0;
  private readonly listeners: ((s: PreparedSnapshot) => void)[] = [];
  private brotliWantedMs = -Infinity;

  constructor(opts: LiveStateOptions = {}) {
    this.maxAgeS = opts.maxAgeS ?? 60;
    this.retryAfterS = opts.retryAfterS ?? 5;
    this.eagerGzip = opts.eagerGzip ?? true;
  }

  /**
   * Prepare a feed snapshot (or wrap its parts) and make it current. `receivedS` is
   * this server's clock on arrival: a decoder clock running ahead cannot make a snapshot look
   * younger than the time it has really been held (the feed source refuses far-future ones).
   */
  accept(snap: FeedSnapshot | SnapshotParts, receivedS: number): PreparedSnapshot {
    const prepared = this.prepare(snap);
    this.snap = prepared;
    this.trustedS = Math.min(snap.now, receivedS);
    this.announce(prepared);
    return prepared;
  }

  /** wrap what the ingest thread prepared, or prepare the records here */
  private prepare(snap: FeedSnapshot | SnapshotParts): PreparedSnapshot {
    return 'aircraft' in snap ? PreparedSnapshot.of(snap, { eagerGzip: this.eagerGzip }) : new PreparedSnapshot(snap);
  }

  /** Hear every snapshot the moment it goes live (the push stream diffs it once for all its clients). */
  onLive(listener: (s: PreparedSnapshot) => void): void {
    this.listeners.push(listener);
  }

  private announce(s: PreparedSnapshot): void {
    for (const l of this.listeners) l(s);
  }

  /**
   * Make a snapshot current once its whole-body gzip is made (off the event loop), so no request
   * ever waits for it or compresses it; a newer snapshot that went live meanwhile wins. the parts
   * the ingest thread prepared (gzip made there) go live at once: wrapping them is all the work
   * left on this thread.
   */
  async acceptWhenReady(snap: FeedSnapshot | SnapshotParts, receivedS: number): Promise<void> {
    // by arrival, not by the feed's clock: a feed whose `now` jumps back is still the latest word
    const seq = ++this.arrivals;
    const prepared = this.prepare(snap);
    if (!prepared.gzipReady()) await prepared.gzipped();
    // prepared here (no ingest thread): the brotli too while clients ask for it, off the event loop
    if (!prepared.brotliReady() && this.wantsBrotli(receivedS * 1000)) await prepared.brotli();
    if (seq < this.liveSeq) return;
    this.liveSeq = seq;
    this.snap = prepared;
    this.trustedS = Math.min(snap.now, receivedS);
    this.announce(prepared);
  }

  /** A client asked for the whole body in brotli: snapshots carry it for the next BROTLI_DEMAND_S. */
  noteBrotliWanted(nowMs: number): void {
    this.brotliWantedMs = nowMs;
  }

  /** Should the next snapshot carry the brotli of its whole body? (someone asked lately) */
  wantsBrotli(nowMs: number): boolean {
    return nowMs - this.brotliWantedMs <= BROTLI_DEMAND_S * 1000;
  }

  /** the current snapshot whatever its age, and the unix s its age counts from; null before the first (another serving thread starts from it) */
  latest(): { snap: PreparedSnapshot; trustedS: number } | null {
    return this.snap ? { snap: this.snap, trustedS: this.trustedS } : null;
  }

  /** aircraft in the current snapshot, whatever its age; null before the first (for /metrics) */
  latestTotal(): number | null {
    return this.snap?.total ?? null;
  }

  /** seconds since the current snapshot, as trusted; null before the first */
  ageS(nowMs: number): number | null {
    return this.snap ? nowMs / 1000 - this.trustedS : null;
  }

  /** Logs the moment the live routes turn stale and the moment they recover; call once a second. */
  watch(nowMs: number, log: Log): void {
    const age = this.ageS(nowMs);
    if (age === null) return;
    const stale = age > this.maxAgeS;
    if (stale && !this.staleLogged)
      log(
        `live: the snapshot is ${Math.floor(age)} s old (limit ${this.maxAgeS} s): the feed has stopped updating; live routes answer 503 stale_snapshot`,
        'warn',
      );
    if (!stale && this.staleLogged) log(`live: fresh snapshot again (${Math.floor(age)} s old); live routes answer 200`);
    this.staleLogged = stale;
  }

  /** The snapshot to serve at `nowMs`; throws 503 stale_snapshot when there is none or it is too old. */
  current(nowMs: number): PreparedSnapshot {
    const s = this.snap;
    if (!s) throw staleSnapshot('no live snapshot has arrived from the feed yet; retry shortly', this.retryAfterS);
    const ageS = nowMs / 1000 - this.trustedS;
    if (ageS > this.maxAgeS) {
      throw staleSnapshot(
        `the live snapshot is ${Math.floor(ageS)} s old (limit ${this.maxAgeS} s): the feed has stopped updating; retry later`,
        this.retryAfterS,
      );
    }
    return s;
  }
}
