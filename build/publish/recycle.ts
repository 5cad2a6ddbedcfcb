// a new version made from an old one instead of a hard-link copy of the current one. every build
// starts from the current version's objects, and every commit prunes the oldest version: on the
// simulated year (2,046,668 objects) the copy is 2 M links (47 s of cp beside the steps) and the
// prune 2 M unlinks (67 s of `rm -rf`, 36 s of it system time), while a night changes ~330 k
// objects. so a build takes over the version its commit would prune (publish.ts, `recyclable`) and
// brings it up to date with the current one by their manifests: objects whose bytes differ are
// hard-linked from the current version (a temporary name renamed over the old file), objects the
// current one lacks are removed, the rest stay. the result is checked by name against the current
// manifest; a version that does not hold what its manifest says is not recycled (NotRecyclable:
// the caller empties it and copies as before). files are never written through: an old version's
// file may be a link shared with the current one.
import { linkSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, unlinkSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { MANIFEST_FILE } from '../../artifacts/tree.ts';
import { fileOf } from '../../artifacts/keys.ts';
import type { Manifest, ObjectEntry } from '../../artifacts/manifest.ts';
import { tsWorker } from '../../lib/ts-worker.ts';
import { hardLinkCopy, hardLinkCopySync } from './hard-link-copy.ts';

/** the version to recycle cannot be trusted to hold what its manifest says */
export class NotRecyclable extends Error {}

export interface RecycleStats {
  /** objects linked from the current version (changed or new since the recycled one) */
  linked: number;
  /** objects of the recycled version the current one does not have */
  removed: number;
  /** objects left as they were */
  kept: number;
}

export interface VersionDiff {
  /** keys the target has and the old version lacks */
  added: string[];
  /** keys both have, with other bytes */
  changed: string[];
  /** keys only the old version has */
  removed: string[];
}

type Objects = Record<string, ObjectEntry>;

/** What turns the objects `own` into `target`. Same sha256 and gzip length: the same object (its JSON is the same; gzip is deterministic). */
export function versionDiff(own: Objects, target: Objects): VersionDiff {
  const d: VersionDiff = { added: [], changed: [], removed: [] };
  for (const [key, t] of Object.entries(target)) {
    const o = own[key];
    if (!o) d.added.push(key);
    else if (o.sha256 !== t.sha256 || o.gzip_bytes !== t.gzip_bytes) d.changed.push(key);
  }
  for (const key of Object.keys(own)) if (!target[key]) d.removed.push(key);
  return d;
}

function objectsOf(dir: string): Objects {
  return (JSON.parse(readFileSync(join(dir, MANIFEST_FILE), 'utf8')) as Manifest).objects;
}

/** the top-level folders that hold objects (v1, meta): everything else of a version is copied whole */
const rootsOf = (...sets: Objects[]) => new Set(sets.flatMap((s) => Object.keys(s).map((k) => k.split('/')[0]!)));

/**
 * Make the old version `dir` hold exactly the files of the version `from`: its objects by their
 * manifests, its other entries (manifests, state/) linked whole. Throws NotRecyclable when `dir`
 * has no readable manifest or does not hold the files it names; any other fault is thrown as it is.
 */
export function recycleVersion(dir: string, from: string): RecycleStats {
  let own: Objects;
  try {
    own = objectsOf(dir);
  } catch (e) {
    throw new NotRecyclable(`${dir} has no readable ${MANIFEST_FILE} (${(e as Error).message})`);
  }
  const target = objectsOf(from);
  const roots = rootsOf(own, target);
  for (const name of readdirSync(dir)) if (!roots.has(name)) rmSync(join(dir, name), { recursive: true, force: true });
  const others = readdirSync(from).filter((n) => !roots.has(n));
  if (others.length > 0) {
    const r = spawnSync('cp', ['-al', ...others.map((n) => join(from, n)), `${dir}/`], { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`cannot hard-link ${from} to ${dir}: ${r.stderr || r.error?.message}`);
  }
  const d = versionDiff(own, target);
  // a name the old manifest does not account for (EEXIST on a link) or a file it names that is gone
  const untrusted = (e: unknown, path: string) => {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return new NotRecyclable(`${dir} holds ${path}, which its manifest does not name`);
    if (code === 'ENOENT') return new NotRecyclable(`${dir} lacks ${path}, which its manifest names`);
    return e;
  };
  for (const key of d.removed) {
    try {
      unlinkSync(join(dir, fileOf(key)));
    } catch (e) {
      throw untrusted(e, fileOf(key));
    }
  }
  for (const key of d.changed) {
    const file = join(dir, fileOf(key));
    try {
      linkSync(join(from, fileOf(key)), `${file}.tmp`);
    } catch (e) {
      throw (e as NodeJS.ErrnoException).code === 'EEXIST' ? untrusted(e, `${fileOf(key)}.tmp`) : e;
    }
    renameSync(`${file}.tmp`, file);
  }
  const made = new Set<string>();
  for (const key of d.added) {
    const file = join(dir, fileOf(key));
    const parent = dirname(file);
    if (!made.has(parent)) {
      mkdirSync(parent, { recursive: true });
      made.add(parent);
    }
    try {
      linkSync(join(from, fileOf(key)), file);
    } catch (e) {
      throw (e as NodeJS.ErrnoException).code === 'EEXIST' ? untrusted(e, fileOf(key)) : e;
    }
  }
  checkNames(dir, target, roots);
  return { linked: d.added.length + d.changed.length, removed: d.removed.length, kept: Object.keys(target).length - d.added.length - d.changed.length };
}

/** Throws NotRecyclable unless the object folders of `dir` hold exactly one file per key of `target`. */
function checkNames(dir: string, target: Objects, roots: Set<string>): void {
  let files = 0;
  const walk = (rel: string) => {
    for (const e of readdirSync(join(dir, rel), { withFileTypes: true })) {
      const path = `${rel}/${e.name}`;
      if (e.isDirectory()) walk(path);
      else if (!path.endsWith('.gz') || !target[path.slice(0, -3)]) throw new NotRecyclable(`${dir} holds ${path}, which the current manifest does not name`);
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
  const want = Object.keys(target).length;
  if (files !== want) throw new NotRecyclable(`${dir} holds ${files} of the ${want} objects the current manifest names`);
}

/** what a recycled start gave: the stats, or why the old version was emptied and the current one copied instead */
export type Recycled = { stats: RecycleStats; notRecyclable: null } | { stats: null; notRecyclable: string };

/** recycleVersion, or when `dir` is not recyclable: emptied, then the hard-link copy of `from` (made in this thread) */
export function recycleOrCopySync(dir: string, from: string): Recycled {
  try {
    return { stats: recycleVersion(dir, from), notRecyclable: null };
  } catch (e) {
    if (!(e instanceof NotRecyclable)) throw e;
    rmSync(dir, { recursive: true, force: true });
    hardLinkCopySync(from, dir);
    return { stats: null, notRecyclable: e.message };
  }
}

/** recycleOrCopySync with the recycling on a worker thread (recycle-worker.ts) and the copy in child processes */
export async function recycleOrCopy(dir: string, from: string, objects: Objects): Promise<Recycled> {
  const reply = await new Promise<RecycleReply>((resolve, reject) => {
    const w = tsWorker(new URL('./recycle-worker.ts', import.meta.url), { workerData: { dir, from } satisfies RecycleJob });
    w.once('message', resolve);
    w.once('error', reject);
    w.once('exit', (code) => reject(new Error(`the recycling worker exited with code ${code} before it answered`)));
  });
  if (reply.ok) return { stats: reply.stats, notRecyclable: null };
  if (!reply.notRecyclable) throw new Error(reply.message);
  await rm(dir, { recursive: true, force: true });
  await hardLinkCopy(from, dir, objects);
  return { stats: null, notRecyclable: reply.message };
}

export interface RecycleJob {
  dir: string;
  from: string;
}

export type RecycleReply = { ok: true; stats: RecycleStats } | { ok: false; notRecyclable: boolean; message: string };
