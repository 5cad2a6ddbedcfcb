// the feed's followers (the trace store, the estimator) take each snapshot a slice of records at
// a time, yielding to the event loop between slices, so a 12k-aircraft snapshot never holds up a
// request for more than one slice. a slice is bounded in time, not in records: it reads the clock
// every `chunk` records and yields once `budgetMs` has passed (1,000 records a slice, the rule
// before, took 9-25 ms of the serving thread under load: bench/stall.ts). the first slice waits for
// the next turn of the loop too, so a snapshot's arrival is only its hand-over. a snapshot the
// ingest thread prepared has no record objects: its records are read through one view over its
// columns (parts/columns.ts), no JSON, no garbage.
import type { AircraftRecord, FeedSnapshot } from '../feed/record.ts';
import type { SnapshotParts } from '../parts/prepare.ts';
import { RecordView } from '../parts/columns.ts';
import { SearchIndex } from '../parts/search-index.ts';
import type { Log } from '../../lib/log.ts';
import { Longest } from '../loop-stall.ts';

/** Something that follows the feed snapshot by snapshot, in slices. */
export interface Follower {
  /** a snapshot begins; false skips it (older than one already taken, malformed) */
  begin(now: number): boolean;
  /** the snapshot's next record, in feed order; it may be a view valid only during the call: copy what is kept */
  takeOne(record: AircraftRecord, now: number): void;
  /** the snapshot's last record was taken */
  end(now: number): void;
}

export interface FollowOptions {
  /** records taken between two reads of the clock (default 128) */
  chunk?: number;
  /** a slice yields once this much time has passed (default 2 ms; 0: one chunk per slice) */
  budgetMs?: number;
  /** how the next slice is scheduled (tests run them at once) */
  defer?: (next: () => void) => void;
  /** a follower that throws is logged, never allowed to stop the others */
  log: Log;
}

export class Followers {
  private readonly queue: (FeedSnapshot | SnapshotParts)[] = [];
  private busy = false;
  private readonly chunk: number;
  private readonly budgetMs: number;
  private readonly defer: (next: () => void) => void;
  /** the longest slice (a step of every follower, or their end) since /metrics last read it */
  readonly slices = new Longest();

  constructor(
    private readonly followers: Follower[],
    private readonly opts: FollowOptions,
  ) {
    this.chunk = opts.chunk ?? 128;
    this.budgetMs = opts.budgetMs ?? 2;
    this.defer = opts.defer ?? ((next) => setImmediate(next));
  }

  /** Queue a snapshot, as records or as prepared parts; they are taken in arrival order, one at a time. */
  push(snap: FeedSnapshot | SnapshotParts): void {
    this.queue.push(snap);
    if (this.busy) return;
    this.busy = true;
    this.defer(() => this.run());
  }

  /** snapshots queued or being taken */
  get pending(): number {
    return this.queue.length;
  }

  private run(): void {
    const snap = this.queue[0];
    if (!snap) {
      this.busy = false;
      return;
    }
    this.busy = true;
    const now = snap.now;
    const list = 'aircraft' in snap ? snap.aircraft : null;
    const view = 'aircraft' in snap ? null : viewOf(snap);
    const total = 'aircraft' in snap ? snap.aircraft.length : snap.total;
    const live = this.followers.filter((f) => this.guard(() => f.begin(now), false));
    let at = 0;
    const step = () => {
      const t0 = performance.now();
      do {
        const from = at;
        const to = Math.min(total, at + this.chunk);
        for (const f of live) {
          this.guard(() => {
            for (let i = from; i < to; i++) f.takeOne(view ? view.at(i) : list![i]!, now);
          }, undefined);
        }
        at = to;
      } while (at < total && performance.now() - t0 < this.budgetMs);
      if (at < total) {
        this.slices.note(performance.now() - t0);
        return this.defer(step);
      }
      for (const f of live) this.guard(() => f.end(now), undefined);
      this.slices.note(performance.now() - t0);
      this.queue.shift();
      this.defer(() => this.run());
    };
    step();
  }

  private guard<T>(fn: () => T, fallback: T): T {
    try {
      return fn();
    } catch (e) {
      this.opts.log(`feed: a follower threw: ${(e as Error)?.stack ?? String(e)}`, 'error');
      return fallback;
    }
  }
}

/** one view over prepared parts' columns, moved from record to record */
function viewOf(p: SnapshotParts): RecordView {
  const search = new SearchIndex(p.search);
  return new RecordView(p.columns, p.posLat, p.posLon, (i) => search.hexOf(i));
}
