// what the nightly's check of the published objects costs (build/publish/verify.ts): every night
// each object's file stat'ed (size and mtime), with --verify or --rebuild each gunzipped and hashed.
// measured on a published tree (--tree, e.g. the simulated year's) or on a seeded one made here with
// the real writer (--objects, shaped like the year's: a third airframes of 2-20 legs, routes,
// airports), against a peer measured in the same run: the hard-link copy of the same version
// (`cp -al`, what every night makes of it anyway). rounds alternate; min and median of each.
// usage: node --import tsx bench/verify.ts [--tree <artifacts root>] [--objects 100000] [--rounds 3]
import './help.ts';
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { commit, stage } from '../build/publish/publish.ts';
import { verifyFolder } from '../build/publish/verify.ts';
import { mulberry32 } from '../lib/random.ts';
import { flag, numberFlag } from './flags.ts';

const ROUNDS = numberFlag('rounds', 3);

function seededTree(n: number): string {
  const root = mkdtempSync(join(tmpdir(), 'contrail-bench-verify-'));
  const rand = mulberry32(47);
  const s = stage(root, 'bench1');
  const word = () => Math.floor(rand() * 36 ** 6).toString(36);
  for (let i = 0; i < n; i++) {
    const key = i % 3 === 0 ? `v1/airframes/${(0x400000 + i).toString(16)}` : i % 3 === 1 ? `v1/route/B${i}` : `v1/airports/Z${i.toString(36).toUpperCase()}`;
    const legs = Array.from({ length: 2 + Math.floor(rand() * (i % 3 === 0 ? 200 : 20)) }, () => ({
      date: '2026-11-2' + (i % 10),
      org: word().slice(0, 3),
      dst: word().slice(0, 3),
      dep: Math.floor(rand() * 1e9),
    }));
    s.writer.putBytes(key, Buffer.from(JSON.stringify({ id: key, legs })));
  }
  s.writer.writeManifest({ build_id: 'bench1', built_at: '2026-11-25T00:00:00.000Z', archive_through: '2026-11-24', window_days: 1, counts: {} });
  commit(root, s);
  return root;
}

const given = flag('tree', '');
const t0 = performance.now();
const root = given || seededTree(numberFlag('objects', 100_000));
const dir = realpathSync(join(root, 'current'));
console.log(`tree ${dir}${given ? '' : ` (seeded here in ${((performance.now() - t0) / 1000).toFixed(1)} s)`}; node ${process.version}`);
const copyTo = mkdtempSync(join(tmpdir(), 'contrail-bench-verify-cp-'));
const times: Record<string, number[]> = { 'size+mtime': [], full: [], 'cp -al': [] };
let checked = 0;
let sink = 0;
try {
  for (let r = 0; r < ROUNDS; r++) {
    let t = performance.now();
    const cheap = verifyFolder(dir, false);
    times['size+mtime']!.push(performance.now() - t);
    checked = cheap.checked;
    sink += cheap.bad.length;
    t = performance.now();
    const cp = spawnSync('cp', ['-al', dir, join(copyTo, `r${r}`)]);
    if (cp.status !== 0) throw new Error(`cp -al failed: ${cp.stderr}`);
    times['cp -al']!.push(performance.now() - t);
    t = performance.now();
    sink += verifyFolder(dir, true).bad.length;
    times.full!.push(performance.now() - t);
    rmSync(join(copyTo, `r${r}`), { recursive: true, force: true });
  }
} finally {
  rmSync(copyTo, { recursive: true, force: true });
  if (!given) rmSync(root, { recursive: true, force: true });
}
const stat = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return { min: s[0]!, median: s[Math.floor(s.length / 2)]! };
};
const peer = stat(times['cp -al']!).median;
console.log(`${checked} objects, ${ROUNDS} rounds (${sink} bad: must be 0)`);
console.log('| what | min s | median s | µs an object (median) | median against cp -al |');
console.log('|---|---|---|---|---|');
for (const [what, xs] of Object.entries(times)) {
  const { min, median } = stat(xs);
  console.log(
    `| ${what} | ${(min / 1000).toFixed(2)} | ${(median / 1000).toFixed(2)} | ${((median * 1000) / checked).toFixed(1)} | ${(median / peer).toFixed(2)} |`,
  );
}
