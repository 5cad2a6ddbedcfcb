// paused push-stream clients against the real server, run by hand:
//   npx tsx bench/stream-paused.ts [--clients 300] [--aircraft 10000] [--seconds 24] [--after 20] [--budget default|0|BYTES] [--seed 17] [--glibc-default]
// the real server process (two serving threads, --trust-proxy 127.0.0.1) on a feed of --aircraft
// aircraft from the 12k readsb snapshot (bench/data), moved on every second (seeded). --clients
// WebSockets to /v1/stream (the whole sky), each from its own X-Forwarded-For address, stop reading
// right after the upgrade, so the server's bytes for them pile up. printed once a second: the
// server's RSS (its whole process group, /proc), the streams still open, those the server closed
// or refused, and the p99 of /v1/now probes (every 50 ms) against the same probes before the
// clients came (a ratio: this machine is shared). then every client goes away and the RSS is
// followed for --after seconds. --budget passes --stream-max-unsent (default: the server's own; 0: off).
// the server runs with MALLOC_MMAP_THRESHOLD_=131072, as every launcher starts it (docs/operating.md,
// "Memory"); --glibc-default leaves glibc's own setting, which keeps what the serving worker freed.
import { mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { gunzipSync } from 'node:zlib';
import { mulberry32 } from '../lib/random.ts';
import { connect, WsClient } from '../test/helpers/ws-client.ts';
import { flag, numberFlag } from './flags.ts';
import { killAll, startContrail } from './live/servers.ts';
import { stepSky, type RawSky } from './live/sky-step.ts';

if (process.argv.includes('--help')) {
  console.log(
    'Usage: npx tsx bench/stream-paused.ts [--clients 300] [--aircraft 10000] [--seconds 24] [--after 20] [--budget default|0|BYTES] [--seed 17] [--glibc-default]\n\n' +
      'Paused /v1/stream clients against the real server: its RSS over time, what it closed or refused, and /v1/now latency against a baseline.',
  );
  process.exit(0);
}
const CLIENTS = numberFlag('clients', 300);
const AIRCRAFT = numberFlag('aircraft', 10_000);
const SECONDS = numberFlag('seconds', 24);
const AFTER = numberFlag('after', 20);
const BUDGET = flag('budget', 'default');
const SEED = numberFlag('seed', 17);
const GLIBC_DEFAULT = process.argv.includes('--glibc-default');
if (GLIBC_DEFAULT) delete process.env.MALLOC_MMAP_THRESHOLD_;
else process.env.MALLOC_MMAP_THRESHOLD_ = '131072';

const r = mulberry32(SEED);
const input = readFileSync(new URL('./data/readsb_aircraft_12k.json.gz', import.meta.url));
const whole = JSON.parse(gunzipSync(input).toString('utf8')) as RawSky;
let doc: RawSky = { now: Date.now() / 1000, aircraft: whole.aircraft.slice(0, AIRCRAFT) };
const dir = mkdtempSync(join(tmpdir(), 'contrail-stream-paused-'));
const feed = join(dir, 'aircraft.json');
const write = () => {
  doc = { ...stepSky(doc, r), now: Math.round(Date.now() / 100) / 10 };
  writeFileSync(`${feed}.tmp`, JSON.stringify(doc));
  renameSync(`${feed}.tmp`, feed);
};
write();

const args = [
  '--trust-proxy',
  '127.0.0.1',
  '--state',
  join(dir, 'state'),
  '--log-format',
  'json',
  ...(BUDGET === 'default' ? [] : ['--stream-max-unsent', BUDGET]),
];
console.log(
  `# paused stream clients: ${CLIENTS} whole-sky clients, ${doc.aircraft.length} aircraft, ${SECONDS} s paused, budget ${BUDGET}, seed ${SEED}, malloc ${GLIBC_DEFAULT ? 'glibc default' : 'MALLOC_MMAP_THRESHOLD_=131072'}`,
);
console.log(`node ${process.version}, ${cpus()[0]?.model ?? 'cpu?'} x ${cpus().length}`);
// the feed moves from now on: a server slow to start on a loaded machine still finds it fresh
const feeding = setInterval(write, 1000);
const server = await startContrail({ entry: 'server/main.ts', feed, extraArgs: args, dir, timeoutS: 300 });
const cleanup = async () => {
  clearInterval(feeding);
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
};
process.once('exit', () => killAll());

// /v1/now every 50 ms on one keep-alive connection: its latency, by phase
const agent = new Agent({ keepAlive: true, maxSockets: 1 });
const get = (path: string) =>
  new Promise<{ ms: number; status: number; body: string }>((resolve) => {
    const t0 = performance.now();
    const req = request(`${server.base}${path}`, { agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ ms: performance.now() - t0, status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }));
    });
    req.on('error', () => resolve({ ms: performance.now() - t0, status: 0, body: '' }));
    // a probe the server leaves unanswered counts as 10 s, and the next one goes on a new connection
    req.setTimeout(10_000, () => req.destroy());
    req.end();
  });
let probes: number[] = [];
let probing = true;
const probe = (async () => {
  while (probing) {
    probes.push((await get('/v1/now')).ms);
    await sleep(50);
  }
})();
const take = () => {
  const p = probes;
  probes = [];
  return p;
};
const pct = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor(q * s.length))]! : NaN;
};
const metric = async (name: string) => Number(new RegExp(`^${name} (\\S+)`, 'm').exec((await get('/metrics')).body)?.[1] ?? NaN);
const mb = (x: number) => x.toFixed(0);

await sleep(5000);
take();
await sleep(10_000);
const base = take();
const baseRss = server.rssMb();
console.log(`baseline: RSS ${mb(baseRss)} MB, /v1/now p50 ${pct(base, 0.5).toFixed(1)} ms, p99 ${pct(base, 0.99).toFixed(1)} ms (${base.length} probes)`);

// one client that reads: the snapshots it is sent (its `end` messages) show the stream goes on
let ends = 0;
const reader = await connect(`${server.base}/v1/stream`, { 'X-Forwarded-For': '192.0.2.1' }, { parse: false, onMessage: (m) => m.type === 'end' && ends++ });
if (!(reader instanceof WsClient)) throw new Error(`the reading client was refused: ${reader.status} ${reader.body}`);

// the clients, a few at a time; each stops reading as soon as it is upgraded
const clients: WsClient[] = [];
const refused = new Map<number, number>();
const closes = new Map<string, number>();
const t0 = performance.now();
for (let i = 0; i < CLIENTS; i += 10) {
  const batch = await Promise.all(
    Array.from({ length: Math.min(10, CLIENTS - i) }, (_, k) =>
      connect(
        `${server.base}/v1/stream`,
        { 'X-Forwarded-For': `10.${((i + k) >> 16) & 255}.${((i + k) >> 8) & 255}.${(i + k) & 255}` },
        { parse: false },
      ).catch(() => ({ status: 0, headers: {}, body: '' })),
    ),
  );
  for (const c of batch) {
    if (c instanceof WsClient) {
      c.pause();
      clients.push(c);
      void c.closed.then((x) => closes.set(String(x.code), (closes.get(String(x.code)) ?? 0) + 1));
    } else refused.set(c.status, (refused.get(c.status) ?? 0) + 1);
  }
}
console.log(`connected ${clients.length} in ${((performance.now() - t0) / 1000).toFixed(1)} s; refused: ${JSON.stringify([...refused])}`);
const line = (t: number, extra = '') => {
  const p = take();
  const closed = [...closes.values()].reduce((a, b) => a + b, 0);
  console.log(
    `t=${String(t).padStart(3)} s  RSS ${mb(server.rssMb()).padStart(5)} MB  open ${String(clients.length - closed).padStart(4)}  closed by the server ${JSON.stringify([...closes])}  snapshots to the reader ${ends}  /v1/now p99 ${pct(p, 0.99).toFixed(0)} ms${extra}`,
  );
  return p;
};
let peak = 0;
const paused: number[] = [];
for (let t = 1; t <= SECONDS; t++) {
  await sleep(1000);
  peak = Math.max(peak, server.rssMb());
  paused.push(...line(t));
}
const heldRss = server.rssMb();
const endsPaused = ends;
for (const c of clients) c.destroy();
console.log('every client gone');
const afterRss: number[] = [];
for (let t = 1; t <= AFTER; t++) {
  await sleep(1000);
  afterRss.push(server.rssMb());
  line(SECONDS + t);
}
probing = false;
await probe;
const heap = await metric('contrail_process_nodejs_heap_size_used_bytes');
const external = await metric('contrail_process_nodejs_external_memory_bytes');
console.log(`\n## ${CLIENTS} paused clients, budget ${BUDGET}, ${GLIBC_DEFAULT ? 'glibc default' : 'MALLOC_MMAP_THRESHOLD_=131072'}`);
console.log(
  `RSS: baseline ${mb(baseRss)} MB, peak ${mb(peak)} MB (+${mb(peak - baseRss)}), at the end of the pause ${mb(heldRss)} MB, ${AFTER} s after the clients left ${mb(afterRss.at(-1)!)} MB (+${mb(afterRss.at(-1)! - baseRss)})`,
);
console.log(`main thread after: JS heap used ${mb(heap / 1e6)} MB, external ${mb(external / 1e6)} MB`);
console.log(
  `/v1/now while paused: p50 ${pct(paused, 0.5).toFixed(1)} ms, p99 ${pct(paused, 0.99).toFixed(1)} ms: ${(pct(paused, 0.99) / pct(base, 0.99)).toFixed(1)}x the baseline p99 (${paused.length} probes)`,
);
console.log(`the reading client got ${endsPaused} snapshots by the end of the pause, ${ends} in all`);
console.log(
  `streams: ${clients.length} opened, refused ${JSON.stringify([...refused])}, closed by the server ${JSON.stringify([...closes])} (code: count; 1006 is our own going away)`,
);
reader.close();
await cleanup();
