// the main thread's side of the write workers (write-worker.ts): documents are queued in batches,
// each batch goes to the worker with the fewest in flight, and each document's gzip length comes
// back to its `done`. the first failure is kept and thrown by the next add, drain or flush, with
// the key named, so a failed write fails the build.
import { availableParallelism } from 'node:os';
import type { Worker } from 'node:worker_threads';
import { tsWorker } from '../../lib/ts-worker.ts';
import { createLock } from './create-lock.ts';
import type { WriteBatch, WriteReply } from './write-worker.ts';
import type { WriteTarget } from './gzip-file.ts';

/**
 * one write worker per core, at most two: the main thread mostly waits on DuckDB and the workers,
 * and the two workers take turns creating files (create-lock.ts). On this 2-core machine 2 workers
 * wrote 40,000 routes at 24.0k/s against 19.0k/s with 1 (bench/docs.ts), and the year's 613,824
 * airframes in 346.9 s against 469.8 s (bench/airframes-step.ts --workers 2,1)
 */
export const defaultWriteWorkers = () => Math.min(2, availableParallelism());

/** documents per batch: one message per batch, so the per-message cost is spread thin */
const BATCH_DOCS = 256;
/** text per batch (an airframe with 200 legs is about 40 KB) */
const BATCH_BYTES = 1 << 20;
/** batches queued per worker before drain() waits: bounds the memory held for the workers */
const QUEUED_PER_WORKER = 8;

/** a document's gzip length, and its sha256 and UTF-8 length when the worker was asked to hash it ('' and 0 otherwise) */
export type WriteDone = (gzipBytes: number, sha256: string, bytes: number) => void;

interface Sent {
  keys: string[];
  done: WriteDone[];
  worker: Slot;
}

interface Slot {
  worker: Worker;
  inFlight: number;
}

export class WritePool {
  private readonly slots: Slot[];
  private readonly sent = new Map<number, Sent>();
  private next = 0;
  private batch: WriteBatch & { keys: string[]; done: WriteDone[]; bytes: number; transfer: ArrayBuffer[] } = this.emptyBatch();
  private error: Error | null = null;
  private waiters: (() => void)[] = [];
  private closed = false;

  constructor(threads: number) {
    if (!Number.isInteger(threads) || threads < 1) throw new Error(`write workers must be 1 or more, not ${threads}`);
    const entry = new URL('./write-worker.ts', import.meta.url);
    const lock = createLock();
    this.slots = Array.from({ length: threads }, () => {
      const slot: Slot = { worker: tsWorker(entry, { workerData: { createLock: lock } }), inFlight: 0 };
      slot.worker.unref();
      slot.worker.on('message', (r: WriteReply) => this.reply(r));
      slot.worker.on('error', (e) => this.crash(slot, e));
      slot.worker.on('exit', (code) => this.crash(slot, new Error(`exited with code ${code}`)));
      return slot;
    });
  }

  /** documents queued or being written */
  get pending(): number {
    let n = this.batch.files.length;
    for (const s of this.sent.values()) n += s.keys.length;
    return n;
  }

  /**
   * Queue one document; `done` gets its gzip length once it is on disk (and its hash with `hash`).
   * A Uint8Array that alone fills its ArrayBuffer is moved to the worker, not copied: the caller
   * must not touch it again. Throws an earlier failure.
   */
  add(key: string, file: string, json: string | Uint8Array, to: WriteTarget, hash: boolean, done: WriteDone): void {
    if (typeof json !== 'string' && json.byteOffset === 0 && json.byteLength === json.buffer.byteLength && json.buffer instanceof ArrayBuffer)
      this.batch.transfer.push(json.buffer);
    this.push(key, file, json, to, hash, false, done);
  }

  /** Queue a hard link of `source` under `file` (gzip-file.ts relink): no document; `done` is called once it is made. Throws an earlier failure. */
  addLink(key: string, file: string, source: string, aside: string | null, done: () => void = () => {}): void {
    this.push(key, file, source, { aside }, false, true, done);
  }

  private push(
    key: string,
    file: string,
    doc: string | Uint8Array,
    { replace, aside, spare }: WriteTarget,
    hash: boolean,
    link: boolean,
    done: WriteDone,
  ): void {
    this.throwIfFailed();
    const b = this.batch;
    const i = b.files.length;
    b.keys.push(key);
    b.files.push(file);
    b.docs.push(doc);
    b.replace[i] = replace ? 1 : 0;
    b.hash[i] = hash ? 1 : 0;
    b.link[i] = link ? 1 : 0;
    b.aside.push(aside ?? '');
    b.spare.push(spare ?? '');
    b.done.push(done);
    if (!link) b.bytes += doc.length;
    if (b.files.length === BATCH_DOCS || b.bytes >= BATCH_BYTES) this.send();
  }

  /** Wait until the workers have room (call between chunks of a long step); throws an earlier failure. */
  async drain(): Promise<void> {
    await this.until(() => this.sent.size <= this.slots.length * QUEUED_PER_WORKER);
  }

  /** Send what is queued and wait until every document is on disk; throws the first failure. */
  async flush(): Promise<void> {
    if (this.batch.files.length) this.send();
    await this.until(() => this.sent.size === 0);
  }

  /** Stop the workers (after flush, or to abandon the build: writes in flight are cut short). */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.slots.map((s) => s.worker.terminate()));
  }

  private emptyBatch() {
    return {
      id: 0,
      keys: [] as string[],
      files: [] as string[],
      docs: [] as (string | Uint8Array)[],
      replace: new Uint8Array(BATCH_DOCS),
      hash: new Uint8Array(BATCH_DOCS),
      link: new Uint8Array(BATCH_DOCS),
      aside: [] as string[],
      spare: [] as string[],
      done: [] as WriteDone[],
      bytes: 0,
      transfer: [] as ArrayBuffer[],
    };
  }

  private send(): void {
    const b = this.batch;
    this.batch = this.emptyBatch();
    const slot = this.slots.reduce((a, s) => (s.inFlight < a.inFlight ? s : a));
    const id = ++this.next;
    this.sent.set(id, { keys: b.keys, done: b.done, worker: slot });
    // a worker holds the process open only while it has work: an idle pool never keeps it alive
    if (slot.inFlight++ === 0) slot.worker.ref();
    const msg: WriteBatch = {
      id,
      files: b.files,
      docs: b.docs,
      replace: b.replace.subarray(0, b.files.length),
      hash: b.hash.subarray(0, b.files.length),
      link: b.link.subarray(0, b.files.length),
      aside: b.aside,
      spare: b.spare,
    };
    slot.worker.postMessage(msg, b.transfer);
  }

  private reply(r: WriteReply): void {
    const s = this.sent.get(r.id);
    if (!s) return;
    this.sent.delete(r.id);
    if (--s.worker.inFlight === 0) s.worker.worker.unref();
    if (r.ok) for (let i = 0; i < s.done.length; i++) s.done[i]!(r.gzipBytes[i]!, r.sha256[i]!, r.bytes[i]!);
    else this.error ??= new Error(`cannot write artifact ${s.keys[r.index]}: ${r.message}`);
    this.wake();
  }

  private crash(slot: Slot, e: Error): void {
    if (this.closed) return;
    const held = [...this.sent.values()].filter((s) => s.worker === slot).flatMap((s) => s.keys);
    this.error ??= new Error(
      `a write worker stopped (${e.message}) while writing ${held.length ? held.slice(0, 3).join(', ') + (held.length > 3 ? ', ...' : '') : 'nothing'}`,
    );
    this.wake();
  }

  private wake(): void {
    const w = this.waiters;
    this.waiters = [];
    for (const f of w) f();
  }

  private throwIfFailed(): void {
    if (this.error) throw this.error;
    if (this.closed) throw new Error('the write workers are stopped (writer.close()): nothing more can be written');
  }

  private async until(ready: () => boolean): Promise<void> {
    for (;;) {
      this.throwIfFailed();
      if (ready()) return;
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
  }
}
