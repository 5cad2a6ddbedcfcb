// a version's seal on its objects' names. taking a version over (recycle.ts) needs to know that its
// object folders hold exactly the files its manifest names; walking them to see costs a readdir of
// every name (2 M on the simulated year: 8.6 s of system time of the 28 s the check took, and ~2 s
// more to look each name up). a folder's ctime changes whenever a name in it is added, removed or
// renamed, and a version's names never change after its commit: so the writer, after its last
// change to the folder's names (writeManifest), records the ctime of every folder its objects are in
// and which manifest.json it wrote, and the take-over compares: all equal, the names are as the
// writer left them. anything else (no seal, a folder changed, another manifest) falls back to the walk.
// - ctimes come from a coarse clock (a few ms): a change in the same tick as the seal would leave a
//   folder's ctime as recorded. so the seal is made only once the clock has moved past every
//   recorded ctime (the seal file's own ctime is later than all of them); a later change then
//   always gives a later ctime.
// - a folder no object is in (one the writer emptied) would go unrecorded, and a stray file put in it
//   later unseen: the writer removes the folders its removals empty, and the seal checks each
//   folder's link count (2 + its subfolders, on ext4 and most Linux file systems): a subfolder it
//   does not record means no seal. a file system whose folders do not count their subfolders
//   (btrfs) gets no seal, and the walk.
// - only names: a file's content is trusted as the walk trusted it (the manifest says what it is).
import { lstatSync, mkdirSync, readFileSync, renameSync, rmdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { MANIFEST_FILE } from '../../artifacts/tree.ts';

/** where a version keeps its seal (with the build's other state) */
export const NAMES_SEAL = join('state', 'names-seal.json');

interface Seal {
  /** manifest.json's inode, size and mtime (ns) when sealed: a manifest written again or replaced is not the one sealed */
  manifest: [string, string, string];
  /** each object folder (relative, '/'-separated, no trailing slash) and its ctime in ns */
  folders: Record<string, string>;
}

/**
 * The object folders of a build, gathered key by key as the writer records its objects: a key in
 * the same folder as the one before costs a startsWith and an indexOf (keys come kind by kind).
 */
export class ObjectFolders {
  readonly all = new Set<string>();
  /** a key outside any folder (its file beside manifest.json, where no folder's ctime covers it): such a version is not sealed */
  flat = false;
  private last = '\0';

  add(key: string): void {
    if (key.startsWith(this.last) && key.indexOf('/', this.last.length) < 0) return;
    const slash = key.lastIndexOf('/');
    if (slash < 0) {
      this.flat = true;
      return;
    }
    const folder = key.slice(0, slash);
    this.last = `${folder}/`;
    for (let f = folder; f && !this.all.has(f); f = parentOf(f)) this.all.add(f);
  }
}

/** 'v1/a/b' -> 'v1/a'; a top folder -> '' */
const parentOf = (folder: string) => folder.slice(0, Math.max(folder.lastIndexOf('/'), 0));
const manifestId = (dir: string): [string, string, string] => {
  const s = statSync(join(dir, MANIFEST_FILE), { bigint: true });
  return [String(s.ino), String(s.size), String(s.mtimeNs)];
};

/** the file system's clock as the seal reads it: a file's ctime, and a way to wait for it to move */
export interface SealClock {
  ctimeOf(file: string): bigint;
  sleep(ms: number): void;
}
const FILE_SYSTEM_CLOCK: SealClock = {
  ctimeOf: (file) => statSync(file, { bigint: true }).ctimeNs,
  sleep: (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms),
};
/** waits of 5 ms for the clock to move before the seal is given up (half a second) */
const MAX_WAITS = 100;

/**
 * Seal the names of the version folder `dir`, whose objects are in `objects`' folders and whose
 * manifest.json is written: true when sealed. false (and no seal left) when a folder holds a
 * subfolder no object is in, or is missing, or a key is in no folder. Replaces the seal the folder
 * may hold (a link to an older version's, which is not written through).
 */
export function sealNames(dir: string, objects: ObjectFolders, clock: SealClock = FILE_SYSTEM_CLOCK): boolean {
  const file = join(dir, NAMES_SEAL);
  const tmp = `${file}.tmp-${process.pid}`;
  rmSync(file, { force: true });
  if (objects.flat) return false;
  const folders = objects.all;
  const children = new Map<string, number>();
  for (const f of folders) children.set(parentOf(f), (children.get(parentOf(f)) ?? 0) + 1);
  const seal: Seal = { manifest: manifestId(dir), folders: {} };
  let latest = 0n;
  for (const f of folders) {
    let s;
    try {
      s = lstatSync(join(dir, f), { bigint: true });
    } catch {
      return false;
    }
    if (!s.isDirectory() || s.nlink !== 2n + BigInt(children.get(f) ?? 0)) return false;
    seal.folders[f] = String(s.ctimeNs);
    if (s.ctimeNs > latest) latest = s.ctimeNs;
  }
  const text = JSON.stringify(seal);
  mkdirSync(dirname(file), { recursive: true });
  for (let attempt = 0; ; attempt++) {
    writeFileSync(tmp, text);
    if (clock.ctimeOf(tmp) > latest) break;
    rmSync(tmp, { force: true });
    if (attempt === MAX_WAITS) return false;
    clock.sleep(5);
  }
  renameSync(tmp, file);
  return true;
}

/** Whether `dir` holds a seal (sealNames) of its current manifest.json that every object folder still matches. */
export function namesSealed(dir: string): boolean {
  let seal: Seal;
  try {
    seal = JSON.parse(readFileSync(join(dir, NAMES_SEAL), 'utf8')) as Seal;
    if (manifestId(dir).join() !== seal.manifest.join()) return false;
  } catch {
    return false;
  }
  for (const f in seal.folders) {
    try {
      if (String(lstatSync(join(dir, f), { bigint: true }).ctimeNs) !== seal.folders[f]) return false;
    } catch {
      return false;
    }
  }
  return true;
}

/**
 * Remove the folders of `removed` keys (objects of `dir` removed) that no object of `objects` is in,
 * and their parents likewise, where empty: a folder left empty would hold no object and go
 * unrecorded by the seal. a folder that is not empty (a stray file) stays, and keeps the version unsealed.
 */
export function removeEmptied(dir: string, removed: Iterable<string>, objects: ObjectFolders): void {
  const emptied = new Set<string>();
  for (const key of removed) for (let f = parentOf(key); f && !objects.all.has(f) && !emptied.has(f); f = parentOf(f)) emptied.add(f);
  // a folder before its parent: a child's path is the longer
  for (const f of [...emptied].sort((a, b) => b.length - a.length)) {
    try {
      rmdirSync(join(dir, f));
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code !== 'ENOTEMPTY' && code !== 'EEXIST' && code !== 'ENOENT') throw e;
    }
  }
}
