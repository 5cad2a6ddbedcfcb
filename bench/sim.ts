// benchmark (by hand, not a test): how long the simulator takes to make its outputs.
//   npx tsx bench/sim.ts [--runs 3] [--history-aircraft 3000] [--log-days 365] [--skip-log] [--live-only]
// seeded (seed 1); min and median of the runs; the outputs go to .bench/sim and are kept.
import './help.ts';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { skyWithAircraft } from '../sim/cli.ts';
import { FLEET_PER_AIRBORNE, aircraftJson, createSky, heardAt, liveFlights } from '../sim/sky.ts';
import { writeHistory } from '../sim/history.ts';
import { writeFastLog } from '../sim/log.ts';
import { loadWorld } from '../sim/world.ts';
import { numberFlag } from './flags.ts';

const args = process.argv.slice(2);
const RUNS = numberFlag('runs', 3);
const HIST = numberFlag('history-aircraft', 3000);
const LOG_DAYS = numberFlag('log-days', 365);
const OUT = join(import.meta.dirname, '..', '.bench', 'sim');
const T = Date.parse('2025-06-02T14:00:00Z') / 1000;
let sink = 0;

async function time(label: string, runs: number, f: () => unknown | Promise<unknown>): Promise<void> {
  const ms: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    const r = await f();
    ms.push(performance.now() - t0);
    sink += typeof r === 'number' ? r : 1;
  }
  ms.sort((a, b) => a - b);
  console.log(`${label}: min ${(ms[0]! / 1000).toFixed(2)} s, median ${(ms[Math.floor(ms.length / 2)]! / 1000).toFixed(2)} s (${runs} runs)`);
}

console.log(`node ${process.version}, ${process.platform} ${process.arch}`);
mkdirSync(OUT, { recursive: true });
let t0 = performance.now();
const world = loadWorld({ ref: 'data/ref', routeRows: 0 });
console.log(
  `world (reference data, whole catalog): ${((performance.now() - t0) / 1000).toFixed(2)} s, ${world.routes.length} routes, ${world.airports.length} airports`,
);

for (const n of args.includes('--live-only') ? [] : [12000, 15000]) {
  // each run from a fresh sky: plans and schedules are built from scratch, as the command does
  await time(`snapshot ${n} aircraft (fleet, schedules, plans, JSON)`, RUNS, () => {
    const sky = createSky({ ref: 'data/ref', seed: 1, fleet: Math.ceil(n * FLEET_PER_AIRBORNE), routeRows: 0 }, world);
    const { doc } = skyWithAircraft(sky, n, T);
    const text = JSON.stringify(doc);
    writeFileSync(join(OUT, `aircraft-${n}.json`), text);
    return text.length;
  });
}
{
  // the live loop's steady state: the next second, schedules memoised
  const sky = createSky({ ref: 'data/ref', seed: 1, fleet: Math.ceil(15000 * FLEET_PER_AIRBORNE), routeRows: 0 }, world);
  const { sky: big } = skyWithAircraft(sky, 15000, T);
  const flightOf = liveFlights(big);
  heardAt(big, T, (af) => flightOf(af, T));
  let s = 1;
  // what sim/live.ts does each second: memoised flights, states, coverage, JSON
  await time('live tick, 15,000-aircraft sky (one second later, memoised)', RUNS, () => {
    const t = T + s++;
    return JSON.stringify(
      aircraftJson(
        big,
        t,
        heardAt(big, t, (af) => flightOf(af, t)),
      ),
    ).length;
  });
}
if (!args.includes('--live-only'))
  await time(`one globe_history day, ~${HIST} airborne at peak (gzip + write)`, 1, () => {
    const root = join(OUT, 'globe_history');
    rmSync(root, { recursive: true, force: true });
    const sky = createSky({ ref: 'data/ref', seed: 1, fleet: Math.ceil(HIST * FLEET_PER_AIRBORNE), routeRows: 0 }, world);
    const r = writeHistory(sky, root, '2025-06-02', 1);
    console.log(`  ${r.files} files, ${r.truth.length} flights`);
    return r.files;
  });
if (!args.includes('--skip-log') && !args.includes('--live-only')) {
  await time(`flight log fast path, ${LOG_DAYS} days x 137,000 legs, 600,000 airframes`, 1, async () => {
    const out = join(OUT, 'flight-log');
    rmSync(out, { recursive: true, force: true });
    // no tracks: a year of them is ~7 billion points (sim/log-tracks.ts); bench/flights-day.ts measures a day of them
    const r = await writeFastLog(world, {
      out,
      seed: 1,
      start: '2025-01-01',
      days: LOG_DAYS,
      legsPerDay: 137000,
      airframes: 600000,
      threads: 2,
      tracks: false,
    });
    console.log(`  ${r.legs} legs, ${r.airports} airports, ${r.sectors} sectors`);
    return r.legs;
  });
}
console.log(`(sink ${sink})`);
