// benchmark (run by hand, never a test): what replacing an object's file costs in a published
// version folder, the operations build/publish/recycle.ts chooses between: unlinking a name whose
// inode the current version shares (count 2 -> 1), unlinking the old version's own file (its inode
// freed), and moving such a file to a trash folder instead (renamed; freed later, after the
// commit), and writing it over in place (the build's way, and the way before it: written as is).
// The files are picked evenly over the manifest's keys (a later run on the same version takes other
// files with another --offset), and each is looked up once before the timing (a cold folder's first
// lookups would be measured, not the operation). Most ops write back the file's own bytes, read
// first (so its page is cached); the -cold ops write as many other bytes to a file never read, as
// in a night, where most of a taken-over folder's files are not cached: those files then hold
// junk, which a build that takes the version over replaces (they are picked among the keys whose
// content differs from the current version's: dirty, recycle.ts). DESTRUCTIVE: the old version
// loses the files it touches; run it on a version you will throw away (a bench tree), never on a
// served one, and not within minutes of another mass removal (bench/remove-later.ts).
// usage: npx tsx bench/replace-costs.ts --old <root>/versions/<older> --current <root>/versions/<current> [--files 20000] [--offset 0] [--ops shared,own,move,truncate,over,recreate,over-cold,partial-cold]
// (shared, own and move take names away: a later build will not take that version over, recycle.ts)
import './help.ts';
import { closeSync, fstatSync, ftruncateSync, mkdirSync, openSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { MANIFEST_FILE } from '../artifacts/tree.ts';
import { fileOf } from '../artifacts/keys.ts';
import type { Manifest } from '../artifacts/manifest.ts';
import { writeOver } from '../build/publish/gzip-file.ts';
import { flag, numberFlag } from './flags.ts';

const OLD = flag('old', '');
const CURRENT = flag('current', '');
const FILES = numberFlag('files', 20000);
const OFFSET = numberFlag('offset', 0);
const OPS = new Set(flag('ops', 'shared,own,move,truncate,over,recreate,over-cold,partial-cold').split(','));
if (!OLD || !CURRENT) throw new Error('--old <version folder> and --current <version folder> are required');

const objectsOf = (dir: string) => (JSON.parse(readFileSync(join(dir, MANIFEST_FILE), 'utf8')) as Manifest).objects;
const own = objectsOf(OLD);
const current = objectsOf(CURRENT);
const shared: string[] = [];
const unique: string[] = [];
for (const key in own) (current[key]?.sha256 === own[key]!.sha256 ? shared : unique).push(key);
console.log(`${OLD}: ${shared.length} objects shared with ${CURRENT}, ${unique.length} its own; node ${process.version}`);

/** the picks a run makes (`at` 0..SLOTS-1): a run with --offset k takes the slots after those of the runs before it */
const SLOTS = 7;
/** `n` keys spread evenly over `keys`, from slot `at` (two picks with another slot or --offset never meet) */
const pick = (keys: string[], n: number, at: number) => {
  const count = Math.min(n, Math.floor(keys.length / (SLOTS * (OFFSET + 1))));
  return Array.from({ length: count }, (_, i) => keys[Math.floor((i * keys.length) / count) + SLOTS * OFFSET + at]!);
};
const trash = join(OLD, '..', `.trash-bench-${process.pid}`);
mkdirSync(trash, { recursive: true });
const bytes = new Map<string, Buffer>();
/** the old way of writing over (before the pages were padded): the bytes as they are, then cut */
const partialOver = (f: string) => {
  const b = bytes.get(f)!;
  const fd = openSync(f, 'r+');
  if (fstatSync(fd).nlink !== 1) throw new Error(`${f} is linked by another name`);
  for (let at = 0; at < b.length; ) at += writeSync(fd, b, at, b.length - at, at);
  ftruncateSync(fd, b.length);
  closeSync(fd);
};
const runs: [string, string, string[], (file: string, i: number) => void][] = [
  ['shared', 'unlink a shared name', pick(shared, FILES, 0), (f) => unlinkSync(f)],
  ['own', 'unlink its own file (inode freed)', pick(unique, FILES, 0), (f) => unlinkSync(f)],
  ['move', 'move its own file to a trash folder', pick(unique, FILES, 1), (f, i) => renameSync(f, join(trash, String(i)))],
  [
    'truncate',
    'write its own file: truncate, write',
    pick(unique, FILES, 2),
    (f) => {
      const fd = openSync(f, 'r+');
      if (fstatSync(fd).nlink !== 1) throw new Error(`${f} is linked by another name`);
      ftruncateSync(fd, 0);
      writeSync(fd, bytes.get(f)!, 0, bytes.get(f)!.length, 0);
      closeSync(fd);
    },
  ],
  // the build's own write (gzip-file.ts)
  [
    'over',
    'write its own file: write over, cut',
    pick(unique, FILES, 4),
    (f) => {
      if (!writeOver(f, bytes.get(f)!)) throw new Error(`${f} is linked by another name`);
    },
  ],
  [
    'recreate',
    'move its own file aside, create anew',
    pick(unique, FILES, 3),
    (f, i) => {
      renameSync(f, join(trash, `new-${i}`));
      writeFileSync(f, bytes.get(f)!, { flag: 'wx' });
    },
  ],
  [
    'over-cold',
    'write over an uncached file (the build)',
    pick(unique, FILES, 5),
    (f) => {
      if (!writeOver(f, bytes.get(f)!)) throw new Error(`${f} is linked by another name`);
    },
  ],
  ['partial-cold', 'write over an uncached file, unpadded', pick(unique, FILES, 6), partialOver],
];
for (const [op, what, keys, run] of runs) {
  if (!OPS.has(op)) continue;
  for (const k of keys) {
    const file = join(OLD, fileOf(k));
    if (!op.endsWith('-cold')) bytes.set(file, readFileSync(file));
    else {
      statSync(file); // the lookup, not the data
      bytes.set(file, Buffer.alloc(own[k]!.gzip_bytes, 0x1f));
    }
  }
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  keys.forEach((k, i) => run(join(OLD, fileOf(k)), i));
  const ms = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  const per = (us: number) => (us / keys.length).toFixed(1).padStart(6);
  console.log(
    `${what.padEnd(40)} ${per(ms * 1000)} µs a file, CPU ${per(cpu.user)} user + ${per(cpu.system)} system (${keys.length} files, ${(ms / 1000).toFixed(2)} s)`,
  );
}
console.log(`the moved files are in ${trash}: remove it (and the old version) when done`);
