// the ingest thread: bytes in (transferred, not copied); parsed, capped, prepared to serve
// (parts/prepare.ts: body, offsets, indexes) and compressed here, and the parts transferred back.
// the serving thread receives no object per aircraft: taking a snapshot there is wrapping a few
// arrays (ingest-thread.ts), so a 12k-aircraft feed never stalls it.
import { parentPort, type MessagePort } from 'node:worker_threads';
import { parseFeed, type RejectReason } from '../feed/parse.ts';
import { capAircraft } from '../feed/cap.ts';
import { readFeedFile } from '../feed/read-file.ts';
import type { FeedCounters } from '../feed/normalize.ts';
import { compressParts, ownAll, prepareParts, servingCopy, transferList, type SnapshotParts } from '../parts/prepare.ts';

export interface IngestJob {
  id: number;
  /** the feed's bytes (handed over), or the file to read here (so the serving thread never holds them) */
  input: { bytes: ArrayBuffer } | { path: string; maxBytes: number };
  /** records kept at most: the cap is applied here, so only what is kept crosses to the serving thread */
  maxAircraft: number;
  /** make the brotli of the whole body too (clients asked for it lately) */
  brotli: boolean;
  /** copies of the parts for the other serving threads, each theirs to keep (server/serve/) */
  copies: number;
}

/**
 * what else the main thread says: `ports` connects this thread to each other serving thread
 * (server/serve/); `publish` says the snapshot of job `id` went live, so its copies go to them,
 * straight from here: the main thread never holds them (each would count toward the external
 * memory that sets off its full collections).
 */
export type IngestControl = { t: 'ports'; ports: MessagePort[] } | { t: 'publish'; id: number; receivedS: number };

/** what a serving thread receives on its port from here: a snapshot went live (as protocol.ts ToWorker 'snapshot') */
export interface CopyMessage {
  t: 'snapshot';
  parts: SnapshotParts;
  receivedS: number;
}

/** why a job made no snapshot: the parse's reason, or `read_error` for a file not read */
export type IngestRefusal = { ok: false; reason: RejectReason | 'read_error'; detail: string };

/** what crosses back: the parse's verdict, and on success the snapshot as parts */
export type IngestReply =
  | ({ id: number; counters: FeedCounters } & IngestRefusal)
  | {
      id: number;
      counters: FeedCounters;
      ok: true;
      now: number;
      messages?: number;
      dropped: FeedCounters;
      capped?: number;
      parts: SnapshotParts;
      ms: IngestTimes;
    };

/** where the ingest thread's time went for one snapshot, ms */
export interface IngestTimes {
  parse: number;
  prepare: number;
  compress: number;
}

let ports: MessagePort[] = [];
// the newest snapshot's copies, until the main thread publishes it (or a newer one replaces it)
let held: { id: number; copies: SnapshotParts[] } | null = null;

function control(m: IngestControl): void {
  if (m.t === 'ports') {
    for (const p of ports) p.close();
    ports = m.ports;
    return;
  }
  if (held?.id !== m.id) return;
  held.copies.forEach((parts, i) => ports[i]?.postMessage({ t: 'snapshot', parts, receivedS: m.receivedS } satisfies CopyMessage, transferList(parts)));
  held = null;
}

parentPort?.on('message', (m: IngestJob | IngestControl) => {
  if ('t' in m) control(m);
  else ingest(m);
});

function ingest(job: IngestJob): void {
  const counters: FeedCounters = {};
  const t0 = performance.now();
  const bytes = inputOf(job);
  if (typeof bytes === 'string') {
    parentPort!.postMessage({ id: job.id, counters, ok: false, reason: 'read_error', detail: bytes } satisfies IngestReply);
    return;
  }
  const r = parseFeed(bytes, counters);
  if (!r.ok) {
    parentPort!.postMessage({ id: job.id, counters, ok: false, reason: r.reason, detail: r.detail } satisfies IngestReply);
    return;
  }
  let snap = r.snapshot;
  let capped: number | undefined;
  if (snap.aircraft.length > job.maxAircraft) {
    capped = snap.aircraft.length - job.maxAircraft;
    snap = capAircraft(snap, job.maxAircraft);
  }
  const t1 = performance.now();
  const parts = prepareParts(snap);
  const t2 = performance.now();
  compressParts(parts, job.brotli);
  const owned = ownAll(parts);
  held = job.copies > 0 ? { id: job.id, copies: Array.from({ length: job.copies }, () => servingCopy(owned)) } : null;
  const ms = { parse: t1 - t0, prepare: t2 - t1, compress: performance.now() - t2 };
  const reply: IngestReply = {
    id: job.id,
    counters,
    ok: true,
    now: snap.now,
    dropped: r.dropped,
    parts: owned,
    ms,
    ...(snap.messages !== undefined && { messages: snap.messages }),
    ...(capped !== undefined && { capped }),
  };
  parentPort!.postMessage(reply, transferList(owned));
}

/** The job's bytes, or why they could not be read. */
function inputOf(job: IngestJob): Buffer | string {
  return 'bytes' in job.input ? Buffer.from(job.input.bytes) : readFeedFile(job.input.path, job.input.maxBytes);
}
