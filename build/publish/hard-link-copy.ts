// the hard-link copy a new version starts from: `cp -al` of the previous version (one pass in C
// per process, no bytes copied), in one process before the build starts (hardLinkCopySync), or
// beside it with its folders shared among COPIES child processes (hardLinkCopy). with
// `keepWritten` the copy runs while the build writes into the same folder: `cp -n` (no-clobber)
// skips every name the build has already written, and a name the build writes after cp linked it is
// unlinked and created anew, or a new file renamed over it when cp links it again in between
// (gzip-file.ts), so any order leaves the build's file. the previous version's files are never
// written into: a changed object is a new file.
import type { ObjectTable } from '../../artifacts/object-table.ts';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** how many `cp -al` run at once: the folders of one tree are linked in parallel */
const COPIES = 2;
/**
 * runs of a no-clobber copy: a name the build renames into place between cp's check and its link
 * fails that link (EEXIST); the next run skips every name that exists, so it goes on from there
 */
const RUNS = 3;

let probed: boolean | null = null;

/**
 * Whether this system's `cp -al -n` skips a destination that exists and exits 0 (GNU coreutils 9.1,
 * Debian 12's, does; 9.2 made a skip exit 1, which a later release took back): checked once per
 * process in a temporary folder. Without it a build's writes wait for the copy to end.
 */
export function copyKeepsWritten(): boolean {
  if (probed !== null) return probed;
  const dir = mkdtempSync(join(tmpdir(), 'contrail-cp-probe-'));
  try {
    mkdirSync(join(dir, 'from', 'v'), { recursive: true });
    mkdirSync(join(dir, 'to', 'v'), { recursive: true });
    writeFileSync(join(dir, 'from', 'v', 'written'), 'previous');
    writeFileSync(join(dir, 'from', 'v', 'kept'), 'previous');
    writeFileSync(join(dir, 'to', 'v', 'written'), 'new');
    const r = spawnSync('cp', ['-al', '-n', join(dir, 'from', 'v'), `${join(dir, 'to')}/`], { encoding: 'utf8' });
    const read = (name: string) => (existsSync(join(dir, 'to', 'v', name)) ? readFileSync(join(dir, 'to', 'v', name), 'utf8') : null);
    probed = r.status === 0 && read('written') === 'new' && read('kept') === 'previous';
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return probed;
}

/** `cp -al` of the version `from` to `to` (not there yet), before the caller goes on */
export function hardLinkCopySync(from: string, to: string): void {
  hardLinkSync([from], to);
}

/** `cp -al sources... to` in a child process, before the caller goes on (`to`: a folder that exists, or one source's new name) */
export function hardLinkSync(sources: string[], to: string): void {
  const r = spawnSync('cp', ['-al', ...sources, to], { encoding: 'utf8' });
  if (r.status !== 0)
    throw new Error(`cannot hard-link ${sources.length === 1 ? sources[0] : `(${sources.length} entries)`} to ${to}: ${r.stderr || r.error?.message}`);
}

/**
 * `cp -al` of the version `from` to `to`: its entries, and those of its v1/ folder (one per kind:
 * v1/route holds most of a tree), shared among COPIES processes by their objects in `objects` (the
 * previous manifest's keys). `keepWritten`: the build writes into `to` meanwhile (copyKeepsWritten
 * must be true): names that exist are skipped.
 */
export async function hardLinkCopy(from: string, to: string, objects: ObjectTable, keepWritten = false): Promise<void> {
  const perKind = objects.countsByFolder(2);
  const items: { dest: string; path: string; weight: number }[] = [];
  for (const name of readdirSync(from)) {
    if (name !== 'v1') items.push({ dest: to, path: join(from, name), weight: 1 });
  }
  if (existsSync(join(from, 'v1'))) {
    for (const name of readdirSync(join(from, 'v1')))
      items.push({ dest: join(to, 'v1'), path: join(from, 'v1', name), weight: 1 + (perKind.get(`v1/${name}`) ?? 0) });
  }
  // heaviest first, each to the lightest process
  const groups = Array.from({ length: COPIES }, () => ({ weight: 0, items: [] as typeof items }));
  for (const it of items.sort((a, b) => b.weight - a.weight)) {
    const g = groups.reduce((a, b) => (b.weight < a.weight ? b : a));
    g.weight += it.weight;
    g.items.push(it);
  }
  try {
    mkdirSync(join(to, 'v1'), { recursive: true });
    await Promise.all(
      groups.map(async (g) => {
        for (const dest of new Set(g.items.map((i) => i.dest))) {
          const sources = g.items.filter((i) => i.dest === dest).map((i) => i.path);
          for (let run = 1; ; run++) {
            try {
              await cpal(sources, dest, keepWritten);
              break;
            } catch (e) {
              if (!keepWritten || run >= RUNS) throw e;
            }
          }
        }
      }),
    );
  } catch (e) {
    throw new Error(`cannot hard-link ${from} to ${to}: ${(e as Error).message}`);
  }
}

/** `cp -al [-n] sources... dest/` in a child process */
function cpal(sources: string[], dest: string, noClobber: boolean): Promise<void> {
  if (sources.length === 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const args = ['-al', ...(noClobber ? ['-n'] : [])];
    const what = `cp ${args.join(' ')} ${sources.length === 1 ? sources[0] : `(${sources.length} entries)`} ${dest}/`;
    const cp = spawn('cp', [...args, ...sources, `${dest}/`], { stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    cp.stderr.setEncoding('utf8').on('data', (d: string) => void (err += d));
    cp.on('error', (e) => reject(new Error(`${what}: ${e.message}`)));
    cp.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`${what}: ${err.trim() || `cp exited with ${code}`}`))));
  });
}
