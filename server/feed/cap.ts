// the aircraft cap of one snapshot, applied where the records are made (the parser's thread).
import type { FeedSnapshot } from './record.ts';

/** the `max` records heard most recently (smallest `seen`), in their feed order */
export function capAircraft(snap: FeedSnapshot, max: number): FeedSnapshot {
  const order = snap.aircraft.map((a, i) => i).sort((x, y) => (snap.aircraft[x]!.seen ?? Infinity) - (snap.aircraft[y]!.seen ?? Infinity) || x - y);
  const keep = order.slice(0, max).sort((x, y) => x - y);
  // the scanner's wire JSON no longer lines up with the records: the snapshot re-serialises them
  return { now: snap.now, ...(snap.messages !== undefined && { messages: snap.messages }), aircraft: keep.map((i) => snap.aircraft[i]!) };
}
