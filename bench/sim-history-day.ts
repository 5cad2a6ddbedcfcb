// benchmark (by hand, not a test): what one simulated globe_history day costs the demo's writer.
//   npx tsx bench/sim-history-day.ts [--days 2] [--aircraft 120]
// loads the demo's sky once (seed 1, the demo's faults, --aircraft as `make demo`), then for each day
// from 2026-11-30: the day's texts (sim/history.ts historyDay), then gzip of every file at the
// writer's level, and as the floor the same texts gzipped at zlib's default level 6 (what the writer
// used before) -- all on this thread, CPU time per part. prints the load, rows, files, the parts in
// ms and µs a row, and a digest of every text and truth line (equal digests: the same days).
import './help.ts';
import { createHash } from 'node:crypto';
import { loadavg } from 'node:os';
import { gzipSync } from 'node:zlib';
import { installed } from '../lib/install.ts';
import { TRACE_GZIP, historyDay } from '../sim/history.ts';
import { FLEET_PER_AIRBORNE, createSky } from '../sim/sky.ts';
import { DEMO_FAULTS } from '../sim/faults.ts';
import { numberFlag } from './flags.ts';

const DAYS = numberFlag('days', 2);
const AIRCRAFT = numberFlag('aircraft', 120);
const cpuMs = (f: () => void) => {
  const a = process.cpuUsage();
  f();
  const b = process.cpuUsage(a);
  return (b.user + b.system) / 1000;
};
const load = () => loadavg()[0]!.toFixed(2);

let sky!: ReturnType<typeof createSky>;
const world = cpuMs(() => {
  sky = createSky({ ref: installed('data/ref'), seed: 1, fleet: Math.ceil(AIRCRAFT * FLEET_PER_AIRBORNE), routeRows: 0, faults: DEMO_FAULTS });
});
console.log(`node ${process.version}, load ${load()}: world ${world.toFixed(0)} ms CPU, ${sky.fleet.length} airframes`);
const digest = createHash('sha256');
let sink = 0;
for (let d = 0; d < DAYS; d++) {
  const dayStart = Date.parse('2026-11-30T00:00:00Z') / 1000 + d * 86400;
  let h!: ReturnType<typeof historyDay>;
  const text = cpuMs(() => (h = historyDay(sky, dayStart)));
  const rows = h.traces.reduce((n, t) => n + t.text.split('\n[').length - 1, 0);
  const gz = cpuMs(() => {
    for (const t of h.traces) sink += gzipSync(t.text, TRACE_GZIP).length;
  });
  const gz6 = cpuMs(() => {
    for (const t of h.traces) sink += gzipSync(t.text).length;
  });
  for (const t of h.traces) digest.update(t.hex).update(t.text);
  for (const e of h.events) digest.update(JSON.stringify(e));
  for (const t of h.truth) digest.update(JSON.stringify(t));
  console.log(
    `day ${d + 1} (load ${load()}): ${h.traces.length} files, ${rows} rows; texts ${text.toFixed(0)} ms (${((text * 1000) / rows).toFixed(1)} µs a row), ` +
      `gzip at the writer's level ${gz.toFixed(0)} ms, at level 6 ${gz6.toFixed(0)} ms`,
  );
}
console.log(`digest ${digest.digest('hex').slice(0, 16)} (sink ${sink})`);
