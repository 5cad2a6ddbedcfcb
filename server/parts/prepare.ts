// one feed snapshot made ready to serve, as flat parts: every record serialised once into one
// buffer that IS the whole /v1/aircraft body, the records' offsets and positions, the spatial
// and search indexes, and (on the ingest thread) the whole body's gzip and brotli. the parts are
// plain bytes, typed arrays and a few strings, so they cross from the ingest thread to the serving
// thread by transfer, without copying and without one object per aircraft (ingest/ingest-worker.ts).
// parts/ holds this form and the indexes that read it: made on the ingest thread, read by live/,
// the followers and the serving threads, and importing only feed/ (docs/ARCHITECTURE.md).
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { brotliOptions } from '../../lib/brotli.ts';
import type { FeedSnapshot } from '../feed/record.ts';
import { wireOf } from '../feed/wire.ts';
import { searchParts, type SearchParts } from './search-index.ts';
import { spatialParts, type SpatialParts } from './spatial.ts';
import { columnArrays, recordColumns, type RecordColumns } from './columns.ts';

export interface SnapshotParts {
  /** snapshot time, unix seconds */
  now: number;
  /** aircraft in the snapshot (2.2 aircraft_count, /v1/aircraft total) */
  total: number;
  /** of those, with a position */
  withPosition: number;
  /** the whole /v1/aircraft body, uncompressed; record i is body[start[i], end[i]) and ends with `}` */
  body: Uint8Array;
  start: Uint32Array;
  end: Uint32Array;
  /** record i's position in degrees, NaN without one */
  posLat: Float64Array;
  posLon: Float64Array;
  index: SpatialParts;
  search: SearchParts;
  /** what the trace store and estimator read, as columns (they take the snapshot without objects) */
  columns: RecordColumns;
  /** the whole body compressed, when made where the parts were made */
  gz?: Uint8Array;
  br?: Uint8Array;
}

// gzip level 6 (zlib's default) and brotli quality 5: compressed once per snapshot, sent many
// times, so size wins; brotli 5 is 4.5 % smaller than gzip 6 on the 12k snapshot for 1.8x its time
// (q6: 1 % smaller again for 7 % more time; q7: 70 % more time), measured by a probe script (not kept) on it
export const GZIP_LEVEL = 6;
export const BROTLI_QUALITY = 5;

const OPEN_LIST = '"aircraft":[';
export const CLOSE_LIST = ']}';
const NON_ASCII = /[^\x00-\x7f]/;

/** The head of a /v1/aircraft body, up to the opening bracket of its list. */
export const listHead = (now: number, total: number, withPosition: number) =>
  `{"generated_at":${now},"total":${total},"with_position":${withPosition},${OPEN_LIST}`;

/** Prepare a snapshot's parts (no compression: see compressParts). */
export function prepareParts(snap: FeedSnapshot): SnapshotParts {
  const list = snap.aircraft;
  const n = list.length;
  const start = new Uint32Array(n);
  const end = new Uint32Array(n);
  const posLat = new Float64Array(n).fill(NaN);
  const posLon = new Float64Array(n).fill(NaN);
  let withPos = 0;
  for (let i = 0; i < n; i++) if (list[i]!.lat !== undefined && list[i]!.lon !== undefined) withPos++;
  const lats = new Float64Array(withPos);
  const lons = new Float64Array(withPos);
  const ids = new Int32Array(withPos);
  for (let i = 0, k = 0; i < n; i++) {
    const a = list[i]!;
    if (a.lat !== undefined && a.lon !== undefined) {
      posLat[i] = lats[k] = a.lat;
      posLon[i] = lons[k] = a.lon;
      ids[k++] = i;
    }
  }
  const head = listHead(snap.now, n, withPos);
  let body: Buffer;
  const wire = wireOf(snap);
  if (wire) {
    // the scanner already wrote every record (ASCII, joined by commas): one copy, no stringify
    body = Buffer.allocUnsafeSlow(head.length + wire.bytes.length + CLOSE_LIST.length);
    let at = body.write(head, 0, 'latin1');
    at += wire.bytes.copy(body, at);
    body.write(CLOSE_LIST, at, 'latin1');
    for (let i = 0; i < n; i++) {
      start[i] = head.length + wire.start[i]!;
      end[i] = head.length + wire.end[i]!;
    }
  } else {
    // records come from feed/parse.ts in spec order with the wire fields only (record.ts), so a
    // plain stringify is exact
    const parts: string[] = new Array(n);
    for (let i = 0; i < n; i++) parts[i] = JSON.stringify(list[i]!);
    const joined = head + parts.join(',') + CLOSE_LIST;
    // parse.ts keeps every string printable ASCII, so string offsets are byte offsets; records
    // made elsewhere (a simulator) may not be: then measure each one in utf-8
    const ascii = !NON_ASCII.test(joined);
    let at = head.length;
    for (let i = 0; i < n; i++) {
      start[i] = at;
      at += ascii ? parts[i]!.length : Buffer.byteLength(parts[i]!);
      end[i] = at;
      at += 1; // the comma
    }
    const bytes = Buffer.from(joined, ascii ? 'latin1' : 'utf8');
    // a buffer of its own (not a slice of Node's pool), so it can be transferred
    body = Buffer.allocUnsafeSlow(bytes.length);
    bytes.copy(body);
  }
  return {
    now: snap.now,
    total: n,
    withPosition: withPos,
    body,
    start,
    end,
    posLat,
    posLon,
    index: spatialParts(lats, lons, ids),
    search: searchParts(list),
    columns: recordColumns(list),
  };
}

/** Compress the whole body here and now (the ingest thread's work): gzip always, brotli when asked. */
export function compressParts(p: SnapshotParts, brotli: boolean): void {
  p.gz = gzipSync(p.body, { level: GZIP_LEVEL });
  if (brotli) p.br = brotliCompressSync(p.body, brotliOptions(BROTLI_QUALITY, p.body.length));
}

/** The buffers that move with the parts (each must own its whole ArrayBuffer: see ownAll). */
export function transferList(p: SnapshotParts): ArrayBuffer[] {
  const views = [
    p.body,
    p.start,
    p.end,
    p.posLat,
    p.posLon,
    p.index.lon,
    p.index.lat,
    p.index.id,
    p.index.xyz,
    p.search.hexes,
    ...Object.values(p.search.tables).flatMap((t) => [t.keys, t.off, t.ids]),
    ...(p.columns ? columnArrays(p.columns) : []),
    p.gz,
    p.br,
  ];
  const out = new Set<ArrayBuffer>();
  for (const v of views) if (v && v.byteLength > 0) out.add(v.buffer as ArrayBuffer);
  return [...out];
}

/** Copy out any view that shares its ArrayBuffer (zlib's output may), so the list can be transferred. */
export function ownAll(p: SnapshotParts): SnapshotParts {
  const own = <T extends Uint8Array>(v: T | undefined): T | undefined =>
    v && (v.byteOffset !== 0 || v.byteLength !== v.buffer.byteLength) ? (new Uint8Array(v) as T) : v;
  return { ...p, body: own(p.body)!, gz: own(p.gz), br: own(p.br) };
}

/**
 * A serving thread's own copy of the parts (server/serve/): every array copied into a buffer of
 * its own, without the columns (only the main thread's trace store reads them), to be
 * transferred. made on the ingest thread, so no serving thread copies anything; the copy is the
 * worker's alone, so its own collector frees it (shared buffers, tried first, piled up in an idle
 * worker: 1 GB in three minutes of bench/memory.ts, its heap too small to ever collect).
 */
export function servingCopy(p: SnapshotParts): SnapshotParts {
  const { columns: _, ...rest } = p;
  return copyViews(rest) as SnapshotParts;
}

function copyViews<T>(v: T): T {
  if (ArrayBuffer.isView(v)) {
    const bytes = new Uint8Array(v.buffer, v.byteOffset, v.byteLength);
    const own = new ArrayBuffer(v.byteLength);
    new Uint8Array(own).set(bytes);
    // a Buffer comes back as a plain Uint8Array (the serving side wraps it again)
    const Kind = (Buffer.isBuffer(v) ? Uint8Array : v.constructor) as new (b: ArrayBuffer) => T;
    return new Kind(own);
  }
  if (Array.isArray(v)) return v.map((x) => copyViews(x)) as T;
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, copyViews(x)])) as T;
  return v;
}
