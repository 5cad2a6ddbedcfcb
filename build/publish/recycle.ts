// a new version made from an old one instead of a hard-link copy of the current one. every build
// started from a hard-link copy of the current version's objects, and every commit pruned the
// oldest version: on the simulated year (2,046,668 objects) the copy is 2 M links (52 s of cp
// beside the steps) and the prune 2 M unlinks (67 s of `rm -rf`, 36 s of it system time), while a
// night changes ~330 k objects. so a build takes over the version its commit would prune
// (publish.ts, `recyclable`): checked by name against its own manifest (by its seal when intact,
// names-seal.ts, else a walk of its names), its files outside the objects (manifests, state/)
// replaced by the current version's, and its objects compared with the current ones by their
// manifests. the keys whose files differ ("dirty") are all the writer needs (writer.ts): an object
// the build writes goes over whatever the folder holds, an object it keeps is hard-linked from the
// current version only when dirty, and the folder's dirty objects the build does not produce are
// removed. so nothing is linked twice, and only what changed moves. a dirty
// name the build writes is written over in place where its file is the folder's own (no other
// version links it: gzip-file.ts), so no inode is freed or made; a name it writes whose file the
// current version shares takes a file the links set aside (writer.ts spares), not a new one. the
// folder's files under the dirty names it links or removes (and a shared one it writes) are moved
// to a trash folder, not removed: freeing an inode costs ~100 µs on a
// year's tree against ~32 µs for the move and ~19 µs to unlink a shared link, so those frees happen
// after the commit, in the background (publish.ts). a first attempt brought the whole folder up to date
// before the writes (330 k objects linked by temporary name and renamed into place: 66 s, the
// writes waiting 53 s): slower than the copy.
// a version that does not hold what its manifest says is not recycled (NotRecyclable: the caller
// empties it and copies as before). a file is written through only when no other name links it
// (its link count is 1): an old version's file may be shared with the current one or another kept version.
import { readdirSync, rmSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { MANIFEST_FILE } from '../../artifacts/tree.ts';
import type { ObjectTable } from '../../artifacts/object-table.ts';
import { readManifestFile } from '../../artifacts/manifest-file.ts';
import { tsWorker } from '../../lib/ts-worker.ts';
import { hardLinkCopy, hardLinkCopySync, hardLinkSync } from './hard-link-copy.ts';
import { namesSealed } from './names-seal.ts';

/** the version to recycle cannot be trusted to hold what its manifest says */
export class NotRecyclable extends Error {}

/** how the taken-over version differed from the current one */
export interface RecycleStats {
  /** objects the current version has and it lacked */
  added: number;
  /** objects both have, with other bytes */
  changed: number;
  /** objects only it had */
  removed: number;
  /** whether its names were walked (checkNames) because it held no intact seal (names-seal.ts) */
  walked: boolean;
}

/** the keys whose file in the taken-over folder is not the current version's: true where the folder has a file under that name */
export type Dirty = Map<string, boolean>;

export interface VersionDiff {
  /** keys the target has and the old version lacks */
  added: string[];
  /** keys both have, with other bytes */
  changed: string[];
  /** keys only the old version has */
  removed: string[];
  /** the top-level folders either version's objects are in (v1, meta): everything else of a version is copied whole */
  roots: Set<string>;
}

/** What turns the objects `own` into `target`. Same sha256 and gzip length: the same object (its JSON is the same; gzip is deterministic). */
export function versionDiff(own: ObjectTable, target: ObjectTable): VersionDiff {
  const d: VersionDiff = { added: [], changed: [], removed: [], roots: new Set() };
  // compared by entry number and key bytes (object-table.ts): no key string made but for the keys that differ
  for (let j = 0; j < target.size; j++) {
    const i = own.indexOfKeyOf(target, j);
    if (i < 0) d.added.push(target.keyAt(j));
    else if (!own.sameObject(i, target, j)) d.changed.push(target.keyAt(j));
  }
  for (let i = 0; i < own.size; i++) if (target.indexOfKeyOf(own, i) < 0) d.removed.push(own.keyAt(i));
  for (const t of [target, own]) for (const root of t.countsByFolder(1).keys()) d.roots.add(root);
  return d;
}

export function objectsOf(dir: string): ObjectTable {
  return readManifestFile(join(dir, MANIFEST_FILE)).objects;
}

/**
 * Take over the old version `dir` as the start of a build from the version `from`: check it (its
 * seal, names-seal.ts, or else a walk of its names), replace its files outside the objects with
 * `from`'s, and return the objects whose files differ. Throws NotRecyclable when `dir` has no
 * readable manifest or does not hold exactly the files it names;
 * any other fault is thrown as it is.
 */
export function recycleVersion(dir: string, from: string): { dirty: Dirty; stats: RecycleStats } {
  let own: ObjectTable;
  try {
    own = objectsOf(dir);
  } catch (e) {
    throw new NotRecyclable(`${dir} has no readable ${MANIFEST_FILE} (${(e as Error).message})`);
  }
  // read before anything of the folder changes (the seal is among the files replaced below)
  const walked = !namesSealed(dir);
  const target = objectsOf(from);
  const d = versionDiff(own, target);
  if (walked) checkNames(dir, own, d.roots);
  for (const name of readdirSync(dir)) if (!d.roots.has(name)) rmSync(join(dir, name), { recursive: true, force: true });
  const others = readdirSync(from).filter((n) => !d.roots.has(n));
  if (others.length > 0)
    hardLinkSync(
      others.map((n) => join(from, n)),
      `${dir}/`,
    );
  const dirty: Dirty = new Map();
  for (const k of d.added) dirty.set(k, false);
  for (const k of [...d.changed, ...d.removed]) dirty.set(k, true);
  return { dirty, stats: { added: d.added.length, changed: d.changed.length, removed: d.removed.length, walked } };
}

/** Throws NotRecyclable unless the object folders of `dir` hold exactly one file per key of `objects` (its manifest's). */
export function checkNames(dir: string, objects: ObjectTable, roots: Set<string>): void {
  let files = 0;
  // names only (no Dirent per entry): an object's file ends in .gz and no key does (keys.ts), so
  // any other name is a folder of keys, and a stray file under such a name fails as a folder
  const walk = (rel: string) => {
    let names: string[];
    try {
      names = readdirSync(join(dir, rel));
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOTDIR') throw new NotRecyclable(`${dir} holds ${rel}, which its manifest does not name`);
      throw e;
    }
    for (const name of names) {
      const path = `${rel}/${name}`;
      if (!name.endsWith('.gz')) walk(path);
      else if (!objects.has(path.slice(0, -3))) throw new NotRecyclable(`${dir} holds ${path}, which its manifest does not name`);
      else files++;
    }
  };
  for (const root of roots) {
    try {
      walk(root);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    }
  }
  const want = objects.size;
  if (files !== want) throw new NotRecyclable(`${dir} holds ${files} of the ${want} objects its manifest names`);
}

/** what a recycled start gave: the dirty keys, or why the old version was emptied and the current one copied instead */
export type Recycled = { dirty: Dirty; stats: RecycleStats; notRecyclable: null } | { dirty: null; stats: null; notRecyclable: string };

/** recycleVersion, or when `dir` is not recyclable: emptied, then the hard-link copy of `from` (made in this thread) */
export function recycleOrCopySync(dir: string, from: string): Recycled {
  try {
    return { ...recycleVersion(dir, from), notRecyclable: null };
  } catch (e) {
    if (!(e instanceof NotRecyclable)) throw e;
    rmSync(dir, { recursive: true, force: true });
    hardLinkCopySync(from, dir);
    return { dirty: null, stats: null, notRecyclable: e.message };
  }
}

/** Start recycleVersion on a worker thread (recycle-worker.ts): its answer. */
export function recycleInWorker(dir: string, from: string): Promise<RecycleReply> {
  return new Promise<RecycleReply>((resolve, reject) => {
    const w = tsWorker(new URL('./recycle-worker.ts', import.meta.url), { workerData: { dir, from } satisfies RecycleJob });
    w.once('message', resolve);
    w.once('error', reject);
    w.once('exit', (code) => reject(new Error(`the recycling worker exited with code ${code} before it answered`)));
  });
}

/**
 * recycleOrCopySync with the recycling on a worker thread (`started`, or started here) and the copy
 * in child processes
 */
export async function recycleOrCopy(
  dir: string,
  from: string,
  objects: ObjectTable,
  started: Promise<RecycleReply> = recycleInWorker(dir, from),
): Promise<Recycled> {
  const reply = await started;
  if (reply.ok) return { dirty: new Map(reply.keys.map((k, i) => [k, reply.has[i] === 1])), stats: reply.stats, notRecyclable: null };
  if (!reply.notRecyclable) throw new Error(reply.message);
  await rm(dir, { recursive: true, force: true });
  await hardLinkCopy(from, dir, objects);
  return { dirty: null, stats: null, notRecyclable: reply.message };
}

export interface RecycleJob {
  dir: string;
  from: string;
}

/** the dirty keys as two arrays: a structured clone of a Map of 1 M entries is slower */
export type RecycleReply = { ok: true; keys: string[]; has: Uint8Array; stats: RecycleStats } | { ok: false; notRecyclable: boolean; message: string };
