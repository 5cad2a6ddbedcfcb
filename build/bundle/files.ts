// adapter: the published files are written atomically and only when their bytes change. a new
// version goes to a hidden temporary in the target's folder, is synced, then renamed over the old
// one: a reader (nginx, the live server, a range reader between two requests) sees the old file or
// the new one, never half a file; a file whose bytes are unchanged keeps its inode and mtime, so
// its ETag and Last-Modified stay and caches stay valid.
import { createHash } from 'node:crypto';
import {
  closeSync,
  copyFileSync,
  fsyncSync,
  linkSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';

export const sha256 = (b: Buffer | string) => createHash('sha256').update(b).digest('hex');
const sha256File = (file: string) => sha256(readFileSync(file));

const TMP_PREFIX = '.tmp-';

export interface Written {
  sha256: string;
  bytes: number;
  /** false: the file already held these bytes and was left alone */
  changed: boolean;
}

function syncFile(file: string): void {
  const fd = openSync(file, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** The sha256 of a file, or null when there is none; `was` (the index's record) is trusted while the size agrees. */
function shaOrNull(file: string, was?: { sha256: string; bytes: number }): string | null {
  try {
    if (was && statSync(file).size === was.bytes) return was.sha256;
    return sha256File(file);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw e;
  }
}

/**
 * `to` as a hard link to `from` (no second copy of a year of log on the disk), or a copy when the
 * two are on different file systems. safe because nothing writes a published source in place: the
 * log's writer replaces a day by rename (build/log/write.ts), which leaves this link on the old
 * bytes; the link is synced like a copy (its inode is the source's, already synced by its writer).
 */
function linkOrCopy(from: string, to: string): void {
  try {
    linkSync(from, to);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code !== 'EXDEV' && code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EMLINK') throw e;
    copyFileSync(from, to);
  }
}

/**
 * `to` is a link to `from` of the size the index recorded: the same bytes, read by nobody (a linked
 * source is never written in place, linkOrCopy), so a year of linked log and points files is not
 * hashed again each night.
 */
function sameInode(from: string, to: string, bytes: number): boolean {
  try {
    const a = statSync(from);
    const b = statSync(to);
    return a.ino === b.ino && a.dev === b.dev && b.size === bytes;
  } catch {
    return false;
  }
}

/**
 * Puts `from` (a file to link or copy, or bytes) at `to` unless `to` already holds the same bytes.
 * `from.sha256`: its hash when the caller has it (the log's files are hashed once); `was`: what the
 * previous index recorded for `to`, so an unchanged file is not read again.
 */
export function publishFile(to: string, from: { file: string; sha256?: string } | { data: Buffer }, was?: { sha256: string; bytes: number }): Written {
  if (!('data' in from) && was && sameInode(from.file, to, was.bytes)) return { sha256: was.sha256, bytes: was.bytes, changed: false };
  const sha = 'data' in from ? sha256(from.data) : (from.sha256 ?? sha256File(from.file));
  const bytes = 'data' in from ? from.data.length : statSync(from.file).size;
  if (shaOrNull(to, was) === sha) return { sha256: sha, bytes, changed: false };
  mkdirSync(dirname(to), { recursive: true });
  const tmp = join(dirname(to), `${TMP_PREFIX}${process.pid}-${to.split('/').pop()}`);
  try {
    if ('data' in from) writeFileSync(tmp, from.data);
    else linkOrCopy(from.file, tmp);
    syncFile(tmp);
    renameSync(tmp, to);
  } catch (e) {
    rmSync(tmp, { force: true });
    throw e;
  }
  return { sha256: sha, bytes, changed: true };
}

/**
 * Removes what no longer belongs under `dir`: every entry whose name `keep` refuses (a day gone
 * from the log, a killed run's temporaries). Returns the paths removed, relative to `dir`.
 */
export function prune(dir: string, keep: (name: string) => boolean): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const n of names) {
    if (keep(n) && !n.startsWith(TMP_PREFIX)) continue;
    rmSync(join(dir, n), { recursive: true, force: true });
    removed.push(n);
  }
  return removed;
}
