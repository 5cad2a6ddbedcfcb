// the push stream's state between snapshots: which cells someone subscribed to, the snapshot the
// clients hold, and whether the live routes are stale. per snapshot it makes one diff for every
// cell at once and publishes one message per subscribed cell that changed (uWS fans it out to
// the cell's subscribers); nothing here runs once per client. no uWS object crosses this file.
import type { Bbox } from '../parts/spatial.ts';
import { cellsFor, topicOf } from './cells.ts';
import { IndexedSnapshot, diffing, runAll, type SnapshotDiff, type SnapshotView } from './diff.ts';
import { diffMessage, endMessage, fullMessage, staleMessage, subscribedMessage } from './protocol.ts';

/** every client's topic for the end-of-snapshot and stale messages */
export const CONTROL_TOPIC = 'control';

export interface Publisher {
  publish(topic: string, message: Buffer): void;
}

export interface Subscription {
  bbox: Bbox | null;
  /** cell ids, ascending */
  cells: number[];
}

export interface SubscribeResult {
  sub: Subscription;
  /** topics to subscribe the socket to, and to leave */
  add: string[];
  remove: string[];
  /** to send to this socket alone, in order: `subscribed`, then the added cells' full state (empty ones left out) and `end`, or `stale` */
  messages: Buffer[];
}

/** what the last snapshot cost to publish (the bench and the logs read it) */
export interface PublishStats {
  ms: number;
  messages: number;
  bytes: number;
}

export class StreamHub {
  private view: SnapshotView | null = null;
  private indexed: IndexedSnapshot | null = null;
  /** subscribers per cell id */
  private readonly refs = new Map<number, number>();
  /** the 503 detail while the live routes are stale, else null */
  private staleDetail: string | null = null;
  /** the clients' state is behind (after an outage): the next fresh snapshot goes out whole */
  private needsFull = false;
  /** full-state messages of the current snapshot, made once per cell on first demand */
  private readonly fulls = new Map<number, Buffer>();
  last: PublishStats = { ms: 0, messages: 0, bytes: 0 };

  constructor(private readonly out: Publisher) {}

  /** Cells with at least one subscriber. */
  get subscribedCells(): number {
    return this.refs.size;
  }

  /** A snapshot went live. `stale` is the live routes' 503 detail when it is already too old, else null. Published here and now. */
  accept(view: SnapshotView, stale: string | null): void {
    const started = performance.now();
    runAll(this.accepting(view, stale));
    this.last.ms = performance.now() - started;
  }

  /**
   * The same, in slices: indexing the snapshot and the diff run a slice of records at a time, the
   * next slice scheduled by `defer` (setImmediate), so a 12k sky never holds the serving thread
   * for long. clients keep the previous snapshot until the diff is published whole; a snapshot
   * arriving meanwhile waits, and only the newest waiting one is taken. `done` runs after each publish.
   */
  acceptSliced(view: SnapshotView, stale: string | null, defer: (next: () => void) => void = setImmediate, done: () => void = () => {}): void {
    this.waiting = { view, stale };
    if (this.busy) return;
    const next = () => {
      const w = this.waiting;
      this.waiting = null;
      if (!w) {
        this.busy = false;
        return;
      }
      this.busy = true;
      const steps = this.accepting(w.view, w.stale);
      let spent = 0;
      const step = () => {
        const t = performance.now();
        let r: IteratorResult<void, void>;
        try {
          r = steps.next();
        } catch (e) {
          // a failed publish may have reached some cells: the next snapshot goes out whole
          this.busy = false;
          this.needsFull = true;
          throw e;
        }
        spent += performance.now() - t;
        if (!r.done) return defer(step);
        this.last.ms = spent;
        done();
        defer(next);
      };
      step();
    };
    next();
  }

  private waiting: { view: SnapshotView; stale: string | null } | null = null;
  private busy = false;

  private *accepting(view: SnapshotView, stale: string | null): Generator<void, void> {
    let diff: SnapshotDiff | null = null;
    let cur: IndexedSnapshot | null = null;
    if (stale === null && this.refs.size > 0 && this.view && !this.needsFull) {
      // both indexes and the diff before anything is published: the clients (and a subscriber
      // arriving meanwhile) hold the previous snapshot until then
      const prev = this.indexed ?? (yield* IndexedSnapshot.indexing(this.view));
      this.indexed = prev;
      cur = yield* IndexedSnapshot.indexing(view);
      diff = yield* diffing(prev, cur);
    }
    this.last = { ms: 0, messages: 0, bytes: 0 };
    this.view = view;
    this.indexed = cur;
    this.fulls.clear();
    if (stale !== null) this.enterStale(stale);
    else if (this.refs.size > 0) {
      if (!diff) this.publishFull();
      else for (const [cell, change] of diff) if (this.refs.has(cell)) this.send(topicOf(cell), diffMessage(view, cell, change));
      this.send(CONTROL_TOPIC, endMessage(view.now));
    }
    if (stale === null) {
      this.staleDetail = null;
      this.needsFull = false;
    }
  }

  /** Called once a second with the live routes' 503 detail (null while fresh): tells the clients the moment it turns. */
  tick(stale: string | null): void {
    if (stale !== null) return this.enterStale(stale);
    if (this.staleDetail === null || !this.view) return;
    // fresh again without a new snapshot (the clock moved back): the held snapshot, whole
    this.staleDetail = null;
    this.publishFull();
    this.send(CONTROL_TOPIC, endMessage(this.view.now));
    this.needsFull = false;
  }

  /** Subscribe a client to a box (null: the whole sky), or move it from `from`; `stale` as for accept. */
  subscribe(from: Subscription | null, bbox: Bbox | null, stale: string | null): SubscribeResult {
    const cells = cellsFor(bbox);
    const before = new Set(from?.cells ?? []);
    const now = new Set(cells);
    const added = cells.filter((c) => !before.has(c));
    const removed = [...before].filter((c) => !now.has(c));
    for (const c of added) this.refs.set(c, (this.refs.get(c) ?? 0) + 1);
    this.release(removed);
    const messages = [subscribedMessage(bbox, cells)];
    if (stale !== null || !this.view) messages.push(staleMessage(stale ?? 'no live snapshot yet'));
    else {
      // a new cell's full state replaces nothing the client holds: an empty one need not be sent
      for (const c of added) if (this.current().membersOf(c).length) messages.push(this.full(c));
      messages.push(endMessage(this.view.now));
    }
    return { sub: { bbox, cells }, add: added.map(topicOf), remove: removed.map(topicOf), messages };
  }

  /** A client left. */
  unsubscribe(sub: Subscription): void {
    this.release(sub.cells);
  }

  private release(cells: readonly number[]): void {
    for (const c of cells) {
      const n = (this.refs.get(c) ?? 0) - 1;
      if (n > 0) this.refs.set(c, n);
      else this.refs.delete(c);
    }
  }

  private enterStale(detail: string): void {
    if (this.staleDetail === null) this.send(CONTROL_TOPIC, staleMessage(detail));
    this.staleDetail = detail;
    this.needsFull = true;
  }

  private publishFull(): void {
    for (const c of this.refs.keys()) this.send(topicOf(c), this.full(c));
  }

  private full(cell: number): Buffer {
    let m = this.fulls.get(cell);
    if (!m) this.fulls.set(cell, (m = fullMessage(this.view!, cell, this.current().membersOf(cell))));
    return m;
  }

  /** the current snapshot with its cells, indexed on first need (nobody subscribed: never) */
  private current(): IndexedSnapshot {
    this.indexed ??= new IndexedSnapshot(this.view!);
    return this.indexed;
  }

  private send(topic: string, message: Buffer): void {
    this.out.publish(topic, message);
    this.last.messages++;
    this.last.bytes += message.length;
  }
}
