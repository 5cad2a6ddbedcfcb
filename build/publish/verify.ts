// what a new version hard-links from the published one is checked against that version's manifest
// before a night keeps it (issue 47: a corrupted object was carried into every later build, its
// inode linked night after night). every night each object's file is stat'ed: a size other than the
// manifest's gzip length, or a file modified after its version's manifest was written (mtime: a
// version's files are all written before its manifest, cp -al and renames keep mtimes, and an
// overwrite in place, `dd conv=notrunc`, moves it) is bad, or hashed to be sure. the full check
// (`--verify`, `--rebuild`) gunzips every object and compares its length and sha256.
// a bad object is never written into (its inode is the published version's): the nightly builds it
// again and the writer (writer.ts distrust) writes a new file under its name. costs: docs/performance.md.
import { readFileSync, statSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { fileOf } from '../../artifacts/keys.ts';
import { MANIFEST_FILE } from '../../artifacts/tree.ts';
import type { ObjectTable } from '../../artifacts/object-table.ts';
import { readManifestFile } from '../../artifacts/manifest-file.ts';
import { tsWorker } from '../../lib/ts-worker.ts';

interface BadObject {
  key: string;
  why: string;
}

export interface Verified {
  /** objects stat'ed */
  checked: number;
  /** objects gunzipped and hashed (every one with `full`, else those modified after the manifest) */
  hashed: number;
  full: boolean;
  bad: BadObject[];
  ms: number;
}

/** why the file `file` does not hold entry `i` of `objects` (gzip JSON of that length and sha256), or null when it does */
function contentProblem(file: string, objects: ObjectTable, i: number): string | null {
  let json: Buffer;
  try {
    json = gunzipSync(readFileSync(file));
  } catch (e) {
    return `not readable gzip (${(e as Error).message})`;
  }
  if (json.length !== objects.bytesAt(i)) return `${json.length} bytes of JSON, the manifest says ${objects.bytesAt(i)}`;
  if (!objects.shaIs(i, createHash('sha256').update(json).digest())) return "its sha256 is not the manifest's";
  return null;
}

/** Check the files of the version folder `dir` against its objects (its manifest's); `full`: hash every one. */
function verifyVersion(dir: string, objects: ObjectTable, full: boolean): Verified {
  const t0 = Date.now();
  const sealedAt = statSync(join(dir, MANIFEST_FILE)).mtimeMs;
  const bad: BadObject[] = [];
  let hashed = 0;
  for (let i = 0; i < objects.size; i++) {
    const key = objects.keyAt(i);
    const file = join(dir, fileOf(key));
    const s = statSync(file, { throwIfNoEntry: false });
    let why: string | null = null;
    if (!s) why = 'missing';
    else if (!s.isFile()) why = 'not a file';
    else if (s.size !== objects.gzipAt(i)) why = `${s.size} bytes, the manifest says ${objects.gzipAt(i)}`;
    else if (full || s.mtimeMs > sealedAt) {
      hashed++;
      const problem = contentProblem(file, objects, i);
      if (problem) why = full ? problem : `modified after its version was published; ${problem}`;
    }
    if (why) bad.push({ key, why });
  }
  return { checked: objects.size, hashed, full, bad, ms: Date.now() - t0 };
}

export interface VerifyJob {
  dir: string;
  full: boolean;
}

export type VerifyReply = { ok: true; verified: Verified } | { ok: false; message: string };

/** verifyVersion of the published folder `dir` (its manifest read there) on a worker thread, beside the build's first steps */
export function verifyInWorker(dir: string, full: boolean): Promise<Verified> {
  return new Promise<Verified>((resolve, reject) => {
    const w = tsWorker(new URL('./verify-worker.ts', import.meta.url), { workerData: { dir, full } satisfies VerifyJob });
    w.once('message', (r: VerifyReply) => (r.ok ? resolve(r.verified) : reject(new Error(`cannot check ${dir}: ${r.message}`))));
    w.once('error', reject);
    w.once('exit', (code) => reject(new Error(`the check of ${dir} exited with code ${code} before it answered`)));
  });
}

/** verifyVersion of `dir` with its own manifest read here (the worker's body) */
export function verifyFolder(dir: string, full: boolean): Verified {
  return verifyVersion(dir, readManifestFile(join(dir, MANIFEST_FILE)).objects, full);
}

/** A warning naming the bad objects (the first `shown`) and what happens to them. */
export function badReport(build: string, v: Verified, shown = 20): string {
  const list = v.bad
    .slice(0, shown)
    .map((b) => `${b.key} (${b.why})`)
    .join(', ');
  const more = v.bad.length > shown ? `, and ${v.bad.length - shown} more` : '';
  return (
    `verify: build ${build}: ${v.bad.length} of ${v.checked} objects do not match its manifest: ${list}${more}; ` +
    'tonight every document is built again (no reuse) and these are written as new files, the published ones left as they are'
  );
}
