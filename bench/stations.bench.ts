// stations: parse cost of a big feeder list, and the private-status lookup for a known vs an unknown UUID.
// run by hand: node --import tsx bench/stations.bench.ts [stations=10000]
import './help.ts';
import { StationKeys } from '../server/stations/ids.ts';
import { parseFeederList } from '../server/stations/parse.ts';
import { Roster } from '../server/stations/roster.ts';

const N = Number(process.argv[2] ?? 10_000);
// seeded: a fixed secret and UUIDs from a linear congruential generator
let seed = 12345;
const rnd = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32);
const hex = (n: number) => Array.from({ length: n }, () => Math.floor(rnd() * 16).toString(16)).join('');
const uuid = () => `${hex(8)}-${hex(4)}-4${hex(3)}-8${hex(3)}-${hex(12)}`;
const keys = new StationKeys(Buffer.alloc(32, 3));
const uuids = Array.from({ length: N }, uuid);
const text = JSON.stringify({
  generated_at: 1795435200,
  feeders: uuids.map((u, i) => ({ uuid: u, lat: -60 + (i % 1200) / 10, lon: -180 + (i % 3600) / 10, connected: true, ip: '192.0.2.1', software: 'readsb 3.14', messages: i * 100, positions: i * 10, aircraft: i % 300 })),
});

function time(label: string, runs: number, fn: () => unknown): void {
  let sink = 0;
  for (let i = 0; i < Math.min(runs, 50); i++) sink += fn() ? 1 : 0; // warm-up
  const t: number[] = [];
  for (let i = 0; i < runs; i++) {
    const a = process.hrtime.bigint();
    sink += fn() ? 1 : 0;
    t.push(Number(process.hrtime.bigint() - a) / 1e6);
  }
  t.sort((x, y) => x - y);
  console.log(`${label}: min ${t[0]!.toFixed(3)} ms, median ${t[t.length >> 1]!.toFixed(3)} ms (sink ${sink})`);
}

console.log(`node ${process.version}, ${N} stations, list ${(text.length / 1e6).toFixed(2)} MB`);
time('parse feeder list', 20, () => parseFeederList(text, keys).ok);
const p = parseFeederList(text, keys);
if (!p.ok) throw new Error('bench list did not parse');
const roster = new Roster();
roster.apply(p.list, 1795435200_000, (k) => keys.publicId(k));
time('publicList (roster body)', 50, () => roster.publicList(1795435200_000).length);
const known = uuids[N >> 1]!;
const unknown = uuid();
time('status, known UUID (hash + scan)', 2000, () => roster.status(keys.key(known), 1795435200_000));
time('status, unknown UUID (hash + scan)', 2000, () => roster.status(keys.key(unknown), 1795435200_000));
