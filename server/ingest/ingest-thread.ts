// the serving thread's side of the ingest thread (ingest-worker.ts): hands it each feed file and
// gets back the snapshot ready to serve. one job at a time: the feed polls sequentially, so a
// queue of one suffices.
import type { MessagePort, Worker } from 'node:worker_threads';
import { tsWorker } from '../../lib/ts-worker.ts';
import type { FeedCounters } from '../feed/normalize.ts';
import type { IngestControl, IngestJob, IngestRefusal, IngestReply, IngestTimes } from './ingest-worker.ts';
import type { Prepared } from './arrival.ts';

/** what a job gives back: the snapshot prepared, or why there is none (reason `read_error` for a file not read); and its counts */
export interface IngestResult {
  result: { ok: true; snapshot: Prepared; dropped: FeedCounters; capped?: number } | IngestRefusal;
  counters: FeedCounters;
}

export class IngestThread {
  private worker: Worker | null = null;
  private next = 0;
  private readonly pending = new Map<number, { resolve: (d: IngestReply) => void; reject: (e: Error) => void }>();
  /** make the brotli of the whole body with each snapshot (LiveState turns it on while clients ask for it) */
  brotli: () => boolean = () => false;
  /** copies of each snapshot's parts made for the other serving threads (server/serve/) */
  copies = 0;
  /** makes a port to each other serving thread, for the copies (asked again when the worker restarts) */
  private sinks: (() => MessagePort[]) | null = null;
  /** the newest snapshot's time on the ingest thread (for /metrics); null before the first */
  last: IngestTimes | null = null;

  /**
   * Parse, cap, prepare and compress `bytes` on the ingest thread (the bytes are handed over: the
   * caller must not use them afterwards). The snapshot comes back as its parts only, no records.
   */
  parse(bytes: Buffer, maxAircraft = Number.MAX_SAFE_INTEGER): Promise<IngestResult> {
    // transfer when the Buffer owns its whole ArrayBuffer, else copy once
    const ab = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? (bytes.buffer as ArrayBuffer) : new Uint8Array(bytes).buffer;
    return this.run({ bytes: ab }, maxAircraft, [ab]);
  }

  /**
   * The same for a file the ingest thread reads itself: its bytes (6.5 MB a second for a 12k
   * feed) are never allocated on the serving thread, where each would count toward the external
   * memory that sets off a full collection. A file that cannot be read, or has grown past
   * `maxBytes` since it was looked at, fails with reason `read_error`.
   */
  read(path: string, maxBytes: number, maxAircraft = Number.MAX_SAFE_INTEGER): Promise<IngestResult> {
    return this.run({ path, maxBytes }, maxAircraft, []);
  }

  private run(input: IngestJob['input'], maxAircraft: number, transfer: ArrayBuffer[]): Promise<IngestResult> {
    const w = this.start();
    const id = ++this.next;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve: (d) => resolve({ result: resultOf(d), counters: d.counters }), reject });
      w.postMessage({ id, input, maxAircraft, brotli: this.brotli(), copies: this.copies } satisfies IngestJob, transfer);
    });
  }

  /**
   * Send the copies of each snapshot straight to the other serving threads: `sinks` makes one
   * port to each, in the order of the copies. Called again whenever the ingest worker restarts.
   */
  connect(sinks: () => MessagePort[]): void {
    this.sinks = sinks;
    if (this.worker) this.sendPorts(this.worker);
  }

  /** The snapshot of job `id` went live (`receivedS`, this thread's clock): its copies go to the other serving threads. */
  publish(id: number, receivedS: number): void {
    this.worker?.postMessage({ t: 'publish', id, receivedS } satisfies IngestControl);
  }

  private sendPorts(w: Worker): void {
    const ports = this.sinks!();
    w.postMessage({ t: 'ports', ports } satisfies IngestControl, ports);
  }

  /** ends the worker; jobs in flight are rejected */
  stop(): void {
    void this.worker?.terminate();
    this.worker = null;
    this.fail(new Error('the ingest thread was stopped'));
  }

  private start(): Worker {
    if (this.worker) return this.worker;
    const w = tsWorker(new URL('./ingest-worker.ts', import.meta.url));
    w.unref();
    w.on('message', (d: IngestReply) => {
      const p = this.pending.get(d.id);
      this.pending.delete(d.id);
      if (d.ok) this.last = d.ms;
      p?.resolve(d);
    });
    // a crashed worker fails what it held; the next job starts a new one. a worker already
    // replaced (stopped) holds nothing: its late events must not fail its successor's work
    const gone = (e: Error) => {
      if (this.worker !== w) return;
      this.worker = null;
      this.fail(e);
    };
    w.on('error', gone);
    w.on('exit', () => gone(new Error('the ingest thread exited')));
    this.worker = w;
    if (this.sinks) this.sendPorts(w);
    return w;
  }

  private fail(e: Error): void {
    for (const p of this.pending.values()) p.reject(e);
    this.pending.clear();
  }
}

function resultOf(d: IngestReply): IngestResult['result'] {
  if (!d.ok) return { ok: false, reason: d.reason, detail: d.detail };
  const snapshot: Prepared = { now: d.now, ...(d.messages !== undefined && { messages: d.messages }), parts: d.parts, ingestId: d.id };
  return { ok: true, snapshot, dropped: d.dropped, ...(d.capped !== undefined && { capped: d.capped }) };
}
