// the feed parser's worker thread: bytes in (transferred, not copied), the parse result out with
// the records' wire JSON transferred back. parsing a snapshot (60-100 ms for 12k aircraft, seconds
// for an absurd feed) never runs on the thread that serves requests (server/feed/parser-thread.ts).
import { parentPort } from 'node:worker_threads';
import { parseFeed } from './parse.ts';
import { capAircraft } from './cap.ts';
import type { FeedCounters } from './normalize.ts';

export interface ParseJob {
  id: number;
  bytes: ArrayBuffer;
  /** records kept at most: the cap is applied here, so only what is kept crosses to the serving thread */
  maxAircraft: number;
}

parentPort?.on('message', (job: ParseJob) => {
  const counters: FeedCounters = {};
  const r = parseFeed(Buffer.from(job.bytes), counters);
  if (r.ok && r.snapshot.aircraft.length > job.maxAircraft) {
    r.capped = r.snapshot.aircraft.length - job.maxAircraft;
    r.snapshot = capAircraft(r.snapshot, job.maxAircraft);
  }
  const wire = r.ok ? r.snapshot.wire : undefined;
  // a wire buffer made by Buffer.allocUnsafe may share a pooled ArrayBuffer: copy it out to transfer
  const owned = wire && (wire.bytes.byteOffset !== 0 || wire.bytes.byteLength !== wire.bytes.buffer.byteLength) ? Buffer.from(wire.bytes) : wire?.bytes;
  if (r.ok && wire && owned) r.snapshot.wire = { ...wire, bytes: owned };
  const transfer = r.ok && r.snapshot.wire ? [r.snapshot.wire.bytes.buffer as ArrayBuffer, r.snapshot.wire.start.buffer as ArrayBuffer, r.snapshot.wire.end.buffer as ArrayBuffer] : [];
  parentPort!.postMessage({ id: job.id, result: r, counters }, transfer);
});
