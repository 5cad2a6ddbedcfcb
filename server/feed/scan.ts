// a single-pass byte scanner over a decoder's aircraft.json: it walks the `aircraft` array and
// reads only the fields the 2.1 rules look at (plus now, messages and the mutability names);
// every other value (nav_modes, mlat, rssi, ...) is checked for JSON syntax and skipped without
// being built. the records go through the same rules as the JSON.parse reader (normalize.ts),
// and each kept record's wire JSON is written as it is read (wire.ts). pure: no clock, no i/o.
//
// the scanner accepts only what it is sure JSON.parse would read the same way. anything else
// (invalid JSON, a bad `now`, no `aircraft` array, a repeated `aircraft`, a nesting too deep)
// makes it answer null, and the caller reads the file again with JSON.parse, which classifies
// the fault exactly as before.
//
// written flat, positions in locals and functions of (bytes, position) -> position: a method
// call per token on scanner state measured 2-3x slower (48 ms just to skip the 12k file).
import { Collector, goodNow, type FeedCounters, type ParseOk } from './normalize.ts';
import { ALT, WireWriter, type NumberTokens } from './wire.ts';
import { NAMES, OTHER, Raw } from './raw.ts';

/** thrown inside the scanner when it is not sure; never leaves this file */
const UNSURE = new Error('scanner unsure');
// nesting beyond this is not a decoder's file: let JSON.parse decide
const MAX_DEPTH = 64;
// string ends are returned as end * 4 + flags, which must stay a small integer
const MAX_BYTES = 2 ** 28;
const ESC = 1; // the string has escapes
const HIGH = 2; // the string has non-ASCII bytes

type KeyTable = { bytes: Uint8Array[]; ids: number[] }[];

/** keys by byte length, for matching a key in place without making a string */
function table(keys: Map<string, number>): KeyTable {
  const out: KeyTable = [];
  for (const [k, id] of keys) {
    const t = (out[k.length] ??= { bytes: [], ids: [] });
    t.bytes.push(Buffer.from(k, 'latin1'));
    t.ids.push(id);
  }
  for (let i = 0; i < out.length; i++) out[i] ??= { bytes: [], ids: [] };
  return out;
}
const RECORD_KEYS = new Map<string, number>();
NAMES.forEach((n, i) => n !== undefined && RECORD_KEYS.set(n, i));
const RECORD_TABLE = table(RECORD_KEYS);
const TOP_NOW = 0;
const TOP_MESSAGES = 1;
const TOP_AIRCRAFT = 2;
const TOP_KEYS = new Map([
  ['now', TOP_NOW],
  ['messages', TOP_MESSAGES],
  ['aircraft', TOP_AIRCRAFT],
]);
const TOP_TABLE = table(TOP_KEYS);

// exact powers of ten (10^22 is the last one a double holds exactly)
const POW10 = Array.from({ length: 23 }, (_, i) => 10 ** i);

/**
 * Scan one aircraft.json. Null when the scanner is not sure (the caller then uses JSON.parse);
 * otherwise exactly what the JSON.parse reader answers, with the wire JSON attached (wire.ts).
 */
export function scanFeed(bytes: Buffer, counters?: FeedCounters): ParseOk | null {
  if (bytes.length >= MAX_BYTES) return null;
  try {
    return document(bytes, counters);
  } catch (e) {
    if (e === UNSURE || e instanceof RangeError) return null;
    throw e;
  } finally {
    TOK.src = NO_BYTES; // do not hold the last file
  }
}

// the value of the last number read (a module slot: returning two values costs an allocation)
let numValue = 0;
// number tokens of the record being read; one scan runs at a time (it is synchronous)
const NO_BYTES = new Uint8Array(0);
const TOK: NumberTokens = { src: NO_BYTES, start: new Int32Array(2 * ALT), end: new Int32Array(2 * ALT), value: new Float64Array(2 * ALT) };
// number(): skip = syntax only; VALUE_ONLY = the value, no token slot; >= 0 = a token slot too
const SKIP = -1;
const VALUE_ONLY = -2;

function document(b: Buffer, counters?: FeedCounters): ParseOk | null {
  const c = new Collector();
  const w = new WireWriter(b.length >> 1);
  const raw = new Raw();
  const tok = TOK;
  tok.src = b;
  let now: unknown;
  let messages: unknown;
  let seenAircraft = false;
  let p = ws(b, 0);
  if (b[p] !== 0x7b) throw UNSURE;
  p = ws(b, p + 1);
  if (b[p] === 0x7d) p++;
  else {
    for (;;) {
      const [id, at] = key(b, p, TOP_TABLE, TOP_KEYS);
      p = at;
      if (id === TOP_AIRCRAFT) {
        // a repeated `aircraft` would replace the records already taken
        if (seenAircraft || b[p] !== 0x5b) throw UNSURE;
        seenAircraft = true;
        p = aircraft(b, p, c, w, raw, tok);
      } else if (id === TOP_NOW || id === TOP_MESSAGES) {
        // only a number can pass the checks on either; anything else reads as OTHER
        let v: unknown = OTHER;
        if (isNumberStart(b[p])) {
          p = number(b, p, VALUE_ONLY);
          v = numValue;
        } else p = skip(b, p, 1);
        if (id === TOP_NOW) now = v;
        else messages = v;
      } else p = skip(b, p, 1);
      p = ws(b, p);
      const d = b[p++];
      if (d === 0x2c) {
        p = ws(b, p);
        continue;
      }
      if (d === 0x7d) break;
      throw UNSURE;
    }
  }
  if (ws(b, p) !== b.length) throw UNSURE;
  if (!seenAircraft || !goodNow(now)) return null;
  const res = c.finish(now, messages, counters);
  res.snapshot.wire = w.finish();
  return res;
}

/** at `[`: every element through the rules; kept records are written to the wire */
function aircraft(b: Buffer, p: number, c: Collector, w: WireWriter, raw: Raw, tok: NumberTokens): number {
  p = ws(b, p + 1);
  if (b[p] === 0x5d) return p + 1;
  for (;;) {
    if (b[p] === 0x7b) {
      p = record(b, p, raw, tok);
      const rec = c.add(raw);
      if (rec) w.record(rec, tok);
    } else {
      p = skip(b, p, 1);
      // any non-object element is a bad record; null stands for all of them
      c.add(null);
    }
    p = ws(b, p);
    const d = b[p++];
    if (d === 0x2c) {
      p = ws(b, p);
      continue;
    }
    if (d === 0x5d) return p;
    throw UNSURE;
  }
}

/** at `{`: reads the record's wanted fields into raw and their number tokens into tok */
function record(b: Buffer, p: number, raw: Raw, tok: NumberTokens): number {
  raw.reset();
  tok.start.fill(-1);
  p = ws(b, p + 1);
  if (b[p] === 0x7d) return p + 1;
  for (;;) {
    if (b[p] !== 0x22) throw UNSURE;
    const r = str(b, p);
    const ke = r >>> 2;
    const id = (r & 3) === 0 ? keyId(b, p + 1, ke, RECORD_TABLE) : (RECORD_KEYS.get(decode(b, p + 1, ke, r & 3)) ?? -1);
    p = ws(b, ke + 1);
    if (b[p] !== 0x3a) throw UNSURE;
    p = ws(b, p + 1);
    p = id < 0 ? skip(b, p, 2) : value(b, p, raw, id);
    p = ws(b, p);
    const d = b[p++];
    if (d === 0x2c) {
      p = ws(b, p);
      continue;
    }
    if (d === 0x7d) return p;
    throw UNSURE;
  }
}

/** a top-level key, its colon and the whitespace after: [id or -1, position of the value] */
function key(b: Buffer, p: number, t: KeyTable, names: Map<string, number>): [number, number] {
  if (b[p] !== 0x22) throw UNSURE;
  const r = str(b, p);
  const ke = r >>> 2;
  const id = (r & 3) === 0 ? keyId(b, p + 1, ke, t) : (names.get(decode(b, p + 1, ke, r & 3)) ?? -1);
  p = ws(b, ke + 1);
  if (b[p] !== 0x3a) throw UNSURE;
  return [id, ws(b, p + 1)];
}

function keyId(b: Buffer, s: number, e: number, t: KeyTable): number {
  const len = e - s;
  if (len >= t.length) return -1;
  const cands = t[len]!.bytes;
  for (let j = 0; j < cands.length; j++) {
    const k = cands[j]!;
    if (b[e - 1] !== k[len - 1]) continue; // most misses differ at the end (alt_geom, alt_baro)
    let i = 0;
    while (i < len && b[s + i] === k[i]) i++;
    if (i === len) return t[len]!.ids[j]!;
  }
  return -1;
}

/** a wanted field's value into raw (objects and arrays as OTHER); a number also fills token slot id */
function value(b: Buffer, p: number, raw: Raw, id: number): number {
  const c = b[p];
  TOK.start[id] = -1;
  if (c === 0x22) {
    const r = str(b, p);
    const e = r >>> 2;
    raw.set(id, decode(b, p + 1, e, r & 3));
    return e + 1;
  }
  if (isNumberStart(c)) {
    p = number(b, p, id);
    raw.set(id, numValue);
    return p;
  }
  let v: unknown;
  if (c === 0x6e && b[p + 1] === 0x75 && b[p + 2] === 0x6c && b[p + 3] === 0x6c) v = null;
  else if (c === 0x74 && b[p + 1] === 0x72 && b[p + 2] === 0x75 && b[p + 3] === 0x65) v = true;
  else if (c === 0x66 && b[p + 1] === 0x61 && b[p + 2] === 0x6c && b[p + 3] === 0x73 && b[p + 4] === 0x65) {
    v = false;
    p++;
  } else if (c === 0x7b || c === 0x5b) {
    raw.set(id, OTHER);
    return skip(b, p, 2);
  } else throw UNSURE;
  raw.set(id, v);
  return p + 4;
}

const isNumberStart = (c: number | undefined) => c === 0x2d || (c !== undefined && c >= 0x30 && c <= 0x39);

/** any JSON value, checked and not built */
function skip(b: Buffer, p: number, depth: number): number {
  const c = b[p];
  if (c === 0x22) return (str(b, p) >>> 2) + 1;
  if (c === 0x7b || c === 0x5b) {
    if (depth > MAX_DEPTH) throw UNSURE;
    const close = c + 2; // } or ]
    p = ws(b, p + 1);
    if (b[p] === close) return p + 1;
    for (;;) {
      if (close === 0x7d) {
        if (b[p] !== 0x22) throw UNSURE;
        p = ws(b, (str(b, p) >>> 2) + 1);
        if (b[p] !== 0x3a) throw UNSURE;
        p = ws(b, p + 1);
      }
      p = ws(b, skip(b, p, depth + 1));
      const d = b[p++];
      if (d === 0x2c) {
        p = ws(b, p);
        continue;
      }
      if (d === close) return p;
      throw UNSURE;
    }
  }
  if (isNumberStart(c)) return number(b, p, SKIP);
  if (c === 0x6e && b[p + 1] === 0x75 && b[p + 2] === 0x6c && b[p + 3] === 0x6c) return p + 4;
  if (c === 0x74 && b[p + 1] === 0x72 && b[p + 2] === 0x75 && b[p + 3] === 0x65) return p + 4;
  if (c === 0x66 && b[p + 1] === 0x61 && b[p + 2] === 0x6c && b[p + 3] === 0x73 && b[p + 4] === 0x65) return p + 5;
  throw UNSURE;
}

/** at `"`: checks escapes and control characters; returns (closing quote position) * 4 + flags */
function str(b: Buffer, p: number): number {
  const n = b.length;
  let f = 0;
  p++;
  for (;;) {
    if (p >= n) throw UNSURE;
    const c = b[p]!;
    if (c === 0x22) return p * 4 + f;
    if (c === 0x5c) {
      f |= ESC;
      const e = b[p + 1];
      if (e === 0x75) {
        if ((hexDigit(b[p + 2]) | hexDigit(b[p + 3]) | hexDigit(b[p + 4]) | hexDigit(b[p + 5])) < 0) throw UNSURE;
        p += 6;
      } else if (e === 0x22 || e === 0x5c || e === 0x2f || e === 0x62 || e === 0x66 || e === 0x6e || e === 0x72 || e === 0x74) p += 2;
      else throw UNSURE;
      continue;
    }
    if (c < 0x20) throw UNSURE;
    if (c >= 0x80) f |= HIGH;
    p++;
  }
}

/** string content [s, e) decoded as JSON.parse decodes it */
function decode(b: Buffer, s: number, e: number, f: number): string {
  if (f === 0) return b.latin1Slice(s, e);
  if (f === HIGH) return b.utf8Slice(s, e);
  let out = '';
  let from = s;
  let p = s;
  while (p < e) {
    if (b[p] !== 0x5c) {
      p++;
      continue;
    }
    // raw runs between escapes are utf-8 (the backslash is ASCII, so no sequence is split)
    out += b.utf8Slice(from, p);
    const x = b[p + 1]!;
    if (x === 0x75) {
      out += String.fromCharCode((hexDigit(b[p + 2]) << 12) | (hexDigit(b[p + 3]) << 8) | (hexDigit(b[p + 4]) << 4) | hexDigit(b[p + 5]));
      p += 6;
    } else {
      out += ESCAPED[x]!;
      p += 2;
    }
    from = p;
  }
  return out + b.utf8Slice(from, e);
}

/**
 * A JSON number; its value goes to numValue. the value is JSON.parse's: with up to 15
 * significant digits and no exponent it is m / 10^k, both exact, so one correctly rounded
 * division; otherwise Number() of the token. token slot `id` gets the token's canonical
 * text (trailing fraction zeros cut) when that text is exactly what String(value) prints: no
 * exponent, <= 15 significant digits (a double keeps 15), not minus zero, and not `0.` followed
 * by more than 5 zeros (String switches to 1e-7 there).
 */
function number(b: Buffer, p: number, id: number): number {
  const start = p;
  const neg = b[p] === 0x2d;
  if (neg) p++;
  const intZero = b[p] === 0x30;
  let m = 0; // digits so far, as an integer (exact while sig <= 15)
  let sig = 0; // significant digits so far
  let c = b[p];
  if (intZero) {
    c = b[++p];
    if (c !== undefined && c >= 0x30 && c <= 0x39) throw UNSURE; // a leading zero
  } else if (c !== undefined && c >= 0x31 && c <= 0x39) {
    do {
      m = m * 10 + (c - 0x30);
      sig++;
      c = b[++p];
    } while (c !== undefined && c >= 0x30 && c <= 0x39);
  } else throw UNSURE;
  let keptM = m;
  let keptSig = sig;
  let kept = 0; // fraction digits kept (up to the last non-zero one)
  let canonEnd = p;
  let leadZeros = 0;
  if (c === 0x2e) {
    c = b[++p];
    if (c === undefined || c < 0x30 || c > 0x39) throw UNSURE;
    let k = 0;
    do {
      k++;
      m = m * 10 + (c - 0x30);
      if (sig > 0 || c !== 0x30) sig++;
      else leadZeros++;
      if (c !== 0x30) {
        keptM = m;
        keptSig = sig;
        kept = k;
        canonEnd = p + 1;
      }
      c = b[++p];
    } while (c !== undefined && c >= 0x30 && c <= 0x39);
  }
  let exp = false;
  if (c === 0x65 || c === 0x45) {
    exp = true;
    c = b[++p];
    if (c === 0x2b || c === 0x2d) c = b[++p];
    if (c === undefined || c < 0x30 || c > 0x39) throw UNSURE;
    do c = b[++p];
    while (c !== undefined && c >= 0x30 && c <= 0x39);
  }
  if (id === SKIP) return p; // the syntax is all that matters
  const fast = !exp && keptSig <= 15 && kept <= 22;
  let v: number;
  if (fast) {
    v = keptM / POW10[kept]!;
    if (neg) v = -v;
  } else v = Number(b.latin1Slice(start, p));
  numValue = v;
  if (id >= 0 && fast && !(neg && keptM === 0) && !(intZero && keptM !== 0 && leadZeros > 5)) {
    TOK.start[id] = start;
    TOK.end[id] = canonEnd;
    TOK.value[id] = v;
  }
  return p;
}

function ws(b: Buffer, p: number): number {
  for (;;) {
    const c = b[p];
    if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) p++;
    else return p;
  }
}

const ESCAPED: Record<number, string> = { 0x22: '"', 0x5c: '\\', 0x2f: '/', 0x62: '\b', 0x66: '\f', 0x6e: '\n', 0x72: '\r', 0x74: '\t' };

function hexDigit(c: number | undefined): number {
  if (c === undefined) return -1;
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  const l = c | 0x20;
  return l >= 0x61 && l <= 0x66 ? l - 0x61 + 10 : -1;
}

declare module 'node:buffer' {
  interface Buffer {
    // node's own fast paths under toString(); present since node 0.x, not in @types/node
    latin1Slice(start: number, end: number): string;
    utf8Slice(start: number, end: number): string;
  }
}
