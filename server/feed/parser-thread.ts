// parses feed snapshots on a worker thread (parse-worker.ts), one at a time: the feed polls
// sequentially, so a queue of one suffices. the serving thread only receives the finished records.
import { Worker } from 'node:worker_threads';
import type { FeedCounters } from './normalize.ts';
import type { ParseResult } from './parse.ts';

interface Done {
  id: number;
  result: ParseResult;
  counters: FeedCounters;
}

export class ParserThread {
  private worker: Worker | null = null;
  private next = 0;
  private readonly pending = new Map<number, { resolve: (d: Done) => void; reject: (e: Error) => void }>();

  /** parse `bytes` (handed over: the caller must not use them afterwards); counters of the parse come back beside the result */
  parse(bytes: Buffer, maxAircraft = Number.MAX_SAFE_INTEGER): Promise<{ result: ParseResult; counters: FeedCounters }> {
    const w = this.start();
    const id = ++this.next;
    // transfer when the Buffer owns its whole ArrayBuffer, else copy once
    const ab = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? (bytes.buffer as ArrayBuffer) : new Uint8Array(bytes).buffer;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve: (d) => resolve({ result: revive(d.result), counters: d.counters }), reject });
      w.postMessage({ id, bytes: ab, maxAircraft }, [ab]);
    });
  }

  /** ends the worker; parses in flight are rejected */
  stop(): void {
    void this.worker?.terminate();
    this.worker = null;
    this.fail(new Error('the parser thread was stopped'));
  }

  private start(): Worker {
    if (this.worker) return this.worker;
    // the worker is TypeScript too, and Node 20 applies no --import loader to a worker's own entry:
    // a two-line entry registers tsx, then loads it
    const entry = new URL('./parse-worker.ts', import.meta.url).href;
    const w = new Worker(`import('tsx/esm/api').then((t) => { t.register(); return import(${JSON.stringify(entry)}); });`, { eval: true });
    w.unref();
    w.on('message', (d: Done) => {
      const p = this.pending.get(d.id);
      this.pending.delete(d.id);
      p?.resolve(d);
    });
    // a crashed worker fails what it held; the next parse starts a new one. a worker already
    // replaced (stopped) holds nothing: its late events must not fail its successor's work
    const gone = (e: Error) => {
      if (this.worker !== w) return;
      this.worker = null;
      this.fail(e);
    };
    w.on('error', gone);
    w.on('exit', () => gone(new Error('the parser thread exited')));
    this.worker = w;
    return w;
  }

  private fail(e: Error): void {
    for (const p of this.pending.values()) p.reject(e);
    this.pending.clear();
  }
}

/** structured clone turns a Buffer into a plain Uint8Array: make the wire bytes a Buffer again (no copy) */
function revive(r: ParseResult): ParseResult {
  const w = r.ok ? r.snapshot.wire : undefined;
  if (r.ok && w && !Buffer.isBuffer(w.bytes)) {
    const u8 = w.bytes as Uint8Array;
    r.snapshot.wire = { ...w, bytes: Buffer.from(u8.buffer, u8.byteOffset, u8.byteLength) };
  }
  return r;
}
