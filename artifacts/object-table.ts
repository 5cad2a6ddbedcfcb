// the objects of a manifest (manifest.ts) held compactly. a year's tree names 2 M objects: as a
// Record of entry objects a manifest took ~450 MB of V8's heap (a key string, an entry object and a
// hash string per object), and a night holds two, so each full collection walked ~940 MB about
// every 4 s of the airframes step (docs/perf-log/nightly-steady-state.md, night 7). here the keys are ASCII bytes in one buffer, the hashes
// 32 raw bytes each, the lengths in typed arrays, and an open-addressing index finds a key: no object
// per entry, nothing for the collector to walk. entries are only ever added (a build's table grows,
// a previous one is read), so an entry's number is stable and its order is the order it was added.
import type { ObjectEntry } from './manifest.ts';

const SHA = 32;
/** how an entry came into a build's table (a read manifest's are all WRITTEN) */
export const Origin = {
  /** its bytes were written by this build (or read from a manifest) */
  WRITTEN: 0,
  /** built and hashed, the same bytes as the previous version's: its file kept */
  SAME: 1,
  /** kept unbuilt from the previous version (the caller knew its inputs had not changed) */
  KEPT: 2,
} as const;
export type Origin = (typeof Origin)[keyof typeof Origin];

/** FNV-1a over a key's characters (ASCII: the same over its bytes, hashBytes) */
function hashKey(key: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

function hashBytes(b: Uint8Array, start: number, end: number): number {
  let h = 0x811c9dc5;
  for (let i = start; i < end; i++) h = Math.imul(h ^ b[i]!, 0x01000193);
  return h >>> 0;
}

/** a typed array grown to at least `n` elements (doubling), its contents kept */
function grown<T extends Uint32Array | Uint16Array | Float64Array | Uint8Array>(a: T, n: number): T {
  if (a.length >= n) return a;
  const b = new (a.constructor as new (n: number) => T)(Math.max(n, a.length * 2, 64));
  b.set(a);
  return b;
}

export class ObjectTable {
  /** entries */
  size = 0;
  private keyBytes: Buffer = Buffer.allocUnsafeSlow(1 << 16);
  private keyEnd = 0;
  private starts = new Uint32Array(0);
  private lens = new Uint16Array(0);
  private hashes = new Uint32Array(0);
  private shas: Buffer = Buffer.alloc(0);
  private bytes = new Float64Array(0);
  private gzip = new Float64Array(0);
  private origins = new Uint8Array(0);
  /**
   * the index: per slot its entry's number + 1 (0: empty) and its key's hash, side by side (a miss
   * is told from the slot alone); slots a power of two, at least twice the entries
   */
  private slots = new Uint32Array(128);

  /** @param capacity entries to make room for at once (a build's table: the previous one's size) */
  constructor(capacity = 0) {
    if (capacity > 0) this.reserve(capacity);
  }

  /** A table of the entries of a manifest's `objects` (checked: a sha256 of 64 hex digits, whole lengths of 0 or more). */
  static fromRecord(objects: Record<string, ObjectEntry>): ObjectTable {
    const t = new ObjectTable();
    for (const key in objects) {
      const e = objects[key]!;
      if (!Number.isSafeInteger(e.bytes) || e.bytes < 0 || !Number.isSafeInteger(e.gzip_bytes) || e.gzip_bytes < 0)
        throw new Error(`manifest entry ${key}: bytes and gzip_bytes must be whole numbers of 0 or more`);
      t.add(key, e.sha256, e.bytes, e.gzip_bytes);
    }
    return t;
  }

  /** The entry number of `key`, or -1. */
  indexOf(key: string): number {
    const h = hashKey(key);
    const mask = (this.slots.length >> 1) - 1;
    for (let s = h & mask; ; s = (s + 1) & mask) {
      const v = this.slots[2 * s]!;
      if (v === 0) return -1;
      if (this.slots[2 * s + 1] === h && this.keyIs(v - 1, key)) return v - 1;
    }
  }

  /** The entry number in this table of `other`'s entry `j`'s key, or -1 (no key string made). */
  indexOfKeyOf(other: ObjectTable, j: number): number {
    const h = other.hashes[j]!;
    const mask = (this.slots.length >> 1) - 1;
    const os = other.starts[j]!;
    const len = other.lens[j]!;
    for (let s = h & mask; ; s = (s + 1) & mask) {
      const v = this.slots[2 * s]!;
      if (v === 0) return -1;
      const i = v - 1;
      if (this.slots[2 * s + 1] === h && this.keyBytesAre(i, other.keyBytes, os, len)) return i;
    }
  }

  /** whether entry `i`'s key is the bytes `buf[st, st + len)` */
  private keyBytesAre(i: number, buf: Buffer, st: number, len: number): boolean {
    return this.lens[i] === len && this.keyBytes.compare(buf, st, st + len, this.starts[i]!, this.starts[i]! + len) === 0;
  }

  private keyIs(i: number, key: string): boolean {
    if (this.lens[i] !== key.length) return false;
    const st = this.starts[i]!;
    for (let j = 0; j < key.length; j++) if (this.keyBytes[st + j] !== key.charCodeAt(j)) return false;
    return true;
  }

  has(key: string): boolean {
    return this.indexOf(key) >= 0;
  }

  /** The entry of `key` as a new object, or undefined. */
  get(key: string): ObjectEntry | undefined {
    const i = this.indexOf(key);
    return i < 0 ? undefined : this.entryAt(i);
  }

  entryAt(i: number): ObjectEntry {
    return { sha256: this.shaAt(i), bytes: this.bytes[i]!, gzip_bytes: this.gzip[i]! };
  }

  keyAt(i: number): string {
    return this.keyBytes.toString('latin1', this.starts[i]!, this.starts[i]! + this.lens[i]!);
  }

  shaAt(i: number): string {
    return this.shas.toString('hex', i * SHA, (i + 1) * SHA);
  }

  bytesAt(i: number): number {
    return this.bytes[i]!;
  }

  gzipAt(i: number): number {
    return this.gzip[i]!;
  }

  /** How `key`'s entry came into the table, or undefined when it has none. */
  originOf(key: string): Origin | undefined {
    const i = this.indexOf(key);
    return i < 0 ? undefined : (this.origins[i] as Origin);
  }

  /** Whether entry `i`'s sha256 is `digest` (32 raw bytes). */
  shaIs(i: number, digest: Uint8Array): boolean {
    return this.shas.compare(digest, 0, SHA, i * SHA, (i + 1) * SHA) === 0;
  }

  /** Whether entry `i` here and entry `j` of `other` have the same sha256 and gzip length (the same stored object). */
  sameObject(i: number, other: ObjectTable, j: number): boolean {
    return this.gzip[i] === other.gzip[j] && this.shas.compare(other.shas, j * SHA, (j + 1) * SHA, i * SHA, (i + 1) * SHA) === 0;
  }

  /**
   * Add `key` (printable ASCII without a quote or a backslash, as artifact keys are: keys.ts) with
   * its sha256 (hex, 32 raw bytes, or null: zeros until setSha) and lengths; returns its entry
   * number. Throws, adding nothing, when the key or the hash is not one, or the key is there already.
   */
  add(key: string, sha: string | Uint8Array | null, bytes: number, gzipBytes: number, origin: Origin = Origin.WRITTEN): number {
    if (sha !== null) checkSha(sha);
    const i = this.addKey(key, bytes, gzipBytes, origin);
    if (sha === null) this.shas.fill(0, i * SHA, (i + 1) * SHA);
    else this.setSha(i, sha);
    return i;
  }

  /** Add `key` with entry `j` of `other` (its sha256 and lengths); returns its entry number. */
  addCopy(key: string, other: ObjectTable, j: number, origin: Origin): number {
    const i = this.addKey(key, other.bytes[j]!, other.gzip[j]!, origin);
    // 32 bytes: a loop, not Buffer.copy's checks (a night keeps ~1 M entries)
    for (let k = 0; k < SHA; k++) this.shas[i * SHA + k] = other.shas[j * SHA + k]!;
    return i;
  }

  /** add and addCopy without the hash */
  private addKey(key: string, bytes: number, gzipBytes: number, origin: Origin): number {
    if (key.length === 0 || key.length > 0xffff) throw new Error(`artifact key of ${key.length} characters`);
    const st = this.room(key.length);
    for (let j = 0; j < key.length; j++) {
      const c = key.charCodeAt(j);
      if (c > 0x7e || c < 0x20 || c === 0x22 || c === 0x5c)
        throw new Error(`artifact key ${JSON.stringify(key)} is not printable ASCII without quotes and backslashes`);
      this.keyBytes[st + j] = c;
    }
    return this.place(st, key.length, hashKey(key), bytes, gzipBytes, origin);
  }

  /**
   * Add an entry whose key is `src[start, end)` and whose sha256 is the 64 hex digits at
   * `src[shaAt]` (a manifest's text, manifest-file.ts); false when those are not hex digits.
   */
  addFrom(src: Buffer, start: number, end: number, shaAt: number, bytes: number, gzipBytes: number): boolean {
    const len = end - start;
    if (len === 0 || len > 0xffff) return false;
    const st = this.room(len);
    src.copy(this.keyBytes, st, start, end);
    const i = this.size;
    for (let k = 0; k < SHA; k++) {
      const hi = hexDigit(src[shaAt + 2 * k]!);
      const lo = hexDigit(src[shaAt + 2 * k + 1]!);
      if (hi < 0 || lo < 0) return false;
      this.shas[i * SHA + k] = (hi << 4) | lo;
    }
    this.place(st, len, hashBytes(src, start, end), bytes, gzipBytes, Origin.WRITTEN);
    return true;
  }

  setSha(i: number, sha: string | Uint8Array): void {
    checkSha(sha);
    if (typeof sha === 'string') this.shas.write(sha, i * SHA, SHA, 'hex');
    else this.shas.set(sha, i * SHA);
  }

  setBytes(i: number, n: number): void {
    this.bytes[i] = n;
  }

  setGzip(i: number, n: number): void {
    this.gzip[i] = n;
  }

  /** Entry numbers in the order they were added. */
  *indexes(): Generator<number> {
    for (let i = 0; i < this.size; i++) yield i;
  }

  *keys(): Generator<string> {
    for (let i = 0; i < this.size; i++) yield this.keyAt(i);
  }

  /** The entries as a manifest's `objects` (for small tables: tests, a roll). */
  toRecord(): Record<string, ObjectEntry> {
    const r: Record<string, ObjectEntry> = {};
    for (let i = 0; i < this.size; i++) r[this.keyAt(i)] = this.entryAt(i);
    return r;
  }

  /**
   * Entries per folder: the key up to its `depth`-th '/' (the whole key when it has fewer), e.g.
   * depth 1: v1, meta; depth 2: v1/route, v1/airframes.
   */
  countsByFolder(depth: number): Map<string, number> {
    const counts = new Map<string, number>();
    for (let i = 0; i < this.size; i++) {
      const st = this.starts[i]!;
      const end = st + this.lens[i]!;
      let p = st;
      for (let d = 0; d < depth && p < end; d++) {
        const slash = this.keyBytes.indexOf(0x2f, p);
        p = slash < 0 || slash >= end ? end : slash + (d + 1 < depth ? 1 : 0);
      }
      const folder = this.keyBytes.toString('latin1', st, p);
      counts.set(folder, (counts.get(folder) ?? 0) + 1);
    }
    return counts;
  }

  /** room for `n` entries, and an index at most half full */
  private reserve(n: number): void {
    if (n > this.starts.length) {
      const cap = Math.max(64, this.starts.length * 2, n);
      this.starts = grown(this.starts, cap);
      this.lens = grown(this.lens, cap);
      this.hashes = grown(this.hashes, cap);
      this.bytes = grown(this.bytes, cap);
      this.gzip = grown(this.gzip, cap);
      this.origins = grown(this.origins, cap);
      if (this.shas.length < cap * SHA) this.shas = growBuffer(this.shas, cap * SHA);
    }
    if (n * 2 > this.slots.length >> 1) {
      let size = this.slots.length >> 1;
      while (n * 2 > size) size *= 2;
      this.slots = new Uint32Array(2 * size);
      const mask = size - 1;
      for (let i = 0; i < this.size; i++) {
        let s = this.hashes[i]! & mask;
        while (this.slots[2 * s] !== 0) s = (s + 1) & mask;
        this.slots[2 * s] = i + 1;
        this.slots[2 * s + 1] = this.hashes[i]!;
      }
    }
  }

  /** room for one more entry and `len` more key bytes; where its key bytes go */
  private room(len: number): number {
    this.reserve(this.size + 1);
    if (this.keyEnd + len > this.keyBytes.length) this.keyBytes = growBuffer(this.keyBytes, this.keyEnd + len);
    return this.keyEnd;
  }

  /** index the next entry, its key bytes at keyBytes[st, st + len), refusing a key already there; its number */
  private place(st: number, len: number, h: number, bytes: number, gzipBytes: number, origin: Origin): number {
    const i = this.size;
    const mask = (this.slots.length >> 1) - 1;
    let s = h & mask;
    for (; this.slots[2 * s] !== 0; s = (s + 1) & mask) {
      if (this.slots[2 * s + 1] === h && this.keyBytesAre(this.slots[2 * s]! - 1, this.keyBytes, st, len)) {
        throw new Error(`artifact ${this.keyBytes.toString('latin1', st, st + len)} added twice to one manifest`);
      }
    }
    this.slots[2 * s] = i + 1;
    this.slots[2 * s + 1] = h;
    this.starts[i] = st;
    this.lens[i] = len;
    this.hashes[i] = h;
    this.bytes[i] = bytes;
    this.gzip[i] = gzipBytes;
    this.origins[i] = origin;
    this.keyEnd = st + len;
    this.size = i + 1;
    return i;
  }
}

/** throws unless `sha` is a sha256: 64 lowercase hex digits, or 32 bytes */
function checkSha(sha: string | Uint8Array): void {
  if (typeof sha === 'string') {
    if (!/^[0-9a-f]{64}$/.test(sha)) throw new Error(`sha256 ${JSON.stringify(sha)} is not 64 lowercase hex digits`);
  } else if (sha.length !== SHA) throw new Error(`a sha256 of ${sha.length} bytes`);
}

function growBuffer(b: Buffer, n: number): Buffer {
  const c = Buffer.allocUnsafeSlow(Math.max(n, b.length * 2));
  b.copy(c);
  return c;
}

/** the value of a lowercase hex digit's byte, or -1 */
function hexDigit(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  if (c >= 0x61 && c <= 0x66) return c - 0x57;
  return -1;
}
