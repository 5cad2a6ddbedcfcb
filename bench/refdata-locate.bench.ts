// locate() throughput over the shipped snapshot: seeded points, half on real runways (hits),
// half uniformly random (mostly misses). run: node --import tsx bench/refdata-locate.bench.ts
import './help.ts';
import { mulberry32 } from '../lib/random.ts';
import { readRefFile } from '../lib/reference/index.ts';
import { parseAirports } from '../lib/reference/airports.ts';
import { parseRunways } from '../lib/reference/runways.ts';
import { buildLocator } from '../lib/reference/locate.ts';

const dir = process.argv[2] ?? 'data/ref';
const airports = parseAirports(await readRefFile(dir, 'ourairports/airports.csv.gz')).airports;
const runways = parseRunways(await readRefFile(dir, 'ourairports/runways.csv.gz')).runways;
let t = performance.now();
const locator = buildLocator(airports, runways);
console.log(`build: ${(performance.now() - t).toFixed(0)} ms for ${locator.size} assignable airports`);

const rand = mulberry32(42);
const located = runways.filter((r) => r.le && r.he);
const N = 1_000_000;
const pts = new Float64Array(N * 2);
for (let i = 0; i < N; i++) {
  if (i % 2 === 0) {
    const r = located[Math.floor(rand() * located.length)]!;
    const f = rand();
    pts[2 * i] = r.le!.lat + f * (r.he!.lat - r.le!.lat);
    pts[2 * i + 1] = r.le!.lon + f * (r.he!.lon - r.le!.lon);
  } else {
    pts[2 * i] = rand() * 140 - 60;
    pts[2 * i + 1] = rand() * 360 - 180;
  }
}
const runs: number[] = [];
let sink = 0;
for (let rep = 0; rep < 5; rep++) {
  t = performance.now();
  for (let i = 0; i < N; i++) if (locator.locate(pts[2 * i]!, pts[2 * i + 1]!)) sink++;
  runs.push(performance.now() - t);
}
runs.sort((a, b) => a - b);
const rate = (ms: number) => Math.round(N / (ms / 1000)).toLocaleString('en-US');
console.log(`locate: best ${rate(runs[0]!)}/s, median ${rate(runs[2]!)}/s over ${N} points x5 (hits ${sink / 5}); node ${process.version}`);
