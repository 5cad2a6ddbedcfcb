// benchmark (run by hand, never a test): what a take-over's check of a version's names costs,
// by its seal (build/publish/names-seal.ts namesSealed: the ctime of every object folder) against
// the walk of every name it replaces when the seal holds (recycle.ts checkNames). Read-only: the
// version folder (--version, a committed version of a tree, e.g. the year's; it must hold a seal
// for the first figure to mean anything) is not changed. Its manifest is read once, outside the
// timings. Rounds alternate seal and walk; wall and this process's CPU (user + system) each.
// usage: npx tsx bench/names-seal.ts --version <tree>/versions/<id> [--rounds 3]
import './help.ts';
import { cpuUsage } from 'node:process';
import { checkNames, objectsOf, versionDiff } from '../build/publish/recycle.ts';
import { ObjectTable } from '../artifacts/object-table.ts';
import { namesSealed } from '../build/publish/names-seal.ts';
import { flag, numberFlag } from './flags.ts';

const dir = flag('version', '');
const rounds = numberFlag('rounds', 3);
if (!dir) throw new Error('--version <a committed version folder> is required');
const objects = objectsOf(dir);
const { roots } = versionDiff(objects, new ObjectTable());
console.log(`${dir}: ${objects.size} objects under ${[...roots].join(', ')}`);

function time(what: string, fn: () => unknown): void {
  const [t0, c0] = [performance.now(), cpuUsage()];
  const out = fn();
  const c = cpuUsage(c0);
  console.log(
    `${what.padEnd(6)} ${((performance.now() - t0) / 1000).toFixed(2)} s wall, ${((c.user + c.system) / 1e6).toFixed(2)} s CPU (${(c.system / 1e6).toFixed(2)} system)${out === undefined ? '' : `: ${String(out)}`}`,
  );
}

for (let r = 0; r < rounds; r++) {
  time('seal', () => (namesSealed(dir) ? 'sealed' : 'NOT sealed (the figure is of a failed check)'));
  time('walk', () => checkNames(dir, objects, roots));
}
