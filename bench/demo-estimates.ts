// figures (by hand, not a test): what the demo's live-feed catch-up gives the server, at every hour
// of one day: catch-up snapshots (= seconds to the present at one read a second), estimated aircraft
// once caught up (the real estimator, given each flight's destination as the routes table has it),
// and the time to choose the snapshots.
//   npx tsx bench/demo-estimates.ts [--day 2026-11-25] [--seed 1] [--aircraft 120]
// the demo's fleet (--aircraft x FLEET_PER_AIRBORNE airframes, whole catalog), seeded.
import { performance } from 'node:perf_hooks';
import { DEMO_CATCH_UP_S } from '../sim/demo.ts';
import { feedAt } from '../sim/feed.ts';
import { catchUpTimes } from '../sim/live.ts';
import { FLEET_PER_AIRBORNE, createSky, liveFlights } from '../sim/sky.ts';
import { Tracker } from '../server/estimate/tracker.ts';
import { parseFeed } from '../server/feed/parse.ts';
import { flag, numberFlag } from './flags.ts';

if (process.argv.includes('--help')) {
  process.stdout.write('usage: npx tsx bench/demo-estimates.ts [--day YYYY-MM-DD] [--seed N] [--aircraft N]\n');
  process.exit(0);
}
const day = Date.parse(`${flag('day', '2026-11-25')}T00:00:00Z`) / 1000;
const sky = createSky({ ref: 'data/ref', seed: numberFlag('seed', 1), fleet: Math.ceil(numberFlag('aircraft', 120) * FLEET_PER_AIRBORNE), routeRows: 0 });
const dst = new Map<string, { code: string; lat: number; lon: number }>();
for (const af of sky.fleet) for (const r of [...af.outs, ...af.backs]) dst.set(r.callsign, { code: r.dst.ident, lat: r.dst.lat, lon: r.dst.lon });

console.log(`| UTC hour | catch-up snapshots | estimated once caught up | choosing the snapshots |`);
console.log('|---|---|---|---|');
for (let h = 0; h < 24; h++) {
  const now = day + h * 3600;
  const t0 = performance.now();
  const times = catchUpTimes(sky, now, DEMO_CATCH_UP_S);
  const ms = performance.now() - t0;
  const tracker = new Tracker({ destinationOf: (cs) => dst.get(cs.trim()) ?? null });
  const flightOf = liveFlights(sky);
  for (const t of [...times, now]) {
    const r = parseFeed(JSON.stringify(feedAt(sky, t, flightOf)));
    if (r.ok) tracker.ingest(r.snapshot);
  }
  console.log(`| ${String(h).padStart(2, '0')} | ${times.length} | ${tracker.list(now).length} | ${ms.toFixed(0)} ms |`);
}
