// what one estimate costs on the serving thread: makePlan and its first listing (positionAt 90 s
// after last heard), then its later listings (asked once a second, as a busy map asks), on synthetic worst-case traffic: many long paths through every start, each reaching the
// whole 2 hours, with a point every 2 km (real paths keep one per ~54 km). seeded, deterministic.
//   npx tsx bench/estimate-plan.ts [--paths N] [--plans N]
import { makePlan, positionAt, type FlightStart } from '../lib/estimate/fly.ts';
import { pathSet, type TrafficPath } from '../lib/estimate/paths.ts';
import { destinationPoint, distanceKm } from '../lib/geo.ts';

const arg = (name: string, d: number) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]) : d;
};
if (process.argv.includes('--help')) {
  console.log(
    'usage: npx tsx bench/estimate-plan.ts [--paths N (40)] [--plans N (300)]\n  times makePlan + first listing and the later listings per plan, on synthetic traffic',
  );
  process.exit(0);
}
const nPaths = arg('--paths', 40);
const nPlans = arg('--plans', 300);

let seed = 42;
const rnd = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;

// paths eastbound from 10 W along about 47 N, a few km apart, wiggling gently, 2,400 km long
const paths: TrafficPath[] = [];
for (let k = 0; k < nPaths; k++) {
  const lat: number[] = [];
  const lon: number[] = [];
  let p = { lat: 47 + (rnd() - 0.5) * 0.1, lon: -10 };
  let track = 90;
  for (let i = 0; i < 1200; i++) {
    lat.push(p.lat);
    lon.push(p.lon);
    track = 90 + Math.sin(i / 40 + k) * 8;
    p = destinationPoint(p.lat, p.lon, track, 2 / 1.852);
  }
  const cum = new Float64Array(lat.length);
  for (let i = 1; i < lat.length; i++) cum[i] = cum[i - 1]! + distanceKm(lat[i - 1]!, lon[i - 1]!, lat[i]!, lon[i]!);
  paths.push({ day: '2026-09-20', to: { lat: 47, lon: 30 }, lat: Float64Array.from(lat), lon: Float64Array.from(lon), cum });
}
const set = pathSet(paths);
const dest = { lat: 47, lon: 30 };

const first: number[] = [];
const total: number[] = [];
const calls = new Float64Array(nPlans * 7200);
let nCalls = 0;
const started = performance.now();
for (let n = 0; n < nPlans; n++) {
  const start: FlightStart = { t: 1_790_000_000, lat: 47 + (rnd() - 0.5) * 0.1, lon: -9 + rnd(), track: 88 + rnd() * 4, gs: 450, alt: 36000 };
  let t0 = performance.now();
  const plan = makePlan(start, dest, { paths: set });
  positionAt(plan, start.t + 90);
  first.push(performance.now() - t0);
  let sum = 0;
  for (let t = start.t + 91; t < Math.min(plan.expiresAt, start.t + 7200); t++) {
    t0 = performance.now();
    positionAt(plan, t);
    const dt = performance.now() - t0;
    calls[nCalls++] = dt;
    sum += dt;
  }
  total.push(sum);
  if (n % 50 === 49) process.stderr.write(`${n + 1}/${nPlans} plans\r`);
}
const med = (v: number[]) => [...v].sort((a, b) => a - b)[v.length >> 1]!;
const p95 = (v: number[]) => [...v].sort((a, b) => a - b)[Math.floor(v.length * 0.95)]!;
console.log(`${nPaths} paths of ${paths[0]!.lat.length} points, ${nPlans} plans, ${((performance.now() - started) / 1000).toFixed(1)} s`);
console.log(`makePlan + first listing: median ${med(first).toFixed(3)} ms, p95 ${p95(first).toFixed(3)} ms`);
const c = calls.subarray(0, nCalls).sort();
console.log(
  `later listings (${nCalls} calls): median ${c[nCalls >> 1]!.toFixed(4)} ms, p99 ${c[Math.floor(nCalls * 0.99)]!.toFixed(4)} ms, p99.9 ${c[Math.floor(nCalls * 0.999)]!.toFixed(4)} ms`,
);
console.log(`all later listings of one plan (up to 2 h, one a second): median ${med(total).toFixed(2)} ms`);
