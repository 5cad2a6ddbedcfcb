// a version's manifest.json read into an ObjectTable (object-table.ts) and written from one,
// without the object per entry that JSON.parse and JSON.stringify go through: a year's manifest is
// 271 MB naming 2 M objects, and JSON.parse took 4.0 s and 446 MB of V8's heap, JSON.stringify
// 2.7 s (docs/perf-log/nightly-steady-state.md, night 8). the text written is exactly JSON.stringify({ ...header, objects }), and that
// layout is scanned byte by byte; a manifest in any other layout (spaced, its members in another
// order, written by another tool) is read with JSON.parse instead, its entries checked the same.
// the scanner and the entries' writer also serve the manifest an upload keeps in the bucket
// (build/upload/remote-manifest.ts), whose entries are spelled without gzip_bytes (EntryLayout).
import { closeSync, openSync, readFileSync, writeSync } from 'node:fs';
import { assertValid } from '../schemas/index.ts';
import type { Manifest, ManifestHeader } from './manifest.ts';
import { ObjectTable } from './object-table.ts';

export interface TableManifest {
  header: ManifestHeader;
  objects: ObjectTable;
}

const OBJECTS = Buffer.from('"objects":{');
const SHA_AT = Buffer.from(':{"sha256":"');
const BYTES_AT = Buffer.from('","bytes":');
const GZIP_AT = Buffer.from(',"gzip_bytes":');
const QUOTE = 0x22;
const COMMA = 0x2c;
const OPEN = 0x7b;
const CLOSE = 0x7d;

/** whether `lit` is at `src[p]` */
export const isAt = (src: Buffer, p: number, lit: Buffer) => p + lit.length <= src.length && src.compare(lit, 0, lit.length, p, p + lit.length) === 0;

/** the whole number of up to 15 digits at `src[p]` and where it ends, or null */
function wholeAt(src: Buffer, p: number): [number, number] | null {
  let n = 0;
  const from = p;
  for (; p < src.length && src[p]! >= 0x30 && src[p]! <= 0x39; p++) n = n * 10 + src[p]! - 0x30;
  const len = p - from;
  return len === 0 || len > 15 || (len > 1 && src[from] === 0x30) ? null : [n, p];
}

/**
 * How a manifest's entries are spelled: a version's `{"sha256":..,"bytes":..,"gzip_bytes":..}`,
 * or `{"sha256":..,"bytes":..}` for the manifest an upload keeps in the bucket (build/upload:
 * `bytes` as stored: the table's gzip length, and both of its lengths when read).
 */
export type EntryLayout = 'version' | 'stored';

/**
 * The entries of the `"objects":{...}` member at `src[at]` in the layout objectChunks writes, and
 * where the member ends (after its closing brace); null when the text is not in that layout.
 */
export function scanObjects(src: Buffer, at: number, layout: EntryLayout = 'version'): { objects: ObjectTable; end: number } | null {
  const t = new ObjectTable();
  let p = at + OBJECTS.length;
  if (src[p] === CLOSE) return { objects: t, end: p + 1 };
  for (;;) {
    if (src[p] !== QUOTE) return null;
    const ks = p + 1;
    const ke = src.indexOf(QUOTE, ks);
    if (ke < 0) return null;
    for (let k = ks; k < ke; k++) if (src[k]! < 0x20 || src[k]! > 0x7e || src[k] === 0x5c) return null;
    p = ke + 1;
    if (!isAt(src, p, SHA_AT)) return null;
    const shaAt = p + SHA_AT.length;
    p = shaAt + 64;
    if (!isAt(src, p, BYTES_AT)) return null;
    const bytes = wholeAt(src, p + BYTES_AT.length);
    if (!bytes) return null;
    let gzip = bytes;
    if (layout === 'version') {
      const g = isAt(src, bytes[1], GZIP_AT) ? wholeAt(src, bytes[1] + GZIP_AT.length) : null;
      if (!g) return null;
      gzip = g;
    }
    if (src[gzip[1]] !== CLOSE || !t.addFrom(src, ks, ke, shaAt, bytes[0], gzip[0])) return null;
    p = gzip[1] + 1;
    if (src[p] === COMMA) p++;
    else return src[p] === CLOSE ? { objects: t, end: p + 1 } : null;
  }
}

/** whether only white space follows `src[p]` */
function onlySpaceFrom(src: Buffer, p: number): boolean {
  for (; p < src.length; p++) if (![0x20, 0x0a, 0x0d, 0x09].includes(src[p]!)) return false;
  return true;
}

/** where the `"objects":{` member of a manifest's text starts, or -1 (the first one is it: no header value holds one, strings escape their quotes) */
export function objectsAt(src: Buffer): number {
  const at = src.indexOf(OBJECTS);
  return at > 0 && (src[at - 1] === COMMA || src[at - 1] === OPEN) ? at : -1;
}

/**
 * `objects` as JSON.stringify spells them in `layout`, a megabyte of text at a time, without the
 * member's braces (keys are printable ASCII without a quote or a backslash: object-table.ts, so
 * their JSON is themselves in quotes)
 */
export function* objectChunks(objects: ObjectTable, layout: EntryLayout = 'version'): Generator<string> {
  let chunk = '';
  for (let i = 0; i < objects.size; i++) {
    const lengths = layout === 'version' ? `${objects.bytesAt(i)},"gzip_bytes":${objects.gzipAt(i)}` : objects.gzipAt(i);
    chunk += `${i ? ',' : ''}"${objects.keyAt(i)}":{"sha256":"${objects.shaAt(i)}","bytes":${lengths}}`;
    if (chunk.length >= 1 << 20) {
      yield chunk;
      chunk = '';
    }
  }
  if (chunk) yield chunk;
}

/** a manifest read: `scanned` when its text was in writeManifestFile's layout (else JSON.parse read it) */
export interface ReadManifest extends TableManifest {
  scanned: boolean;
}

/**
 * A manifest's text as its header and an ObjectTable. The header is checked against the manifest's
 * schema; the entries' sha256 must be 64 lowercase hex digits and their lengths whole numbers.
 * Throws on text that is not such a manifest.
 */
export function parseManifest(src: Buffer): ReadManifest {
  const at = objectsAt(src);
  // the objects are the last member: the manifest's closing brace, then at most white space
  const scan = at < 0 ? null : scanObjects(src, at);
  const objects = scan && src[scan.end] === CLOSE && onlySpaceFrom(src, scan.end + 1) ? scan.objects : null;
  const m = JSON.parse(objects ? `${src.toString('utf8', 0, at)}"objects":{}}` : src.toString('utf8')) as Manifest;
  if (m === null || typeof m !== 'object' || m.objects === null || typeof m.objects !== 'object' || Array.isArray(m.objects))
    throw new Error('a manifest is an object with an object of objects');
  const { objects: all, ...header } = m;
  assertValid('manifest', { ...header, objects: {} }, 'manifest');
  return { header, objects: objects ?? ObjectTable.fromRecord(all), scanned: objects !== null };
}

/** parseManifest of a file */
export function readManifestFile(file: string): ReadManifest {
  const src = readFileSync(file);
  try {
    return parseManifest(src);
  } catch (e) {
    throw new Error(`${file}: ${(e as Error).message}`);
  }
}

/** Write `header` and `objects` to `file` as JSON.stringify({ ...header, objects }) would, a megabyte at a time. */
export function writeManifestFile(file: string, header: ManifestHeader, objects: ObjectTable): void {
  const fd = openSync(file, 'w');
  try {
    writeSync(fd, JSON.stringify({ ...header, objects: {} }).slice(0, -2));
    for (const chunk of objectChunks(objects)) writeSync(fd, chunk);
    writeSync(fd, '}}');
  } finally {
    closeSync(fd);
  }
}
