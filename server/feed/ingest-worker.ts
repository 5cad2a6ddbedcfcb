// the ingest thread: bytes in (transferred, not copied); parsed, capped, prepared to serve
// (live/prepare.ts: body, offsets, indexes) and compressed here, and the parts transferred back.
// the serving thread receives no object per aircraft: taking a snapshot there is wrapping a few
// arrays (server/feed/ingest-thread.ts), so a 12k-aircraft feed never stalls it.
import { parentPort } from 'node:worker_threads';
import { parseFeed } from './parse.ts';
import { capAircraft } from './cap.ts';
import type { FeedCounters } from './normalize.ts';
import { compressParts, ownAll, prepareParts, servingCopy, transferList, type SnapshotParts } from '../live/prepare.ts';

export interface IngestJob {
  id: number;
  bytes: ArrayBuffer;
  /** records kept at most: the cap is applied here, so only what is kept crosses to the serving thread */
  maxAircraft: number;
  /** make the brotli of the whole body too (clients asked for it lately) */
  brotli: boolean;
  /** copies of the parts for the other serving threads, each theirs to keep (server/serve/) */
  copies: number;
}

/** what crosses back: the parse's verdict, and on success the snapshot as parts */
export type IngestReply =
  | { id: number; counters: FeedCounters; ok: false; reason: string; detail: string }
  | { id: number; counters: FeedCounters; ok: true; now: number; messages?: number; dropped: FeedCounters; capped?: number; parts: SnapshotParts; copies: SnapshotParts[]; ms: IngestTimes };

/** where the ingest thread's time went for one snapshot, ms */
export interface IngestTimes {
  parse: number;
  prepare: number;
  compress: number;
}

parentPort?.on('message', (job: IngestJob) => {
  const counters: FeedCounters = {};
  const t0 = performance.now();
  const r = parseFeed(Buffer.from(job.bytes), counters);
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
  const copies = Array.from({ length: job.copies }, () => servingCopy(owned));
  const ms = { parse: t1 - t0, prepare: t2 - t1, compress: performance.now() - t2 };
  const reply: IngestReply = { id: job.id, counters, ok: true, now: snap.now, dropped: r.dropped, parts: owned, copies, ms, ...(snap.messages !== undefined && { messages: snap.messages }), ...(capped !== undefined && { capped }) };
  parentPort!.postMessage(reply, [...transferList(owned), ...copies.flatMap(transferList)]);
});
