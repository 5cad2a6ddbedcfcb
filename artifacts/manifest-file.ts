// a version's manifest.json read into an ObjectTable (object-table.ts) and written from one,
// without the object per entry that JSON.parse and JSON.stringify go through: a year's manifest is
// 271 MB naming 2 M objects, and JSON.parse took 4.0 s and 446 MB of V8's heap, JSON.stringify
// 2.7 s (README). the text written is exactly JSON.stringify({ ...header, objects }), and that
// layout is scanned byte by byte; a manifest in any other layout (spaced, its members in another
// order, written by another tool) is read with JSON.parse instead, its entries checked the same.
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
const isAt = (src: Buffer, p: number, lit: Buffer) => p + lit.length <= src.length && src.compare(lit, 0, lit.length, p, p + lit.length) === 0;

/** the whole number of up to 15 digits at `src[p]` and where it ends, or null */
function wholeAt(src: Buffer, p: number): [number, number] | null {
  let n = 0;
  const from = p;
  for (; p < src.length && src[p]! >= 0x30 && src[p]! <= 0x39; p++) n = n * 10 + src[p]! - 0x30;
  const len = p - from;
  return len === 0 || len > 15 || (len > 1 && src[from] === 0x30) ? null : [n, p];
}

/** the objects of the layout writeManifestFile writes, or null when the text is not in it */
function scanObjects(src: Buffer, at: number): ObjectTable | null {
  const t = new ObjectTable();
  let p = at + OBJECTS.length;
  if (src[p] === CLOSE) p++;
  else {
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
      if (!bytes || !isAt(src, bytes[1], GZIP_AT)) return null;
      const gzip = wholeAt(src, bytes[1] + GZIP_AT.length);
      if (!gzip || src[gzip[1]] !== CLOSE) return null;
      if (!t.addFrom(src, ks, ke, shaAt, bytes[0], gzip[0])) return null;
      p = gzip[1] + 1;
      if (src[p] === COMMA) p++;
      else if (src[p] === CLOSE) {
        p++;
        break;
      } else return null;
    }
  }
  // the objects are the last member: the manifest's closing brace, then at most white space
  if (src[p] !== CLOSE) return null;
  for (p++; p < src.length; p++) if (![0x20, 0x0a, 0x0d, 0x09].includes(src[p]!)) return null;
  return t;
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
  const at = src.indexOf(OBJECTS);
  // the first "objects":{ is the member: no header value holds one (strings escape their quotes, counts are numbers)
  const objects = at > 0 && (src[at - 1] === COMMA || src[at - 1] === OPEN) ? scanObjects(src, at) : null;
  const m = JSON.parse(objects ? `${src.toString('utf8', 0, at)}"objects":{}}` : src.toString('utf8')) as Manifest;
  if (m === null || typeof m !== 'object' || m.objects === null || typeof m.objects !== 'object' || Array.isArray(m.objects)) throw new Error('a manifest is an object with an object of objects');
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
  const head = JSON.stringify({ ...header, objects: {} });
  const fd = openSync(file, 'w');
  try {
    // keys are printable ASCII without a quote or a backslash (object-table.ts): their JSON is themselves in quotes
    let chunk = head.slice(0, -2);
    for (let i = 0; i < objects.size; i++) {
      chunk += `${i ? ',' : ''}"${objects.keyAt(i)}":{"sha256":"${objects.shaAt(i)}","bytes":${objects.bytesAt(i)},"gzip_bytes":${objects.gzipAt(i)}}`;
      if (chunk.length >= 1 << 20) {
        writeSync(fd, chunk);
        chunk = '';
      }
    }
    writeSync(fd, `${chunk}}}`);
  } finally {
    closeSync(fd);
  }
}
