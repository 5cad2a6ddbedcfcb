// stations: parse cost of a big feeder list, and the costs of a /v1/stations/{uuid} and a /v1/now at
// that size, the way the server answered them before (a constant-time scan over every stored key; a
// count over every station per request) beside the way it answers now (one lookup by the keyed
// hash and one compare; the count prepared once per roster change), in the same run.
// run by hand: node --import tsx bench/stations.bench.ts [stations=200000]
import './help.ts';
import { timingSafeEqual } from 'node:crypto';
import { StationKeys } from '../server/stations/ids.ts';
import { parseFeederList } from '../server/stations/parse.ts';
import { Roster } from '../server/stations/roster.ts';

const N = Number(process.argv[2] ?? 200_000);
const NOW_MS = 1795435200_000;
// seeded: a fixed secret and UUIDs from a linear congruential generator
let seed = 12345;
const rnd = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32;
const hex = (n: number) => Array.from({ length: n }, () => Math.floor(rnd() * 16).toString(16)).join('');
const uuid = () => `${hex(8)}-${hex(4)}-4${hex(3)}-8${hex(3)}-${hex(12)}`;
const keys = new StationKeys(Buffer.alloc(32, 3));
const uuids = Array.from({ length: N }, uuid);
const text = JSON.stringify({
  generated_at: NOW_MS / 1000,
  feeders: uuids.map((u, i) => ({
    uuid: u,
    lat: -60 + (i % 1200) / 10,
    lon: -180 + (i % 3600) / 10,
    connected: i % 10 !== 0,
    ip: '192.0.2.1',
    software: 'readsb 3.14',
    messages: i * 100,
    positions: i * 10,
    aircraft: i % 300,
  })),
});

function time(label: string, runs: number, fn: () => unknown): number {
  let sink = 0;
  for (let i = 0; i < Math.min(runs, 20); i++) sink += fn() ? 1 : 0; // warm-up
  const t: number[] = [];
  for (let i = 0; i < runs; i++) {
    const a = process.hrtime.bigint();
    sink += fn() ? 1 : 0;
    t.push(Number(process.hrtime.bigint() - a) / 1e6);
  }
  t.sort((x, y) => x - y);
  const median = t[t.length >> 1]!;
  console.log(`${label}: min ${t[0]!.toFixed(4)} ms, median ${median.toFixed(4)} ms (sink ${sink})`);
  return median;
}

// the lookup as it was (server/stations/ids.ts findKey before issue 47): every stored key compared, no early stop
function scan(all: readonly Buffer[], key: Buffer): number {
  let found = -1;
  for (let i = 0; i < all.length; i++) {
    const hit = timingSafeEqual(all[i]!, key) ? 1 : 0;
    found = found + hit * (i - found);
  }
  return found;
}

console.log(`node ${process.version}, ${N} stations, list ${(text.length / 1e6).toFixed(2)} MB`);
time('parse feeder list', 5, () => parseFeederList(text, keys).ok);
const p = parseFeederList(text, keys);
if (!p.ok) throw new Error('bench list did not parse');
const roster = new Roster();
roster.apply(p.list, NOW_MS, (k) => keys.publicId(k));
// the keys the roster held before: its stations, the feeders listed as connected (1 in 10 is not)
const stored = p.list.feeders.filter((f) => f.connected).map((f) => f.key);
time('publicList (roster body, made once per roster version)', 5, () => roster.publicList(NOW_MS).length);
// a connected feeder (every tenth is listed as disconnected, so no station)
const known = uuids[(N >> 1) + 1]!;
const unknown = uuid();
const runs = Math.max(20, Math.min(2000, Math.round(4e6 / N)));
console.log('\n/v1/stations/{uuid}: HMAC of the UUID, then the lookup');
const beforeKnown = time('  before, known UUID (hash + scan of every key)', runs, () => scan(stored, keys.key(known)) >= 0);
const beforeUnknown = time('  before, unknown UUID (hash + scan of every key)', runs, () => scan(stored, keys.key(unknown)) >= 0);
const afterKnown = time('  now, known UUID (hash + lookup + one compare)', 20_000, () => roster.status(keys.key(known), NOW_MS));
const afterUnknown = time('  now, unknown UUID (hash + lookup + one compare)', 20_000, () => roster.status(keys.key(unknown), NOW_MS));
console.log(
  `  ratio before/now: known ${(beforeKnown / afterKnown).toFixed(0)}x, unknown ${(beforeUnknown / afterUnknown).toFixed(0)}x; known/unknown now ${(afterKnown / afterUnknown).toFixed(2)}`,
);
console.log('\n/v1/now station_count');
const beforeCount = time('  before (a count over every station per request)', runs, () => {
  let n = 0;
  for (const e of p.list.feeders) if (e.connected) n++;
  return n;
});
const afterCount = time('  now (prepared once per roster version)', 20_000, () => roster.stationCount(NOW_MS));
console.log(`  ratio before/now: ${(beforeCount / afterCount).toFixed(0)}x; station_count ${roster.stationCount(NOW_MS)}`);
