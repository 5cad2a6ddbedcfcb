// an airframe's legs (spec 2.5: newest first, at most MAX_LEGS) made from the previous night's
// document without building it again: the new day's legs go on top, the legs of the day that left
// the window come off its end, and what no longer fits is cut. PURE: bytes in, bytes out. the caller
// (build/steps/airframes/fold.ts) knows the counts from the log and checks that the days are in
// order (every new leg newer than every leg kept, every dropped one older), which makes this exact.
import { MAX_LEGS, type AirframeFrame } from './airframe-doc.ts';

/**
 * where each leg after the first starts, one byte on: a leg is a flat object whose first key is
 * `date` (DuckDB's to_json of the leg's struct, AirframeLeg's field order), and this text cannot
 * occur inside a JSON string (its quote after `{` would end the string, and a string's end is
 * followed by `,` `:` `}` or `]`, never `date`), so every occurrence is a boundary between legs
 */
const BOUNDARY = Buffer.from(',{"date":"');

export interface LegsSplice {
  /** the window's new legs, newest first, at most MAX_LEGS, joined by commas without brackets (DuckDB's text); empty when none */
  added: Uint8Array;
  addedCount: number;
  /** the dropped legs the previous document holds (its last ones, so its oldest), newest first, in the same form */
  dropped: Uint8Array;
  droppedCount: number;
}

/** where each leg of a legs array `[...]` starts (the byte of its `{`) */
export function legStarts(legs: Uint8Array): number[] {
  const b = Buffer.from(legs.buffer, legs.byteOffset, legs.length);
  if (b.length <= 2) return [];
  const starts = [1];
  for (let i = b.indexOf(BOUNDARY, 1); i >= 0; i = b.indexOf(BOUNDARY, i + BOUNDARY.length)) starts.push(i + 1);
  return starts;
}

/**
 * The new legs array `[...]`: `s.added`, then the previous document's legs less its last
 * `s.droppedCount` (which must be exactly `s.dropped`), cut to `max` legs; with `frame`, the whole
 * document: its head, those legs, its tail, in one buffer of its own (it moves to a write worker).
 * null when the previous legs are not `prevCount` or do not end with `s.dropped`: they are not
 * what the log says they were, and the caller builds the airframe from its legs instead.
 */
export function spliceLegs(prevLegs: Uint8Array, prevCount: number, s: LegsSplice, max = MAX_LEGS, frame?: AirframeFrame): Uint8Array | null {
  const prev = Buffer.from(prevLegs.buffer, prevLegs.byteOffset, prevLegs.length);
  const starts = legStarts(prev);
  const n = starts.length;
  const m = s.droppedCount;
  if (n !== prevCount || m > n || s.addedCount > max) return null;
  const close = prev.length - 1; // the `]`
  if (m > 0) {
    const tail = prev.subarray(starts[n - m]!, close);
    if (!tail.equals(Buffer.from(s.dropped.buffer, s.dropped.byteOffset, s.dropped.length))) return null;
  } else if (s.dropped.length) return null;
  // the previous legs kept: what is left after the dropped ones, as many as fit under the new ones
  const kept = Math.min(n - m, max - s.addedCount);
  const keptBytes = kept === 0 ? prev.subarray(1, 1) : prev.subarray(1, kept === n ? close : starts[kept]! - 1);
  const comma = s.added.length && keptBytes.length ? 1 : 0;
  const [head, tail] = frame ? [frame.head, frame.tail] : [NO_BYTES, NO_BYTES];
  const out = new Uint8Array(head.length + 2 + s.added.length + comma + keptBytes.length + tail.length);
  let at = 0;
  const put = (b: Uint8Array) => {
    out.set(b, at);
    at += b.length;
  };
  put(head);
  out[at++] = 0x5b; // [
  put(s.added);
  if (comma) out[at++] = 0x2c; // ,
  put(keptBytes);
  out[at++] = 0x5d; // ]
  put(tail);
  return out;
}

const NO_BYTES = new Uint8Array(0);
