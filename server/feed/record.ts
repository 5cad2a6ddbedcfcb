// the normalised live record: exactly the wire fields of spec 2.1, already validated.
// produced by feed/parse.ts from a decoder's aircraft.json; consumed by the live snapshot,
// the trace store and the estimator. Optional fields are absent when unknown, never null.

import type { AircraftRecord } from '../../lib/live-records.ts';

export type { AircraftRecord };

/** one snapshot as records, as the parse made them (the ingest thread hands over parts instead: server/ingest/arrival.ts) */
export interface FeedSnapshot {
  /** the decoder's `now`, unix seconds */
  now: number;
  /** the decoder's message counter, when given */
  messages?: number;
  aircraft: AircraftRecord[];
  /** each record's wire JSON, when the byte scanner read the feed (feed/wire.ts); absent on any other path */
  wire?: Wire;
}

/** records as wire JSON: record i is bytes[start[i], end[i]), records joined by commas */
export interface Wire {
  bytes: Buffer;
  start: Uint32Array;
  end: Uint32Array;
}

/** wire order of the fields, as spec 2.1 lists them */
export const WIRE_FIELDS = [
  'hex',
  'flight',
  't',
  'r',
  'lat',
  'lon',
  'alt_baro',
  'gs',
  'track',
  'category',
  'squawk',
  'seen',
  'seen_pos',
  'baro_rate',
  'emergency',
] as const;
