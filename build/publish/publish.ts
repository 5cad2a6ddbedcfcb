// publish a build atomically: build into versions/<id>.partial-<pid>, validate, rename to
// versions/<id>, then swap the `current` symlink with one rename(2). a build that fails or is
// killed at any point leaves `current` exactly as it was; leftovers are swept by the next build.
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { CURRENT, MANIFEST_FILE, VERSIONS, currentHeader, currentTable, type TableVersion, type VersionHeader } from '../../artifacts/tree.ts';
import { recycleInWorker } from './recycle.ts';
import { ArtifactWriter, type WriterOptions } from './writer.ts';
import { TRASH } from './taken-over.ts';
import { pruneSegments } from './segment-prune.ts';
import { spawn } from 'node:child_process';

// the build lock (build-lock.ts), where the nightly and the roll have always taken it
export { lockRoot } from './build-lock.ts';

const PARTIAL = '.partial-';

export interface Staged {
  id: string;
  writer: ArtifactWriter;
  /** the previously published version, if any */
  previous: TableVersion | null;
  /** the older version this build took over (StageOptions.keep), if any */
  recycled: string | null;
}

export interface StageOptions extends WriterOptions {
  /**
   * the versions the commit will keep besides the current one (commit's `keep`). given, the build
   * takes over the version that commit would prune (recycle.ts; its writes bring it up to date)
   * instead of hard-link copying the current one and pruning that version after
   */
  keep?: number;
  /**
   * the published version as the caller read it, holding the build lock (roll.ts): not read again
   * when it is still the current one (a year's manifest is 2.9 s to read)
   */
  current?: TableVersion;
}

/** A UTC build id that sorts by time: 20261122T031500Z, with a suffix when that second is taken. */
export function newBuildId(root: string, nowMs: number): string {
  const base = new Date(nowMs)
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');
  let id = base;
  for (let i = 1; existsSync(join(root, VERSIONS, id)); i++) id = `${base}-${i}`;
  return id;
}

/**
 * Start a build: sweep leftovers of killed builds and open a partial version directory, fresh or
 * (with `keep`) the version the commit would prune, renamed.
 */
export function stage(root: string, id: string, { current: read, ...opts }: StageOptions = {}): Staged {
  const versions = join(root, VERSIONS);
  mkdirSync(versions, { recursive: true });
  for (const name of readdirSync(versions)) {
    if (name.startsWith(TRASH)) removeInBackground(join(versions, name));
    else if (name.includes(PARTIAL)) rmSync(join(versions, name), { recursive: true, force: true });
  }
  // segments a killed build left: partial ones, and finished ones its version never named
  pruneSegments(root);
  const current = currentHeader(root);
  const dir = join(versions, `${id}${PARTIAL}${process.pid}`);
  const recycled = current && opts.keep !== undefined ? recyclable(root, current.id, opts.keep) : null;
  if (recycled) renameSync(join(versions, recycled), dir);
  // the check of the taken-over folder (a worker, recycle.ts) starts before this thread reads the
  // current manifest (4-5 s on a year's tree), which it reads too
  const recycling = recycled && opts.linkInBackground && existsSync(join(current!.dir, MANIFEST_FILE)) ? recycleInWorker(dir, current!.dir) : undefined;
  // the writer awaits it; should it not (the current version unreadable after all), a failed check must not end the process unhandled
  void recycling?.catch(() => {});
  const previous = read && read.id === current?.id ? read : currentTable(root);
  const writer = new ArtifactWriter(dir, previous, { ...opts, root, recycled: recycled !== null, recycling });
  return { id, writer, previous, recycled };
}

/** The published versions other than `current`, newest first. */
function olderVersions(root: string, current: string | undefined): string[] {
  const versions = join(root, VERSIONS);
  return readdirSync(versions)
    .filter((n) => !n.startsWith('.') && !n.includes(PARTIAL) && n !== current && statSync(join(versions, n)).isDirectory())
    .sort()
    .reverse();
}

/**
 * The version a build may take over: the newest of those its commit will prune with `keep`. After
 * that commit the current version is the newest older one, so it keeps `keep - 1` of these.
 */
export function recyclable(root: string, current: string, keep: number): string | null {
  return olderVersions(root, current)[Math.max(keep - 1, 0)] ?? null;
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
  if (staged.writer.trash) removeInBackground(staged.writer.trash);
  return v;
}

/**
 * Remove a folder in a detached, low-priority process that may outlive this one: a taken-over
 * folder's trash holds the files a night replaced, whose inodes cost ~100 µs each to free on a
 * year's tree (docs/perf-log/nightly-steady-state.md, night 1), so they are freed after the build, not during it. Leftovers are swept by the
 * next build's stage.
 */
export function removeInBackground(path: string): void {
  const rm = spawn('nice', ['-n', '19', 'rm', '-rf', path], { detached: true, stdio: 'ignore' });
  rm.on('error', () => rmSync(path, { recursive: true, force: true }));
  rm.unref();
}

/** Delete all but the current version and the `keep` newest others, then the segments none of those names. */
export function prune(root: string, keep: number): string[] {
  const versions = join(root, VERSIONS);
  const removed = olderVersions(root, currentHeader(root)?.id).slice(keep);
  for (const n of removed) rmSync(join(versions, n), { recursive: true, force: true });
  pruneSegments(root);
  return removed;
}

/** How the staged version got the previous one's objects, and what that cost (after writer.flush). */
export function linkReport(staged: Staged): string {
  const { ms, waitedMs, recycled, relinked, spared } = staged.writer.link;
  const took = `took ${(ms / 1000).toFixed(1)} s beside the steps, which waited ${(waitedMs / 1000).toFixed(1)} s for it`;
  const from = `build ${staged.previous?.id ?? '(none)'}`;
  if (!recycled) return `the hard-link copy of ${from} ${took}`;
  if (!recycled.stats)
    return `build ${staged.recycled} could not be recycled (${recycled.notRecyclable}): it was emptied and ${from} hard-link copied, which ${took}`;
  const r = recycled.stats;
  return (
    `build ${staged.recycled} taken over (against ${from}: ${r.added} objects added, ${r.changed} changed, ${r.removed} removed; ` +
    `${relinked} of them kept tonight and linked from it; ${spared} written into files those links set aside, not new ones); ` +
    `its check (${r.walked ? 'no intact seal: every name walked' : 'its names sealed, not walked'}) ${took}`
  );
}

/** Abandon a staged build (on error): the served tree is untouched. */
export function abandon(staged: Staged): void {
  staged.writer.segments.abandon();
  rmSync(staged.writer.dir, { recursive: true, force: true });
  if (staged.writer.trash) removeInBackground(staged.writer.trash);
}
