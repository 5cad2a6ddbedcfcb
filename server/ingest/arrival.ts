// what the feed source hands on (source.ts onSnapshot) to the live state, the followers and the
// serving threads: a snapshot's records, parsed on this thread (a source without an ingest
// thread: tests, tools), or the parts the ingest thread prepared, with the job that made them.
// one typed union, so no one reads a field that only one kind carries.
import type { AircraftRecord, FeedSnapshot } from '../feed/record.ts';
import type { SnapshotParts } from '../parts/prepare.ts';
import { asBuffer } from '../../lib/bytes.ts';

/** a snapshot the ingest thread prepared to serve (ingest-thread.ts): parts only, no record objects */
export interface Prepared {
  /** the decoder's `now`, unix seconds (the parts' own `now`) */
  now: number;
  /** the decoder's message counter, when given */
  messages?: number;
  parts: SnapshotParts;
  /** the ingest thread's job number: it holds this snapshot's copies for the other serving threads
   * until the main thread publishes it (IngestThread.publish, server/serve/) */
  ingestId: number;
}

export type Arrival = FeedSnapshot | Prepared;

/** What the live state and the followers take: the records, or the prepared parts. */
export const snapshotOf = (a: Arrival): FeedSnapshot | SnapshotParts => ('parts' in a ? a.parts : a);

/** Aircraft in a snapshot, without reading its records back from prepared parts. */
export const aircraftCount = (a: Arrival): number => ('parts' in a ? a.parts.total : a.aircraft.length);

/** A snapshot's records; prepared parts read them back from the body, which holds them as JSON joined by commas (tests and tools; the server reads the columns). */
export function aircraftOf(a: Arrival): AircraftRecord[] {
  if (!('parts' in a)) return a.aircraft;
  const p = a.parts;
  if (p.total === 0) return [];
  const text = asBuffer(p.body).toString('utf8', p.start[0]!, p.end[p.total - 1]!);
  return JSON.parse(`[${text}]`) as AircraftRecord[];
}
