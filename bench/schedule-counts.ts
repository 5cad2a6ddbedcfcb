// benchmark (run by hand, never a test): the refdata schedules' counts of a first build alone
// (build/steps/schedules/counts.ts, the full path: the window's legs counted, then listed per
// key and per route) over a flight log, e.g. one `sim/cli.ts log` wrote: wall time, the rows and
// list entries it keeps, the two state files' sizes, peak RSS. The routes table is the one a build
// saved (--routes state/schedules-routes.parquet) or empty (a leg's missing end is never filled).
// usage: npx tsx bench/schedule-counts.ts --log <dir> [--since YYYY-MM-DD] [--routes <parquet>]
//        [--threads 2] [--memory 4GB] [--out /tmp/schedule-counts-bench]
import './help.ts';
import { mkdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { loadRefdata } from '../lib/reference/index.ts';
import { refViewOf } from '../artifacts/reference-view-adapter.ts';
import { allRows } from '../build/steps/duck.ts';
import { openRoutedLog } from './routed-log.ts';
import { prepareScheduleCounts } from '../build/steps/schedules/counts.ts';
import type { BuildContext } from '../build/steps/context.ts';
import { silentProgress } from '../build/progress.ts';
import { saveState } from '../build/steps/state.ts';
import { flag } from './flags.ts';

const LOG = flag('log', '');
const SINCE = flag('since', '');
const ROUTES = flag('routes', '');
const OUT = flag('out', '/tmp/schedule-counts-bench');
if (!LOG) throw new Error('--log <flight log root> is required');

const ref = await loadRefdata();
// made first: DuckDB spills into it
mkdirSync(OUT, { recursive: true });
const { db, legs, close } = await openRoutedLog(LOG, refViewOf(ref), {
  routes: ROUTES || undefined,
  threads: Number(flag('threads', '2')),
  memoryLimit: flag('memory', '4GB'),
  since: SINCE || undefined,
  tempDirectory: join(OUT, 'spill'),
});
let peak = 0;
const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 100);

const ctx = { db, progress: silentProgress, reuse: null, logDays: null, windowDays: 0 } as unknown as BuildContext;
const t0 = performance.now();
await prepareScheduleCounts(ctx, db, legs, 'bench');
const counted = (performance.now() - t0) / 1000;
const [k] = await allRows<{ rows: number; entries: number; flights: number }>(
  db,
  `SELECT count(*)::INTEGER AS rows, sum(len(slots))::BIGINT AS entries, sum(flights)::BIGINT AS flights FROM sc_keys`,
);
const [r] = await allRows<{ rows: number; entries: number }>(db, `SELECT count(*)::INTEGER AS rows, sum(len(dates))::BIGINT AS entries FROM sc_routes`);
const t1 = performance.now();
const sizes: string[] = [];
for (const t of ['sc_keys', 'sc_routes']) {
  const file = join(OUT, `${t}.parquet`);
  await saveState(db, `SELECT * FROM ${t}`, file);
  sizes.push(`${t} ${(statSync(file).size / 1e6).toFixed(1)} MB`);
}
const saved = (performance.now() - t1) / 1000;
clearInterval(timer);
console.log(`log ${LOG}${SINCE ? ` since ${SINCE}` : ''}: ${k!.flights} departures counted in ${counted.toFixed(1)} s, saved in ${saved.toFixed(1)} s`);
console.log(
  `sc_keys ${k!.rows} rows, ${k!.entries} slot entries; sc_routes ${r!.rows} rows, ${r!.entries} date entries; ${sizes.join(', ')}; peak RSS ${(peak / 1e9).toFixed(2)} GB`,
);
close();
rmSync(OUT, { recursive: true, force: true });
