// publish a build atomically: build into versions/<id>.partial-<pid>, validate, rename to
// versions/<id>, then swap the `current` symlink with one rename(2). a build that fails or is
// killed at any point leaves `current` exactly as it was; leftovers are swept by the next build.
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync, statSync, symlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { CURRENT, VERSIONS, currentHeader, currentVersion, type Version, type VersionHeader } from '../../artifacts/tree.ts';
import { ArtifactWriter, type WriterOptions } from './writer.ts';

const PARTIAL = '.partial-';

export interface Staged {
  id: string;
  writer: ArtifactWriter;
  /** the previously published version, if any */
  previous: Version | null;
}

/** A UTC build id that sorts by time: 20261122T031500Z, with a suffix when that second is taken. */
export function newBuildId(root: string, nowMs: number): string {
  const base = new Date(nowMs).toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');
  let id = base;
  for (let i = 1; existsSync(join(root, VERSIONS, id)); i++) id = `${base}-${i}`;
  return id;
}

/** Take the build lock (one build at a time per root); a lock whose process is gone is stale. */
export function lockRoot(root: string): () => void {
  mkdirSync(root, { recursive: true });
  const lock = join(root, '.build.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(lock, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return () => rmSync(lock, { force: true });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      const pid = Number(readFileSync(lock, 'utf8'));
      if (Number.isInteger(pid) && pid > 0 && alive(pid)) throw new Error(`another build (pid ${pid}) holds ${lock}; wait for it to finish`);
      rmSync(lock, { force: true });
    }
  }
  throw new Error(`cannot take ${lock}`);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Start a build: sweep leftovers of killed builds and open a fresh partial version directory. */
export function stage(root: string, id: string, opts: WriterOptions = {}): Staged {
  const versions = join(root, VERSIONS);
  mkdirSync(versions, { recursive: true });
  for (const name of readdirSync(versions)) if (name.includes(PARTIAL)) rmSync(join(versions, name), { recursive: true, force: true });
  const previous = currentVersion(root);
  const writer = new ArtifactWriter(join(versions, `${id}${PARTIAL}${process.pid}`), previous, opts);
  return { id, writer, previous };
}

/** Make the staged version the served one, then keep `keep` older versions and prune the rest. */
export function commit(root: string, staged: Staged, keep = 3): VersionHeader {
  const versions = join(root, VERSIONS);
  const final = join(versions, staged.id);
  renameSync(staged.writer.dir, final);
  const tmpLink = join(root, `${CURRENT}.tmp-${process.pid}`);
  rmSync(tmpLink, { force: true });
  symlinkSync(join(VERSIONS, staged.id), tmpLink);
  renameSync(tmpLink, join(root, CURRENT));
  const v = currentHeader(root);
  if (!v || v.id !== staged.id) throw new Error(`published ${staged.id} but ${join(root, CURRENT)} does not read back`);
  prune(root, keep);
  return v;
}

/** Delete all but the current version and the `keep` newest others. */
export function prune(root: string, keep: number): string[] {
  const versions = join(root, VERSIONS);
  const cur = currentHeader(root)?.id;
  const done = readdirSync(versions)
    .filter((n) => !n.includes(PARTIAL) && n !== cur && statSync(join(versions, n)).isDirectory())
    .sort()
    .reverse();
  const removed = done.slice(keep);
  for (const n of removed) rmSync(join(versions, n), { recursive: true, force: true });
  return removed;
}

/** Abandon a staged build (on error): the served tree is untouched. */
export function abandon(staged: Staged): void {
  rmSync(staged.writer.dir, { recursive: true, force: true });
}

