// one object's bytes on disk: gzip the JSON text and write it, the same function on the main thread
// and in the write workers (write-worker.ts), so both paths give the same bytes.
import { closeSync, fstatSync, ftruncateSync, linkSync, openSync, renameSync, unlinkSync, writeFileSync, writeSync } from 'node:fs';
import { gzipSync } from 'node:zlib';

// most documents are a few hundred bytes: zlib's setup, not compression, is their cost, and a
// 4 KB window (windowBits 12) compresses them exactly as well at about 1.35x the speed (measured:
// 52k vs 39k docs/s). larger documents (an airframe's 200 legs, an airport's board) get the full
// window at level 4: on the year's airframes (19 KB of JSON each) 113-117 µs a document against
// 138-154 at level 6, for 13.15 % of the JSON against 12.77 % (bench/big-gzip.ts); the write worker
// bounds the year's airframes step, and level 3 would cost 8 % more bytes. both settings are
// deterministic, so unchanged documents keep their bytes night after night.
const SMALL_DOC = 4096;
const SMALL_GZIP = { level: 9, windowBits: 12, memLevel: 5 };
const BIG_GZIP = { level: 4 };

/** gzip of one document's JSON text (a string is taken as UTF-8) */
export function gzipDoc(json: string | Uint8Array): Buffer {
  const n = typeof json === 'string' ? Buffer.byteLength(json) : json.length;
  return gzipSync(json, n < SMALL_DOC ? SMALL_GZIP : BIG_GZIP);
}

/** what the name a document is written to holds, and so how it is written (writeGz); none set: a new name */
export interface WriteTarget {
  replace?: boolean;
  aside?: string | null;
  spare?: string | null;
}

/**
 * Write the gzip `gz` of a document to `file` (its folder exists); a name is never written through
 * while another name links its file (that is a previous version's object). `replace`: the name is a
 * hard link into the previous version: unlinked, then the file created (a temporary name renamed
 * over it when the background copy linked the name again in between, hard-link-copy.ts). `aside`:
 * the name holds a taken-over folder's own file (recycle.ts): written over in place when no other
 * name links it (writeOver; bench/replace-costs.ts on the year's tree: 22-35 µs a file the kernel
 * had not cached, against 79 µs to move it aside and create the file, whose inode is then freed
 * after the commit, ~90 µs more), else moved there first and the file created. `spare`: a
 * taken-over folder's file that no name needs any more (moved off a name the build linked to the
 * previous version's file, writer.ts): renamed over the name and written in place, so no file is
 * created for a name that held none of the folder's own (neither `aside` nor `replace` then
 * applies; a spare another name links is dropped again and the file created).
 */
export function writeGz(file: string, gz: Uint8Array, { replace, aside, spare }: WriteTarget = {}): void {
  if (spare) {
    renameSync(spare, file);
    if (writeOver(file, gz)) return;
    unlinkSync(file);
    writeFileSync(file, gz, { flag: 'wx' });
  } else if (aside) {
    if (writeOver(file, gz)) return;
    renameSync(file, aside);
    writeFileSync(file, gz, { flag: 'wx' });
  } else if (replace) {
    try {
      unlinkSync(file);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    }
    try {
      writeFileSync(file, gz, { flag: 'wx' });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      const tmp = `${file}.tmp`;
      writeFileSync(tmp, gz);
      renameSync(tmp, file);
    }
  } else {
    writeFileSync(file, gz, { flag: 'wx' });
  }
}

/** the page the kernel caches a file in (x86-64, and this ext4's block size) */
const PAGE = 4096;

/**
 * Write `gz` over the file `file` when it is its only name (its link count is 1) and say so; false,
 * nothing written, when another name links it. the bytes go in as whole pages, zero-padded, then
 * the file is cut to length: a write that covers part of a page the kernel has not cached makes it
 * read the old page first, and a taken-over folder's files are mostly not cached (85 % of a night's,
 * fincore): 122-133 µs a file written as is against 22-35 µs padded (bench/replace-costs.ts --ops
 * over-cold,partial-cold on the year's tree; in one night, every other write padded: 113 against
 * 29 µs). truncating to 0 first frees and reallocates the blocks (161 µs a file).
 */
export function writeOver(file: string, gz: Uint8Array): boolean {
  const fd = openSync(file, 'r+');
  try {
    if (fstatSync(fd).nlink !== 1) return false;
    const pages = padToPages(gz);
    for (let at = 0; at < pages.length; ) at += writeSync(fd, pages, at, pages.length - at, at);
    ftruncateSync(fd, gz.length);
    return true;
  } finally {
    closeSync(fd);
  }
}

/** `gz` followed by zeros up to a whole number of pages (itself when it fills them) */
function padToPages(gz: Uint8Array): Uint8Array {
  const padded = Math.ceil(gz.length / PAGE) * PAGE;
  if (padded === gz.length) return gz;
  const b = Buffer.allocUnsafe(padded);
  b.set(gz);
  b.fill(0, gz.length);
  return b;
}

/** Write `json` gzipped to `file` (writeGz) and return the gzip's length. */
export function writeGzipped(file: string, json: string | Uint8Array, to: WriteTarget = {}): number {
  const gz = gzipDoc(json);
  writeGz(file, gz, to);
  return gz.length;
}

/**
 * Make `file` a hard link to `source` (another version's object). `aside`: a taken-over folder's
 * own file is there, moved to that name first (as writeGz), never written through.
 */
export function relink(source: string, file: string, aside: string | null): void {
  if (aside) renameSync(file, aside);
  linkSync(source, file);
}
