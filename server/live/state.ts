// the current live snapshot, prepared once on arrival and swapped whole (readers never see a
// half-built one). a snapshot older than maxAgeS is never served as live (spec 1.5): 503.
import { staleSnapshot } from '../../lib/errors.ts';
import type { FeedSnapshot } from '../feed/record.ts';
import { PreparedSnapshot } from './snapshot.ts';

export interface LiveStateOptions {
  /** seconds after which the snapshot is stale (spec: 60) */
  maxAgeS?: number;
  /** Retry-After on a 503: readsb writes once a second, so a recovery shows within seconds */
  retryAfterS?: number;
  /** gzip the whole body as soon as a snapshot arrives (default true; benchmarks turn it off) */
  eagerGzip?: boolean;
}


export class LiveState {
  readonly maxAgeS: number;
  readonly retryAfterS: number;
  private readonly eagerGzip: boolean;
  private snap: PreparedSnapshot | null = null;

  constructor(opts: LiveStateOptions = {}) {
    this.maxAgeS = opts.maxAgeS ?? 60;
    this.retryAfterS = opts.retryAfterS ?? 5;
    this.eagerGzip = opts.eagerGzip ?? true;
  }

  /** Prepare a feed snapshot and make it current; subscribe this to the feed source. */
  accept(snap: FeedSnapshot): PreparedSnapshot {
    const prepared = new PreparedSnapshot(snap, { eagerGzip: this.eagerGzip });
    this.snap = prepared;
    return prepared;
  }

  /** The snapshot to serve at `nowMs`; throws 503 stale_snapshot when there is none or it is too old. */
  current(nowMs: number): PreparedSnapshot {
    const s = this.snap;
    if (!s) throw staleSnapshot('no live snapshot has arrived from the feed yet; retry shortly', this.retryAfterS);
    const ageS = nowMs / 1000 - s.now;
    if (ageS > this.maxAgeS) {
      throw staleSnapshot(
        `the live snapshot is ${Math.floor(ageS)} s old (limit ${this.maxAgeS} s): the feed has stopped updating; retry later`,
        this.retryAfterS,
      );
    }
    return s;
  }
}
