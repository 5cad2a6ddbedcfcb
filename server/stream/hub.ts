// the push stream's state between snapshots: which cells someone subscribed to, the snapshot the
// clients hold, and whether the live routes are stale. per snapshot it makes one diff for every
// cell at once and publishes one message per subscribed cell that changed (uWS fans it out to
// the cell's subscribers); nothing here runs once per client. no uWS object crosses this file.
import type { Bbox } from '../live/spatial.ts';
import { cellsFor, topicOf } from './cells.ts';
import { IndexedSnapshot, diffSnapshots, type SnapshotView } from './diff.ts';
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

  /** A snapshot went live. `stale` is the live routes' 503 detail when it is already too old, else null. */
  accept(view: SnapshotView, stale: string | null): void {
    const started = performance.now();
    this.last = { ms: 0, messages: 0, bytes: 0 };
    const prev = this.refs.size > 0 && this.view ? this.current() : null;
    this.view = view;
    this.indexed = null;
    this.fulls.clear();
    if (stale !== null) this.enterStale(stale);
    else if (this.refs.size > 0) {
      if (!prev || this.needsFull) this.publishFull();
      else {
        const cur = this.current();
        for (const [cell, change] of diffSnapshots(prev, cur)) {
          if (this.refs.has(cell)) this.send(topicOf(cell), diffMessage(view, cell, change));
        }
      }
      this.send(CONTROL_TOPIC, endMessage(view.now));
    }
    if (stale === null) {
      this.staleDetail = null;
      this.needsFull = false;
    }
    this.last.ms = performance.now() - started;
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
