// each record's 2.1 wire JSON, written once by the byte scanner while it reads the feed, so
// the live snapshot neither stringifies objects nor re-formats numbers (readsb's api.c keeps
// the same kind of per-aircraft buffer). a number whose feed token is already in the exact
// text JSON.stringify would print (see scan.ts: canonical) is copied byte for byte; any other
// number goes through String(), which is what JSON.stringify prints for a finite number.
// the output equals JSON.stringify(record) byte for byte; test/server/feed/scan.slow.test.ts holds it to that.
import type { AircraftRecord, FeedSnapshot, Wire } from './record.ts';
import { WIRE_FIELDS } from './record.ts';

/** The scanner's wire JSON of a snapshot (FeedSnapshot.wire), when it made one and the record count still matches. */
export function wireOf(snap: FeedSnapshot): Wire | undefined {
  const w = snap.wire;
  return w && w.start.length === snap.aircraft.length ? w : undefined;
}

// field index = position in WIRE_FIELDS (hex 0 ... emergency 14)
const F = Object.fromEntries(WIRE_FIELDS.map((k, i) => [k, i])) as Record<(typeof WIRE_FIELDS)[number], number>;
const KEY: Uint8Array[] = WIRE_FIELDS.map((k, i) => Buffer.from(`${i === 0 ? '{' : ','}"${k}":`, 'latin1'));

/**
 * Number tokens of the record being written, by wire field index: feed bytes [start, end) of a
 * canonical token (start -1 when there is none) and its value. a second slot per field, at
 * index + ALT, holds dump1090-mutability's older name for it (altitude, speed, vert_rate).
 */
export interface NumberTokens {
  src: Uint8Array;
  start: Int32Array;
  end: Int32Array;
  value: Float64Array;
}
export const ALT = WIRE_FIELDS.length;

/** A growable byte buffer of records; ASCII only (the normalised strings are printable ASCII). */
export class WireWriter {
  private buf: Buffer;
  private at = 0;
  private readonly starts: number[] = [];
  private readonly ends: number[] = [];

  constructor(capacity: number) {
    this.buf = Buffer.allocUnsafe(Math.max(1024, capacity));
  }

  /** Append one record (2.1 field order, as JSON.stringify writes a normalised record). */
  record(rec: AircraftRecord, tok: NumberTokens): void {
    // a record is at most ~600 bytes: 3 strings of <= 32 chars (doubled when all escaped), 9 numbers
    if (this.at + 1024 > this.buf.length) this.grow();
    if (this.starts.length > 0) this.buf[this.at++] = 0x2c; // ,
    this.starts.push(this.at);
    this.key(F.hex);
    this.plain(rec.hex);
    if (rec.flight !== undefined) this.text(F.flight, rec.flight);
    if (rec.t !== undefined) this.text(F.t, rec.t);
    if (rec.r !== undefined) this.text(F.r, rec.r);
    if (rec.lat !== undefined) this.num(F.lat, rec.lat, tok);
    if (rec.lon !== undefined) this.num(F.lon, rec.lon, tok);
    if (rec.alt_baro !== undefined) {
      if (rec.alt_baro === 'ground') {
        this.key(F.alt_baro);
        this.plain('ground');
      } else this.num(F.alt_baro, rec.alt_baro, tok);
    }
    if (rec.gs !== undefined) this.num(F.gs, rec.gs, tok);
    if (rec.track !== undefined) this.num(F.track, rec.track, tok);
    if (rec.category !== undefined) {
      this.key(F.category);
      this.plain(rec.category);
    }
    if (rec.squawk !== undefined) {
      this.key(F.squawk);
      this.plain(rec.squawk);
    }
    if (rec.seen !== undefined) this.num(F.seen, rec.seen, tok);
    if (rec.seen_pos !== undefined) this.num(F.seen_pos, rec.seen_pos, tok);
    if (rec.baro_rate !== undefined) this.num(F.baro_rate, rec.baro_rate, tok);
    if (rec.emergency !== undefined) {
      this.key(F.emergency);
      this.plain(rec.emergency);
    }
    this.buf[this.at++] = 0x7d; // }
    this.ends.push(this.at);
  }

  /** The records written so far (the bytes are copied out at their exact size). */
  finish(): Wire {
    const bytes = Buffer.allocUnsafe(this.at);
    this.buf.copy(bytes, 0, 0, this.at);
    return { bytes, start: Uint32Array.from(this.starts), end: Uint32Array.from(this.ends) };
  }

  private grow(): void {
    const next = Buffer.allocUnsafe(this.buf.length * 2);
    this.buf.copy(next, 0, 0, this.at);
    this.buf = next;
  }

  private key(f: number): void {
    const k = KEY[f]!;
    const b = this.buf;
    let at = this.at;
    for (let i = 0; i < k.length; i++) b[at++] = k[i]!;
    this.at = at;
  }

  /** a string that needs no escaping (hex, category, squawk, emergency, `ground`) */
  private plain(s: string): void {
    const b = this.buf;
    let at = this.at;
    b[at++] = 0x22;
    for (let i = 0; i < s.length; i++) b[at++] = s.charCodeAt(i);
    b[at++] = 0x22;
    this.at = at;
  }

  /** printable ASCII: JSON.stringify escapes only `"` and `\` in it */
  private text(f: number, s: string): void {
    this.key(f);
    const b = this.buf;
    let at = this.at;
    b[at++] = 0x22;
    for (let i = 0; i < s.length; i++) {
      const c = s.charCodeAt(i);
      if (c === 0x22 || c === 0x5c) b[at++] = 0x5c;
      b[at++] = c;
    }
    b[at++] = 0x22;
    this.at = at;
  }

  private num(f: number, v: number, tok: NumberTokens): void {
    this.key(f);
    // the token is copied only when its value is the record's (not rounded, not the other name's)
    let slot = -1;
    if (tok.start[f]! >= 0 && tok.value[f] === v) slot = f;
    else if (tok.start[f + ALT]! >= 0 && tok.value[f + ALT] === v) slot = f + ALT;
    const b = this.buf;
    let at = this.at;
    if (slot >= 0) {
      const src = tok.src;
      for (let i = tok.start[slot]!, e = tok.end[slot]!; i < e; i++) b[at++] = src[i]!;
    } else {
      const s = String(v);
      for (let i = 0; i < s.length; i++) b[at++] = s.charCodeAt(i);
    }
    this.at = at;
  }
}
