// the main thread's side of the leg workers (leg-worker.ts): a day's airframes go out in batches,
// to the worker with the fewest in flight, never more than QUEUED_PER_WORKER each, so a day of any
// size holds only the batches in flight; the cuts come back in any order and are handed on in the
// listing's order, as the in-thread path makes them (build.ts keeps the same rows, carries and
// skips, in the same order). a worker that fails or stops fails the build, naming its files.
import { availableParallelism } from 'node:os';
import { serialize } from 'node:v8';
import type { Worker } from 'node:worker_threads';
import { tsWorker } from '../../lib/ts-worker.ts';
import type { AirframeCut, AirframeFiles } from './airframe-cut.ts';
import type { Carry } from './legs.ts';
import type { LegBatch, LegReply, LegWorkerData } from './leg-worker.ts';

/**
 * one worker per core, at most 16: the main thread only lists, hands out and gathers (about 1 %
 * of a worker's time per file, bench/log-day.ts), and each worker holds its own airfields (about
 * 40 MB) and a batch of traces, so 16 stay well inside the 2 GB the log step may use
 */
export const MAX_LOG_WORKERS = 16;
export const defaultLogWorkers = () => Math.min(MAX_LOG_WORKERS, availableParallelism());

/** files per batch: one message each way per batch (a file is 1-4 ms of a worker's time) */
const BATCH_FILES = 16;
/** batches in flight per worker: enough that none waits for the main thread, few enough to bound memory */
const QUEUED_PER_WORKER = 4;

interface Slot {
  worker: Worker;
  /** batch ids in flight on this worker */
  held: Set<number>;
}

interface Sent {
  seq: number;
  slot: Slot;
  paths: string[];
}

/** Hands on the items of numbered batches in batch order, whatever order the batches arrive in. */
export class InOrder<T> {
  private readonly held = new Map<number, readonly T[]>();
  /** the number of the batch handed on next: every batch before it has been */
  next = 0;

  constructor(private readonly emit: (item: T) => void) {}

  put(seq: number, items: readonly T[]): void {
    this.held.set(seq, items);
    for (let b = this.held.get(this.next); b; b = this.held.get(this.next)) {
      this.held.delete(this.next++);
      for (const x of b) this.emit(x);
    }
  }
}

export class LegPool {
  private readonly slots: Slot[];
  private readonly sent = new Map<number, Sent>();
  private nextId = 0;
  private error: Error | null = null;
  private closed = false;
  private wake: (() => void) | null = null;
  private onReply: ((seq: number, cuts: AirframeCut[]) => void) | null = null;

  constructor(workers: number, data: LegWorkerData) {
    if (!Number.isInteger(workers) || workers < 1) throw new Error(`leg workers must be 1 or more, not ${workers}`);
    const entry = new URL('./leg-worker.ts', import.meta.url);
    // the airfield tables (~20 MB as objects) are serialised once and shared, not cloned for each worker
    const bytes = serialize(data);
    const shared = new SharedArrayBuffer(bytes.length);
    new Uint8Array(shared).set(bytes);
    this.slots = Array.from({ length: workers }, () => {
      const slot: Slot = { worker: tsWorker(entry, { workerData: shared }), held: new Set() };
      slot.worker.on('message', (r: LegReply) => this.reply(r));
      slot.worker.on('error', (e) => this.crash(slot, e));
      slot.worker.on('exit', (code) => this.crash(slot, new Error(`exited with code ${code}`)));
      return slot;
    });
  }

  /**
   * Cuts the day's airframes (listing order) on the workers. `carryOf` gives each its leg carried
   * into the day; `fold` gets each cut in listing order. Throws the first
   * failure of a worker, naming the files it held.
   */
  async cut(airframes: Iterable<AirframeFiles>, carryOf: (hex: string) => Carry | null, dayEnd: number, fold: (cut: AirframeCut) => void): Promise<void> {
    const inOrder = new InOrder<AirframeCut>(fold);
    let seq = 0;
    this.onReply = (s, cuts) => inOrder.put(s, cuts);
    let batch: LegBatch = { id: 0, dayEnd, airframes: [], carries: [] };
    let files = 0;
    const send = async () => {
      await this.until(() => this.sent.size < this.slots.length * QUEUED_PER_WORKER);
      const slot = this.slots.reduce((a, s) => (s.held.size < a.held.size ? s : a));
      const id = ++this.nextId;
      batch.id = id;
      this.sent.set(id, { seq: seq++, slot, paths: batch.airframes.flatMap((a) => a.files.map((f) => f.path)) });
      slot.held.add(id);
      slot.worker.postMessage(batch);
      batch = { id: 0, dayEnd, airframes: [], carries: [] };
      files = 0;
    };
    try {
      for (const a of airframes) {
        batch.airframes.push(a);
        batch.carries.push(carryOf(a.hex));
        files += a.files.length;
        if (files >= BATCH_FILES) await send();
      }
      if (batch.airframes.length) await send();
      await this.until(() => inOrder.next === seq);
    } finally {
      this.onReply = null;
    }
  }

  /** Stops the workers. */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.slots.map((s) => s.worker.terminate()));
  }

  private reply(r: LegReply): void {
    const s = this.sent.get(r.id);
    if (!s) return;
    this.sent.delete(r.id);
    s.slot.held.delete(r.id);
    if (!r.ok) this.error ??= new Error(`log: cutting ${r.path} failed: ${r.message}`);
    else {
      // what the fold throws (a failed progress line, a bug) fails the cut, not the process
      try {
        this.onReply?.(s.seq, r.cuts);
      } catch (e) {
        this.error ??= e as Error;
      }
    }
    this.poke();
  }

  private crash(slot: Slot, e: Error): void {
    if (this.closed) return;
    const held = [...slot.held].flatMap((id) => this.sent.get(id)?.paths ?? []);
    this.error ??= new Error(
      `log: a leg worker stopped (${e.message}) while cutting ${held.length ? held.slice(0, 3).join(', ') + (held.length > 3 ? `, and ${held.length - 3} more` : '') : 'nothing'}`,
    );
    this.poke();
  }

  private poke(): void {
    const w = this.wake;
    this.wake = null;
    w?.();
  }

  private async until(ready: () => boolean): Promise<void> {
    for (;;) {
      if (this.error) throw this.error;
      if (this.closed) throw new Error('log: the leg workers are stopped');
      if (ready()) return;
      await new Promise<void>((resolve) => (this.wake = resolve));
    }
  }
}
