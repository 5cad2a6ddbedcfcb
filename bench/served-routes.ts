// what the nightly spent before its accuracy replay with no step named: the routes table encoded to
// meta/routes and decoded again for the replay's destination lookup, against taking the served
// table straight from the build's (servedRoutesOf), on a seeded table the size of the catalog's.
//   npx tsx bench/served-routes.ts [--routes 575463] [--rounds 3]
// prints each round's times and the ratio of the medians; a sink keeps the work from being dropped.
import './help.ts';
import { loadavg } from 'node:os';
import { decodeRoutesTable, destinationLookup, encodeRoutesTable, servedRoutesOf } from '../artifacts/meta.ts';
import type { RoutesTable } from '../artifacts/routes-table.ts';
import { mulberry32 } from '../lib/random.ts';
import { numberFlag } from './flags.ts';

const routes = numberFlag('routes', 575_463);
const rounds = numberFlag('rounds', 3);
const rnd = mulberry32(45);
const L = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const letters = (n: number) => Array.from({ length: n }, () => L[Math.floor(rnd() * 26)]).join('');
const table: RoutesTable = new Map();
while (table.size < routes) {
  const [org, dst] = [letters(3), letters(3)];
  const entry = { org, dst, org_ident: `K${org}`, dst_ident: `K${dst}`, route_source: 'catalog' as const, org_seen: false, dst_seen: false };
  table.set(letters(3) + Math.floor(rnd() * 10000), entry);
}

let sink = 0;
const time = (f: () => ReturnType<typeof servedRoutesOf>) => {
  const t0 = performance.now();
  const lookup = destinationLookup(f(), null);
  sink += lookup('AAA1') === null ? 1 : 0;
  return performance.now() - t0;
};
const median = (v: number[]) => [...v].sort((a, b) => a - b)[v.length >> 1]!;
const trip: number[] = [];
const straight: number[] = [];
console.log(`${routes} routes, ${rounds} rounds, Node ${process.version}, load ${loadavg()[0]!.toFixed(1)}`);
for (let r = 0; r < rounds; r++) {
  trip.push(time(() => decodeRoutesTable(encodeRoutesTable(table))));
  straight.push(time(() => servedRoutesOf(table)));
  console.log(`round ${r + 1}: round trip ${trip[r]!.toFixed(0)} ms, straight ${straight[r]!.toFixed(0)} ms`);
}
const ratio = (median(trip) / median(straight)).toFixed(1);
console.log(`median: round trip ${median(trip).toFixed(0)} ms, straight ${median(straight).toFixed(0)} ms, ratio ${ratio}x (sink ${sink})`);
