// one feed snapshot, prepared once for every live request (STYLE: serve what was prepared once):
// the parts (parts/prepare.ts) hold every record serialised once into one buffer, which IS the whole
// /v1/aircraft body; a query answers by copying slices of it. the parts are made on the ingest
// thread (ingest/ingest-worker.ts) with the whole body's gzip (and brotli while clients ask for it),
// so taking a snapshot on the serving thread is wrapping a few arrays, no work per aircraft.
import { brotliCompress, brotliCompressSync, gzip, gzipSync } from 'node:zlib';
import { promisify } from 'node:util';
import type { FeedSnapshot } from '../feed/record.ts';
import { SearchIndex } from '../parts/search-index.ts';
import { SpatialIndex, type Bbox } from '../parts/spatial.ts';
import { BROTLI_QUALITY, CLOSE_LIST, GZIP_LEVEL, listHead, prepareParts, type SnapshotParts } from '../parts/prepare.ts';
import { brotliOptions } from '../../lib/brotli.ts';
import { GZIP_MIN_BYTES } from '../http/respond.ts';
import type { Payload } from '../http/types.ts';
import { asBuffer } from '../../lib/bytes.ts';

const gzipAsync = promisify(gzip);
/** distinct boxes whose answers a snapshot keeps (about 300 KB each at most, with the gzip) */
const BOX_CACHE = 32;
const brotliAsync = promisify(brotliCompress);

export class PreparedSnapshot {
  /** snapshot time, unix seconds */
  readonly now: number;
  /** aircraft in the snapshot (2.2 aircraft_count, /v1/aircraft total) */
  readonly total: number;
  /** of those, with a position */
  readonly withPosition: number;
  /** the whole /v1/aircraft body, uncompressed; records are slices of it */
  readonly body: Buffer;
  readonly index: SpatialIndex;
  /** the /v2 search keys, made with the snapshot */
  readonly search: SearchIndex;
  /** record i is body[start[i], end[i]) and ends with `}` */
  private readonly start: Uint32Array;
  private readonly end: Uint32Array;
  /** record i's position in degrees, NaN without one (the push stream's cells read them) */
  private readonly posLat: Float64Array;
  private readonly posLon: Float64Array;
  private gz: Promise<Buffer> | null = null;
  /** bbox answers of this snapshot, by box (bboxPayload) */
  private readonly boxes = new Map<string, Payload>();
  private gzDone: Buffer | undefined;
  private brDone: Buffer | undefined;

  /** Wrap prepared parts: no work per aircraft. */
  constructor(readonly parts: SnapshotParts) {
    this.now = parts.now;
    this.total = parts.total;
    this.withPosition = parts.withPosition;
    this.body = asBuffer(parts.body);
    ({ start: this.start, end: this.end, posLat: this.posLat, posLon: this.posLon } = parts);
    this.index = new SpatialIndex(parts.index);
    this.search = new SearchIndex(parts.search);
    if (parts.gz) {
      this.gzDone = asBuffer(parts.gz);
      this.gz = Promise.resolve(this.gzDone);
    }
    if (parts.br) this.brDone = asBuffer(parts.br);
  }

  /** Prepare a snapshot on this thread (tests, tools, and a server without its ingest thread); gzip starts at once unless turned off. */
  static of(snap: FeedSnapshot, opts: { eagerGzip?: boolean } = {}): PreparedSnapshot {
    const s = new PreparedSnapshot(prepareParts(snap));
    if (opts.eagerGzip ?? true) void s.gzipped().catch(() => {});
    return s;
  }

  /** The whole body's gzip, compressed once (shared by every caller). */
  gzipped(): Promise<Buffer> {
    this.gz ??= gzipAsync(this.body, { level: GZIP_LEVEL }).then((b) => (this.gzDone = b));
    return this.gz;
  }

  /** The gzip, made here and now when the shared one is not done yet (blocks: the rare path). */
  gzipNow(): Buffer {
    this.gzDone ??= gzipSync(this.body, { level: GZIP_LEVEL });
    return this.gzDone;
  }

  /** The gzip when it is already made (so a hot path needs no promise), else undefined. */
  gzipReady(): Buffer | undefined {
    return this.gzDone;
  }

  /** The brotli of the whole body when it was made with the snapshot, else undefined. */
  brotliReady(): Buffer | undefined {
    return this.brDone;
  }

  /**
   * For a client that accepts brotli and not gzip while no brotli came with the snapshot: one made
   * here and now at quality 1 (a few ms per MB, about gzip's size), kept for the snapshot's other
   * such clients; the ingest thread's better one follows with the next snapshots (LiveState.wantsBrotli)
   */
  brotliNow(): Buffer {
    this.brDone ??= brotliCompressSync(this.body, brotliOptions(1, this.body.length));
    return this.brDone;
  }

  /** Make the brotli here (off the event loop, on the libuv pool), for a snapshot prepared on this thread. */
  async brotli(): Promise<Buffer> {
    this.brDone ??= await brotliAsync(this.body, brotliOptions(BROTLI_QUALITY, this.body.length));
    return this.brDone;
  }

  /** Record i's hex. */
  hexOf(i: number): string {
    return this.search.hexOf(i);
  }

  /** Record i's latitude, degrees; NaN without a position. */
  latOf(i: number): number {
    return this.posLat[i]!;
  }

  /** Record i's longitude, degrees; NaN without a position. */
  lonOf(i: number): number {
    return this.posLon[i]!;
  }

  /** Record i's JSON bytes (a view into the body). */
  record(i: number): Buffer {
    return this.body.subarray(this.start[i]!, this.end[i]!);
  }

  /** /v1/aircraft body limited to records with a position inside the box (feed order). */
  bboxBody(b: Bbox): Buffer {
    return this.listBody(this.index.bbox(b), listHead(this.now, this.total, this.withPosition), CLOSE_LIST);
  }

  /**
   * The bbox answer as a payload shared by every request for the same box while this snapshot is
   * live: the body is assembled once, and its gzip made once on the libuv pool (a map's default
   * view, a region page: many clients ask the same box). the first BOX_CACHE boxes of a snapshot
   * are kept; past that each request assembles its own (a flood of distinct boxes costs what it did).
   */
  bboxPayload(b: Bbox): Payload {
    const key = `${b.minLon},${b.minLat},${b.maxLon},${b.maxLat}`;
    const hit = this.boxes.get(key);
    if (hit) return hit;
    const p: Payload = { raw: this.bboxBody(b) };
    if (this.boxes.size >= BOX_CACHE) return p;
    // the first request that needs it compressed before the gzip below is done makes one for all
    // (the boundary keeps it: Payload.keep), instead of each request making its own
    p.keep = true;
    this.boxes.set(key, p);
    if (p.raw!.length >= GZIP_MIN_BYTES) {
      gzipAsync(p.raw!, { level: GZIP_LEVEL }).then(
        (gz) => void (p.gz = gz),
        () => {}, // the requests gzip it themselves
      );
    }
    return p;
  }

  /** `head`, the listed records joined by commas (as prepared: one copy each), then `tail` */
  listBody(ids: ArrayLike<number> & Iterable<number>, head: string, tail: string): Buffer {
    let size = head.length + tail.length + Math.max(0, ids.length - 1);
    for (const i of ids) size += this.end[i]! - this.start[i]!;
    const out = Buffer.allocUnsafe(size);
    let at = out.write(head, 0, 'latin1');
    for (let k = 0; k < ids.length; k++) {
      if (k > 0) out[at++] = 0x2c; // ,
      at += this.body.copy(out, at, this.start[ids[k]!]!, this.end[ids[k]!]!);
    }
    out.write(tail, at, 'latin1');
    return out;
  }

  /**
   * The /v2/point body: `head`, then the `ac` array (records within the radius, nearest first,
   * each with `dst` in nm to 3 decimals spliced in before its closing brace), then `tail(count)`.
   * one copy per record, into this thread's scratch buffer: the answer is a view of it, valid until
   * the thread's next point answer (Payload.transient), so no buffer is allocated per answer (at
   * thousands of 80 KB answers a second their collection was a tenth of a serving thread's time).
   */
  pointBody(lat: number, lon: number, radiusNm: number, head: string, tail: (count: number) => string): Buffer {
    const near = this.index.within(lat, lon, radiusNm);
    const n = near.ids.length;
    let size = 0;
    // the record's own `}` is replaced by the dst tail: at most DST_TAIL_MAX bytes
    for (let k = 0; k < n; k++) size += this.end[near.ids[k]!]! - 1 - this.start[near.ids[k]!]! + DST_TAIL_MAX;
    const open = `${head}[`;
    const close = `]${tail(n)}`;
    size += open.length + close.length + Math.max(0, n - 1);
    const out = scratchOf(size);
    let at = out.write(open, 0, 'latin1');
    for (let k = 0; k < n; k++) {
      if (k > 0) out[at++] = 0x2c; // ,
      const i = near.ids[k]!;
      at += this.body.copy(out, at, this.start[i]!, this.end[i]! - 1);
      at = writeDstTail(out, at, near.dst[k]!);
    }
    at += out.write(close, at, 'latin1');
    return out.subarray(0, at);
  }
}

// the point answers' scratch buffer (one per thread: each thread has its own module instance)
let scratch = Buffer.allocUnsafeSlow(64 * 1024);
/** A scratch buffer of at least `size` bytes (grown by doubling, never shrunk). */
function scratchOf(size: number): Buffer {
  if (scratch.length < size) scratch = Buffer.allocUnsafeSlow(Math.max(size, 2 * scratch.length));
  return scratch;
}

const DST_OPEN = Buffer.from(',"dst":', 'latin1');
/** `,"dst":` + up to 5 digits (half the earth is 10,800 nm) + `.` + 3 decimals + `}` */
const DST_TAIL_MAX = DST_OPEN.length + 5 + 1 + 3 + 1;

/**
 * `,"dst":<nm>}` with nm to 3 decimals, written digit by digit: the text `${Math.round(nm * 1000) / 1000}`
 * gives (no trailing zeros, no decimal point for a whole number; test/server/live/snapshot.test.ts)
 * without making a string per record.
 */
export function writeDstTail(out: Buffer, at: number, nm: number): number {
  // byte by byte: a Buffer.copy per record cost more than the 7 bytes it copies
  for (let k = 0; k < DST_OPEN.length; k++) out[at++] = DST_OPEN[k]!;
  const milli = Math.round(nm * 1000);
  const whole = Math.floor(milli / 1000);
  let frac = milli - whole * 1000;
  at = writeUint(out, at, whole);
  if (frac > 0) {
    out[at++] = 0x2e; // .
    let digits = 3;
    while (frac % 10 === 0) {
      frac /= 10;
      digits--;
    }
    for (let d = digits - 1, f = frac; d >= 0; d--) {
      out[at + d] = 0x30 + (f % 10);
      f = Math.floor(f / 10);
    }
    at += digits;
  }
  out[at++] = 0x7d; // }
  return at;
}

function writeUint(out: Buffer, at: number, v: number): number {
  let len = 1;
  for (let x = v; x >= 10; x = Math.floor(x / 10)) len++;
  for (let d = len - 1, x = v; d >= 0; d--) {
    out[at + d] = 0x30 + (x % 10);
    x = Math.floor(x / 10);
  }
  return at + len;
}
