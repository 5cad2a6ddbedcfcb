// push stream benchmark, run by hand:
//   npx tsx bench/stream.ts [--subscribers 1000] [--snapshots 20] [--loopback] [--seed 17]
// the real 12k readsb snapshot (bench/data), moved on one second at a time (seeded: every airborne
// aircraft flies on along its track, `seen` changes, ~1% leave and ~1% arrive), and --subscribers
// clients over seeded boxes centred where the traffic is (60% city boxes of 0.5-3 degrees, 30%
// regions of 5-25 degrees, 8% continents of 30-80 degrees, 2% the whole sky).
//  1. the hub alone, publishing into a counter: the per-snapshot cost of the stream (index, one diff
//     for every cell, the messages of the subscribed cells) and the bytes the fan-out would send;
//     beside it, the same clients served the naive way (a box query and a diff per client).
//  2. --loopback: the real server (createApp) and that many real WebSocket clients in this process
//     over loopback: wall time from the feed poll until every client has the snapshot's `end`, and
//     the bytes received. clients and server share this process's cores: an upper bound.
import { mkdtempSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { mulberry32 } from '../lib/random.ts';
import { parseFeed } from '../server/feed/parse.ts';
import type { FeedSnapshot } from '../server/feed/record.ts';
import { PreparedSnapshot } from '../server/live/snapshot.ts';
import type { Bbox } from '../server/parts/spatial.ts';
import { SKY, cellsFor, topicOf } from '../server/stream/cells.ts';
import { StreamHub } from '../server/stream/hub.ts';
import { createApp } from '../server/app.ts';
import { loadServerConfig } from '../server/config.ts';
import { open, type WsClient } from '../test/helpers/ws-client.ts';
import { numberFlag } from './flags.ts';
import { stepSky, type RawSky } from './live/sky-step.ts';

if (process.argv.includes('--help')) {
  console.log(
    "Usage: npx tsx bench/stream.ts [--subscribers 1000] [--snapshots 20] [--seed 17] [--loopback]\n\nThe push stream's per-snapshot cost at 12k aircraft: the hub alone, then (--loopback) the real server and real clients.",
  );
  process.exit(0);
}
const SUBSCRIBERS = numberFlag('subscribers', 1000);
const SNAPSHOTS = numberFlag('snapshots', 20);
const SEED = numberFlag('seed', 17);
const LOOPBACK = process.argv.includes('--loopback');

const input = readFileSync(new URL('./data/readsb_aircraft_12k.json.gz', import.meta.url));
const base = JSON.parse(gunzipSync(input).toString('utf8')) as RawSky;
const r = mulberry32(SEED);

/** the raw readsb document one second later (seeded) */
const step = (doc: RawSky): RawSky => stepSky(doc, r);

const parse = (doc: object): FeedSnapshot => {
  const p = parseFeed(Buffer.from(JSON.stringify(doc)));
  if (!p.ok) throw new Error(`the bench feed did not parse: ${p.detail}`);
  return p.snapshot;
};

function boxes(n: number, around: PreparedSnapshot): (Bbox | null)[] {
  const out: (Bbox | null)[] = [];
  for (let i = 0; i < n; i++) {
    const roll = r();
    if (roll < 0.02) {
      out.push(null);
      continue;
    }
    // centred on a random aircraft with a position: people look where the traffic is
    let at = Math.floor(r() * around.total);
    while (!Number.isFinite(around.latOf(at))) at = (at + 1) % around.total;
    const size = roll < 0.62 ? 0.5 + r() * 2.5 : roll < 0.92 ? 5 + r() * 20 : 30 + r() * 50;
    const lat = around.latOf(at);
    const lon = around.lonOf(at);
    let minLon = lon - size / 2;
    let maxLon = lon + size / 2;
    if (minLon < -180) minLon += 360;
    if (maxLon > 180) maxLon -= 360;
    out.push({ minLon, minLat: Math.max(-90, lat - size / 3), maxLon, maxLat: Math.min(90, lat + size / 3) });
  }
  return out;
}

const stats = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return { min: s[0]!, median: s[Math.floor(s.length / 2)]!, max: s.at(-1)! };
};
const ms = (x: number) => x.toFixed(1);
const mb = (x: number) => (x / 1e6).toFixed(1);

console.log(`# push stream bench: ${base.aircraft.length} aircraft, ${SUBSCRIBERS} subscribers, ${SNAPSHOTS} snapshots, seed ${SEED}`);
console.log(`node ${process.version}, ${cpus()[0]?.model ?? 'cpu?'} x ${cpus().length}`);
process.stderr.write('preparing snapshots ');
const docs = [base];
for (let k = 1; k <= SNAPSHOTS + 3; k++) docs.push(step(docs.at(-1)!));
const snaps = docs.map((d) => {
  process.stderr.write('.');
  return PreparedSnapshot.of(parse(d), { eagerGzip: false });
});
process.stderr.write('\n');
const subs = boxes(SUBSCRIBERS, snaps[0]!);

// 1. the hub alone
{
  const perTopic = new Map<string, number>();
  const hub = new StreamHub({ publish: (topic, m) => void perTopic.set(topic, (perTopic.get(topic) ?? 0) + m.length) });
  hub.accept(snaps[0]!, null);
  const listeners = new Map<string, number>();
  for (const b of subs) {
    hub.subscribe(null, b, null);
    for (const c of cellsFor(b)) listeners.set(topicOf(c), (listeners.get(topicOf(c)) ?? 0) + 1);
  }
  const times: number[] = [];
  const published: number[] = [];
  const fanned: number[] = [];
  let sink = 0;
  for (let k = 1; k < snaps.length; k++) {
    perTopic.clear();
    hub.accept(snaps[k]!, null);
    if (k <= 3) continue; // warm-up
    times.push(hub.last.ms);
    published.push(hub.last.bytes);
    let out = 0;
    for (const [t, bytes] of perTopic) out += bytes * (t === 'control' ? SUBSCRIBERS : (listeners.get(t) ?? 0));
    fanned.push(out);
    sink += hub.last.messages;
  }
  const t = stats(times);
  console.log(
    `\n## the hub (index + one diff for every cell + messages of ${hub.subscribedCells} subscribed cells; sky subscribers: ${subs.filter((b) => !b || cellsFor(b)[0] === SKY).length})`,
  );
  console.log(
    `per snapshot: min ${ms(t.min)} ms, median ${ms(t.median)} ms, max ${ms(t.max)} ms; published ${mb(stats(published).median)} MB once; fan-out sends ${mb(stats(fanned).median)} MB to the ${SUBSCRIBERS} clients (median); ${sink} messages in all`,
  );

  // the naive way, for scale: every client diffs its own box
  const naive: number[] = [];
  for (let k = 4; k < Math.min(snaps.length, 9); k++) {
    const prev = snaps[k - 1]!;
    const cur = snaps[k]!;
    const started = performance.now();
    for (const b of subs) {
      const before = new Map<string, Buffer>();
      for (const i of b ? prev.index.bbox(b) : Array.from({ length: prev.total }, (_, i) => i)) before.set(prev.hexOf(i), prev.record(i));
      const ids = b ? cur.index.bbox(b) : Array.from({ length: cur.total }, (_, i) => i);
      const changed: number[] = [];
      for (const i of ids) {
        const old = before.get(cur.hexOf(i));
        if (!old || !old.equals(cur.record(i))) changed.push(i);
        before.delete(cur.hexOf(i));
      }
      sink += cur.listBody(changed, '{"upsert":[', `],"gone":${JSON.stringify([...before.keys()])}}`).length;
    }
    naive.push(performance.now() - started);
  }
  const n = stats(naive);
  console.log(`naive (a box query and a diff per client): min ${ms(n.min)} ms, median ${ms(n.median)} ms per snapshot (sink ${sink})`);
}

// 2. the real server and real clients over loopback
if (LOOPBACK) {
  const dir = mkdtempSync(join(tmpdir(), 'contrail-stream-bench-'));
  const feed = join(dir, 'aircraft.json');
  const write = (doc: object) => {
    writeFileSync(`${feed}.tmp`, JSON.stringify(doc));
    renameSync(`${feed}.tmp`, feed);
  };
  let nowMs = base.now * 1000;
  write(docs[0]!);
  const { config } = loadServerConfig(
    [
      '--port',
      '0',
      '--feed',
      feed,
      '--state',
      join(dir, 'state'),
      '--no-rate-limits',
      '--stream-per-ip',
      String(SUBSCRIBERS + 10),
      '--stream-max-buffer',
      String(256 * 1024 * 1024),
    ],
    {},
  );
  const app = await createApp(config, { log: (l) => process.stderr.write(`${l}\n`), clock: () => nowMs, poll: false });
  const live = async () => {
    await app.services.feed!.pollOnce();
    for (let i = 0; i < 500 && app.services.live.ageS(nowMs)! > 0.5; i++) await new Promise((res) => setTimeout(res, 5));
  };
  await live();
  const ends = new Array<number>(SUBSCRIBERS).fill(0);
  let bytes = 0;
  const clients: WsClient[] = [];
  let closed = 0;
  process.stderr.write(`connecting ${SUBSCRIBERS} clients `);
  for (let i = 0; i < SUBSCRIBERS; i++) {
    const b = subs[i]!;
    const q = b ? `?bbox=${b.minLon},${b.minLat},${b.maxLon},${b.maxLat}` : '';
    const c = await open(`http://127.0.0.1:${app.port}/v1/stream${q}`, {}, { parse: false, onMessage: (m) => m.type === 'end' && ends[i]!++ });
    void c.closed.then(() => closed++);
    clients.push(c);
    if (i % 100 === 0) process.stderr.write('.');
  }
  for (let i = 0; i < 500 && ends.some((e) => e < 1); i++) await new Promise((res) => setTimeout(res, 10));
  process.stderr.write('\n');
  const walls: number[] = [];
  const received: number[] = [];
  const server: number[] = [];
  for (let k = 1; k < docs.length; k++) {
    nowMs = docs[k]!.now * 1000;
    write(docs[k]!);
    const before = clients.reduce((s, c) => s + c.received, 0);
    const started = performance.now();
    await live();
    const deadline = Date.now() + 60_000;
    while (ends.some((e) => e < k + 1)) {
      if (Date.now() > deadline) {
        const hist = new Map<number, number>();
        for (const e of ends) hist.set(e, (hist.get(e) ?? 0) + 1);
        throw new Error(
          `snapshot ${k}: ${ends.filter((e) => e < k + 1).length} clients have no end after 60 s (ends: ${JSON.stringify([...hist])}; closed: ${closed}; open on the server: ${app.stream.clients})`,
        );
      }
      await new Promise((res) => setImmediate(res));
    }
    process.stderr.write(`snapshot ${k}/${docs.length - 1}: ${ms(performance.now() - started)} ms\n`);
    if (k <= 3) continue;
    walls.push(performance.now() - started);
    server.push(app.stream.hub.last.ms);
    received.push(clients.reduce((s, c) => s + c.received, 0) - before);
    bytes += received.at(-1)!;
  }
  const w = stats(walls);
  const s = stats(server);
  console.log(`\n## loopback: the real server and ${SUBSCRIBERS} real clients in one process`);
  console.log(`server publish (hub + uWS fan-out into the sockets): min ${ms(s.min)} ms, median ${ms(s.median)} ms, max ${ms(s.max)} ms per snapshot`);
  console.log(
    `feed poll to the last client's end: min ${ms(w.min)} ms, median ${ms(w.median)} ms, max ${ms(w.max)} ms (includes parsing the feed and the clients' own reading)`,
  );
  console.log(`received ${mb(stats(received).median)} MB per snapshot (median), ${mb(bytes)} MB in all`);
  for (const c of clients) c.close();
  app.stop();
}
