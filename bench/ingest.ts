// CPU cost of one snapshot ingest (parse + prepare) over the real 12k readsb aircraft.json.
// run by hand: npx tsx bench/ingest.ts [runs]
// prints min and median of process CPU time (user+system) per step, after a warm-up.
// the whole-body gzip runs on the libuv pool (off the main thread): timed apart, wall clock.
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { cpus } from 'node:os';
import { parseFeed } from '../server/feed/parse.ts';
import { PreparedSnapshot } from '../server/live/snapshot.ts';

const file = new URL('./data/readsb_aircraft_12k.json.gz', import.meta.url);
const bytes = gunzipSync(readFileSync(file));
const runs = Number(process.argv[2] ?? 30);
const WARMUP = 5;

const cpuMs = (since: NodeJS.CpuUsage) => {
  const u = process.cpuUsage(since);
  return (u.user + u.system) / 1000;
};

let sink = 0;
const parseT: number[] = [];
const prepT: number[] = [];
const gzT: number[] = [];
for (let r = 0; r < WARMUP + runs; r++) {
  let t = process.cpuUsage();
  const res = parseFeed(bytes);
  const p = cpuMs(t);
  if (!res.ok) throw new Error(res.detail);
  t = process.cpuUsage();
  const snap = new PreparedSnapshot(res.snapshot, { eagerGzip: false });
  const q = cpuMs(t);
  const w = performance.now();
  const gz = await snap.gzipped();
  const g = performance.now() - w;
  sink += snap.body.length + gz.length + snap.index.size;
  if (r >= WARMUP) {
    parseT.push(p);
    prepT.push(q);
    gzT.push(g);
  }
}

const stat = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return { min: s[0]!.toFixed(1), median: s[s.length >> 1]!.toFixed(1) };
};
const res = parseFeed(bytes);
if (!res.ok) throw new Error(res.detail);
const snap = new PreparedSnapshot(res.snapshot, { eagerGzip: false });
const total = parseT.map((p, i) => p + prepT[i]!);
console.log(`node ${process.version}, ${cpus().length} x ${cpus()[0]?.model ?? 'cpu'}; ${res.snapshot.aircraft.length} aircraft, ${bytes.length} bytes in, body ${snap.body.length} bytes, ${runs} runs`);
console.log('| step | min ms | median ms |\n|---|---|---|');
console.log(`| parse (JSON.parse + normalise), CPU | ${stat(parseT).min} | ${stat(parseT).median} |`);
console.log(`| prepare (serialise + index), CPU | ${stat(prepT).min} | ${stat(prepT).median} |`);
console.log(`| ingest total, CPU | ${stat(total).min} | ${stat(total).median} |`);
console.log(`| gzip level 6 of the body (libuv pool, wall) | ${stat(gzT).min} | ${stat(gzT).median} |`);
if (sink === 42) console.log('');
