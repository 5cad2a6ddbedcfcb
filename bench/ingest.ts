// CPU cost of one snapshot ingest (parse + prepare) over the real 12k readsb aircraft.json.
// run by hand: npx tsx bench/ingest.ts [runs]
// prints min and median of process CPU time (user+system) per step, after a warm-up, for the
// byte scanner path (parseFeed on a Buffer: scan.ts, records written once by wire.ts) and the
// JSON.parse reference path (parseFeedJson, then JSON.stringify per record in prepare). the two
// paths run interleaved, so a machine shared with other work loads both alike.
// the whole-body gzip runs on the libuv pool (off the main thread): timed apart, wall clock.
import './help.ts';
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { cpus } from 'node:os';
import { parseFeed, parseFeedJson, type ParseResult } from '../server/feed/parse.ts';
import { wireOf } from '../server/feed/wire.ts';
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
type Times = { parse: number[]; prepare: number[]; total: number[] };
const times = (): Times => ({ parse: [], prepare: [], total: [] });
const scanT = times();
const jsonT = times();
const gzT: number[] = [];

function once(parse: (b: Buffer) => ParseResult, into: Times, keep: boolean): PreparedSnapshot {
  let t = process.cpuUsage();
  const res = parse(bytes);
  const p = cpuMs(t);
  if (!res.ok) throw new Error(res.detail);
  t = process.cpuUsage();
  const snap = PreparedSnapshot.of(res.snapshot, { eagerGzip: false });
  const q = cpuMs(t);
  sink += snap.body.length + snap.index.size;
  if (keep) {
    into.parse.push(p);
    into.prepare.push(q);
    into.total.push(p + q);
  }
  return snap;
}

for (let r = 0; r < WARMUP + runs; r++) {
  const keep = r >= WARMUP;
  const fast = once(parseFeed, scanT, keep);
  once(parseFeedJson, jsonT, keep);
  const w = performance.now();
  const gz = await fast.gzipped();
  if (keep) gzT.push(performance.now() - w);
  sink += gz.length;
}

const stat = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return `${s[0]!.toFixed(1)} | ${s[s.length >> 1]!.toFixed(1)}`;
};
const res = parseFeed(bytes);
if (!res.ok) throw new Error(res.detail);
if (!wireOf(res.snapshot)) throw new Error('the scanner declined the bench file: the figures below would be the fallback');
const snap = PreparedSnapshot.of(res.snapshot, { eagerGzip: false });
console.log(
  `node ${process.version}, ${cpus().length} x ${cpus()[0]?.model ?? 'cpu'}; ${res.snapshot.aircraft.length} aircraft, ${bytes.length} bytes in, body ${snap.body.length} bytes, ${runs} runs`,
);
console.log('| step, CPU ms | scanner min | scanner median | JSON.parse min | JSON.parse median |\n|---|---|---|---|---|');
console.log(`| parse (scan / JSON.parse + normalise) | ${stat(scanT.parse)} | ${stat(jsonT.parse)} |`);
console.log(`| prepare (wire copy / stringify + index) | ${stat(scanT.prepare)} | ${stat(jsonT.prepare)} |`);
console.log(`| ingest total | ${stat(scanT.total)} | ${stat(jsonT.total)} |`);
console.log(`\ngzip level 6 of the body (libuv pool, wall): min | median ${stat(gzT)} ms`);
if (sink === 42) console.log('');
