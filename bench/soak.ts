// soak benchmark, run by hand (never a test): the REAL server process over loopback for
// --minutes (default 10) of mixed load, the real 12k readsb snapshot rewritten every second (by
// rename, as readsb does), live and history requests from --clients keep-alive clients, every 10 s
// a line with the server's RSS and the window's p50/p99; at the end RSS at start, after warm-up and
// at the end, and the p99 drift.
//   npx tsx bench/soak.ts [--minutes 10] [--clients 16] [--artifacts var/artifacts]
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { mulberry32 } from '../lib/random.ts';
import { flag, numberFlag } from './flags.ts';

if (process.argv.includes('--help')) {
  console.log('usage: npx tsx bench/soak.ts [--minutes 10] [--clients 16] [--artifacts <published tree, default var/artifacts>]');
  process.exit(0);
}
const MINUTES = numberFlag('minutes', 10);
const CLIENTS = numberFlag('clients', 16);
const ARTIFACTS = flag('artifacts', 'var/artifacts');
const PORT = 18000 + Math.floor(Math.random() * 1000);

const raw = JSON.parse(gunzipSync(readFileSync(new URL('./data/readsb_aircraft_12k.json.gz', import.meta.url))).toString('utf8'));
const dir = mkdtempSync(join(tmpdir(), 'contrail-soak-'));
const feed = join(dir, 'aircraft.json');
const writeFeed = () => {
  raw.now = Date.now() / 1000;
  writeFileSync(`${feed}.tmp`, JSON.stringify(raw));
  renameSync(`${feed}.tmp`, feed);
};
writeFeed();

const server = spawn(
  process.execPath,
  ['--import', 'tsx', 'server/main.ts', '--port', String(PORT), '--feed', feed, '--artifacts', ARTIFACTS, '--state', join(dir, 'state'), '--no-rate-limits'],
  { stdio: ['ignore', 'pipe', 'inherit'] },
);
await new Promise<void>((resolve) => server.stdout!.on('data', (d) => String(d).includes('listening') && resolve()));
// load starts once the live routes answer: before the first snapshot they are 503 by design
for (let i = 0; i < 100; i++) {
  const ok = await new Promise<boolean>((r) =>
    request({ host: '127.0.0.1', port: PORT, path: '/v1/now' }, (res) => (res.resume(), r(res.statusCode === 200)))
      .on('error', () => r(false))
      .end(),
  );
  if (ok) break;
  await new Promise((r) => setTimeout(r, 100));
}
const rssMb = () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${server.pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;

const rand = mulberry32(20261124);
const planes = raw.aircraft.filter((a: { lat?: number }) => a.lat !== undefined);
const paths = () => {
  const a = planes[Math.floor(rand() * planes.length)];
  const r = rand();
  if (r < 0.4) return `/v2/point/${a.lat.toFixed(3)}/${a.lon.toFixed(3)}/${[25, 100, 250][Math.floor(rand() * 3)]}`;
  if (r < 0.55) return '/v1/now';
  if (r < 0.65) return `/v1/trace/${a.hex}`;
  if (r < 0.75) return '/v1/aircraft?bbox=5,45,15,55';
  if (r < 0.8) return '/v1/estimated';
  if (r < 0.9) return ['/v1/airports/ZRH', '/v1/airports/LHR', '/v1/routes?callsigns=SWR100,EZY12', '/v1/refdata/airlines'][Math.floor(rand() * 4)]!;
  return `/v1/airframes/${a.hex}`;
};

const agent = new Agent({ keepAlive: true, maxSockets: CLIENTS });
let lat: number[] = [];
let errors = 0;
let fives = 0;
let total = 0;
const get = (path: string) =>
  new Promise<void>((resolve) => {
    const t = performance.now();
    const req = request({ host: '127.0.0.1', port: PORT, path, agent, headers: { 'accept-encoding': 'gzip' } }, (res) => {
      res.resume();
      res.on('end', () => {
        lat.push(performance.now() - t);
        total++;
        if ((res.statusCode ?? 0) >= 500) fives++;
        resolve();
      });
    });
    req.on('error', () => {
      errors++;
      resolve();
    });
    req.end();
  });

const end = Date.now() + MINUTES * 60_000;
const feeder = setInterval(writeFeed, 1000);
const rows: { t: number; rss: number; p50: number; p99: number; n: number }[] = [];
const q = (xs: number[], p: number) => (xs.length ? [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))]! : 0);
const start = Date.now();
const rssStart = rssMb();
const sampler = setInterval(() => {
  const row = { t: Math.round((Date.now() - start) / 1000), rss: rssMb(), p50: q(lat, 0.5), p99: q(lat, 0.99), n: lat.length };
  rows.push(row);
  console.error(
    `${row.t} s: rss ${row.rss.toFixed(0)} MB, ${(row.n / 10).toFixed(0)} req/s, p50 ${row.p50.toFixed(1)} ms, p99 ${row.p99.toFixed(1)} ms, 5xx ${fives}, errors ${errors}`,
  );
  lat = [];
}, 10_000);
await Promise.all(
  Array.from({ length: CLIENTS }, async () => {
    while (Date.now() < end) await get(paths());
  }),
);
clearInterval(feeder);
clearInterval(sampler);
server.kill('SIGTERM');
const warm = rows.find((r) => r.t >= 60) ?? rows[0]!;
const last = rows[rows.length - 1]!;
const firstMin = rows.filter((r) => r.t >= 60 && r.t <= 120);
const lastMin = rows.slice(-6);
const avg = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / Math.max(1, xs.length);
console.log(`| minutes | clients | requests | 5xx | errors | RSS start | after 1 min | end | growth after warm-up | p99 min 2 | p99 last min |`);
console.log(`|---|---|---|---|---|---|---|---|---|---|---|`);
console.log(
  `| ${MINUTES} | ${CLIENTS} | ${total} | ${fives} | ${errors} | ${rssStart.toFixed(0)} MB | ${warm.rss.toFixed(0)} MB | ${last.rss.toFixed(0)} MB | ${(((last.rss - warm.rss) / warm.rss) * 100).toFixed(1)} % | ${avg(firstMin.map((r) => r.p99)).toFixed(1)} ms | ${avg(lastMin.map((r) => r.p99)).toFixed(1)} ms |`,
);
process.exit(0);
