// benchmark (run by hand, never a test): what reading many small files costs the process, with
// fs/promises' readFile against fs.readFile with a callback, `--in-flight` at a time, as the
// airframes step reads a night's previous documents (build/steps/airframes/fold.ts readAhead).
// Read-only. The first `--files` names of `--dir` (sorted) are split in two halves; each round reads
// one half one way and the other half the other way, then swaps, so both ways meet the same page
// cache; wall and this process's CPU (user + system, all threads) per way and round.
// usage: npx tsx bench/read-files.ts --dir <tree>/current/v1/airframes [--files 40000] [--in-flight 64] [--rounds 2]
import './help.ts';
import { readdirSync, readFile } from 'node:fs';
import { readFile as readFileP } from 'node:fs/promises';
import { cpuUsage } from 'node:process';
import { join } from 'node:path';
import { flag, numberFlag } from './flags.ts';

const dir = flag('dir', '');
if (!dir) throw new Error('--dir <a folder of files> is required');
const files = numberFlag('files', 40_000);
const inFlight = numberFlag('in-flight', 64);
const rounds = numberFlag('rounds', 2);
const names = readdirSync(dir)
  .sort()
  .slice(0, files)
  .map((n) => join(dir, n));
const halves = [names.slice(0, names.length >> 1), names.slice(names.length >> 1)];

const readCallback = (f: string) => new Promise<Buffer>((resolve, reject) => readFile(f, (e, b) => (e ? reject(e) : resolve(b))));

async function run(way: 'promises' | 'callback', list: string[]): Promise<void> {
  const [t0, c0] = [performance.now(), cpuUsage()];
  let next = 0;
  let bytes = 0;
  const lane = async () => {
    while (next < list.length) {
      const f = list[next++]!;
      bytes += (way === 'promises' ? await readFileP(f) : await readCallback(f)).length;
    }
  };
  await Promise.all(Array.from({ length: inFlight }, lane));
  const c = cpuUsage(c0);
  console.log(
    `${way.padEnd(8)} ${list.length} files (${(bytes / 1e6).toFixed(1)} MB): ${(performance.now() - t0).toFixed(0)} ms wall, ${((c.user + c.system) / 1000).toFixed(0)} ms CPU`,
  );
}

for (let r = 0; r < rounds; r++) {
  await run('promises', halves[r % 2]!);
  await run('callback', halves[(r + 1) % 2]!);
}
