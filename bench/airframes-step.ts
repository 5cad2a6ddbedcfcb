// benchmark (run by hand, never a test): the nightly's airframes step alone (build/steps/airframes/build.ts)
// over a real flight log (e.g. one `sim/cli.ts log` wrote), a first build into a fresh folder each
// run: wall time, documents/s, the main thread's CPU against the whole process's (the step is
// bound by the main thread when the first is near the wall time), peak RSS, and a digest of every
// (key, sha256) written, so two versions of the code can be shown to write the same bytes.
// The routes table is left empty (a leg's missing end is never filled): the same work for any code.
// --workers 1,2 alternates the write worker counts within each run, in one process (a later
// process would create its files among the ones this one removed at exit: see remove-later.ts);
// --new-day takes the first count only. --keep leaves the written trees (their paths printed) for
// removal by hand, so that two checkouts can be alternated in separate processes.
// With --new-day D: the first build leaves out day D, then each round builds the night that adds
// it over that first build twice, alternating: restricted (ctx.logDays: only the airframes with
// legs in D are aggregated, build/steps/airframes/changed.ts) and full (every airframe aggregated, unchanged
// digests kept: the path before the restriction, and the fallback). Wall time excludes the
// hard-link copy of the first build.
// usage: npx tsx bench/airframes-step.ts --log <dir> [--below 400000] [--runs 1] [--workers 2 (one per core, at most 2; 1,2 alternates)] [--dir /tmp] [--new-day YYYY-MM-DD] [--legs-per-batch N (default: the step's own)] [--memory-limit 4GB] [--keep]
import './help.ts';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { loadRefdata } from '../lib/reference/index.ts';
import { refViewOf } from '../artifacts/reference-view-adapter.ts';
import { ArtifactWriter } from '../build/publish/writer.ts';
import { loadRefAirports } from '../build/steps/duck.ts';
import { buildAirframes } from '../build/steps/airframes/build.ts';
import type { BuildContext } from '../build/steps/context.ts';
import { silentProgress } from '../build/progress.ts';
import { gb, peakMemory } from './peak-memory.ts';
import { flag, numberFlag } from './flags.ts';
import { removeLater } from './remove-later.ts';
import { defaultWriteWorkers } from '../build/publish/write-pool.ts';

const LOG = flag('log', '');
const BELOW = flag('below', 'ffffff~');
const RUNS = numberFlag('runs', 1);
// one count, or several (1,2) taken in turn within each run, in this one process
const WORKERS = flag('workers', String(defaultWriteWorkers())).split(',').map(Number);
if (WORKERS.some((w) => !Number.isInteger(w) || w < 0)) throw new Error('--workers: counts of 0 or more, comma-separated');
const DIR = flag('dir', '/tmp');
const NEW_DAY = flag('new-day', '');
// legs per batch of the first build and the night alike; default: the step's own (LEGS_PER_BATCH, CHANGED_LEGS_PER_BATCH)
const LEGS_PER_BATCH = flag('legs-per-batch', '') ? numberFlag('legs-per-batch', 0) : undefined;
const MEMORY_LIMIT = flag('memory-limit', '4GB');
/** leave the written trees for removal by hand: runs of two checkouts, alternated in separate processes, then each create their files with no removal just before (remove-later.ts) */
const KEEP = process.argv.includes('--keep');
const scrap = (dir: string) => (KEEP ? console.log(`kept ${dir}`) : removeLater(dir));
if (!LOG) throw new Error('--log <flight log root> is required');

/** a thread's CPU seconds, user and system (Linux /proc; the main thread's task has the process id) */
function taskTimes(tid: string): [number, number] {
  const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
  const f = stat.slice(stat.lastIndexOf(') ') + 2).split(' ');
  return [Number(f[11]) / 100, Number(f[12]) / 100]; // utime, stime in ticks (USER_HZ 100)
}
function taskCpu(tid: string): number {
  const [user, sys] = taskTimes(tid);
  return user + sys;
}
/** a thread's name: DuckDB's and V8's threads are all "node", a worker thread is "WorkerThread" */
const taskName = (tid: string) => readFileSync(`/proc/self/task/${tid}/comm`, 'utf8').trim();
const mainThreadCpu = () => taskCpu(String(process.pid));

/** CPU seconds (user, system) and name per thread */
function cpuByThread(): Map<string, { name: string; user: number; sys: number }> {
  const out = new Map<string, { name: string; user: number; sys: number }>();
  for (const tid of readdirSync('/proc/self/task')) {
    try {
      const [user, sys] = taskTimes(tid);
      out.set(tid, { name: taskName(tid), user, sys });
    } catch {
      // the thread ended meanwhile
    }
  }
  return out;
}

const ref = await loadRefdata();
const db = await (await DuckDBInstance.create(':memory:', { threads: '2', preserve_insertion_order: 'false', memory_limit: MEMORY_LIMIT })).connect();
// the newest day the legs view shows: the day before --new-day for the first build
await db.run(`CREATE TABLE bench_upto AS SELECT ${NEW_DAY ? `DATE '${NEW_DAY}' - 1` : `DATE '9999-12-31'`} AS upto`);
await db.run(`CREATE VIEW legs AS SELECT * FROM read_parquet('${join(LOG, '*', 'legs.parquet')}', hive_partitioning = true, hive_types = {'day': DATE})
  WHERE hex < '${BELOW}' AND day <= (SELECT upto FROM bench_upto)`);
const view = refViewOf(ref);
await loadRefAirports(db, view);
await db.run(
  `CREATE TABLE routes_table (callsign VARCHAR, org VARCHAR, dst VARCHAR, org_ident VARCHAR, dst_ident VARCHAR, route_source VARCHAR, org_seen BOOLEAN, dst_seen BOOLEAN)`,
);
await db.run(`CREATE VIEW legs_routed AS
  SELECT hex, upper(trim(callsign)) AS callsign, reg, type, first_ts, last_ts, dep_ts, arr_ts, day, org AS org_ident, dst AS dst_ident,
    ao.iata AS org, ad.iata AS dst,
    CASE WHEN org IS NOT NULL AND dst IS NOT NULL AND ao.iata IS NOT NULL AND ad.iata IS NOT NULL THEN 'observed' END AS route_source,
    NULL::VARCHAR AS table_source
  FROM legs l LEFT JOIN ref_airports ao ON ao.ident = l.org LEFT JOIN ref_airports ad ON ad.ident = l.dst`);
const memory = peakMemory();

/** one build of the step into `writer`, timed and printed */
async function timedRun(label: string, writer: ArtifactWriter, extra: Partial<BuildContext> = {}): Promise<void> {
  const ctx: BuildContext = {
    db,
    refdata: ref,
    ref: view,
    writer,
    archiveThrough: '2025-12-31',
    windowStart: '2025-01-01',
    windowDays: 365,
    windowLimit: 365,
    timetablesDir: null,
    nowMs: Date.UTC(2026, 0, 1),
    progress: silentProgress,
    counts: {},
    ...extra,
  };
  memory.reset();
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  const main0 = mainThreadCpu();
  const threads0 = cpuByThread();
  await buildAirframes(ctx, { view: 'legs_routed', table: 'routes_table' } as Parameters<typeof buildAirframes>[1], db, LEGS_PER_BATCH);
  await writer.flush();
  const wall = (performance.now() - t0) / 1000;
  const main = mainThreadCpu() - main0;
  // the busiest threads but the main one: the write worker and DuckDB's, by CPU
  const threads = [...cpuByThread()]
    .filter(([t]) => t !== String(process.pid))
    .map(([t, c]) => ({ name: c.name, user: c.user - (threads0.get(t)?.user ?? 0), sys: c.sys - (threads0.get(t)?.sys ?? 0) }))
    .sort((a, b) => b.user + b.sys - a.user - a.sys)
    .slice(0, 4);
  const cpu = process.cpuUsage(cpu0);
  const all = (cpu.user + cpu.system) / 1e6;
  const peak = memory.peak();
  await writer.close();
  const h = createHash('sha256');
  const ks = [...writer.objects.keys()].sort();
  for (const k of ks) h.update(`${k}\0${writer.objects.get(k)!.sha256}\n`);
  const docs = ks.length;
  console.log(
    `${label}: ${docs} documents (${ctx.counts.airframes} airframes; ${writer.stats.written} written, ${writer.stats.linked} unchanged) in ${wall.toFixed(1)} s = ${Math.round(docs / wall)} documents/s; ` +
      `main thread ${main.toFixed(1)} s CPU (${Math.round((main / docs) * 1e6)} µs/document, ${Math.round((main / wall) * 100)} % of the wall), ` +
      `all threads ${all.toFixed(1)} s (busiest others, user+system: ${threads.map((c) => `${c.name} ${c.user.toFixed(1)}+${c.sys.toFixed(1)}`).join(', ')} s); peak RSS ${gb(peak.rss)} GB (V8 heap ${gb(peak.heapUsed)}, array buffers ${gb(peak.arrayBuffers)}); keys+sha256 digest ${h.digest('hex').slice(0, 16)}`,
  );
}

const newWriter = (dir: string, previous: ArtifactWriter | null, workers = WORKERS[0]!) =>
  new ArtifactWriter(join(dir, 'v'), previous && { dir: previous.dir, objects: previous.objects }, { workers, validate: 'sample', seed: 1 });

if (!NEW_DAY) {
  for (let run = 1; run <= RUNS; run++) {
    for (const workers of WORKERS) {
      const dir = mkdtempSync(join(DIR, 'airframes-step-'));
      scrap(dir);
      await timedRun(`run ${run}, ${workers} write workers`, newWriter(dir, null, workers));
    }
  }
} else {
  const firstDir = mkdtempSync(join(DIR, 'airframes-step-'));
  scrap(firstDir);
  const first = newWriter(firstDir, null);
  await timedRun(`first build, without ${NEW_DAY}`, first);
  await db.run(`UPDATE bench_upto SET upto = DATE '9999-12-31'`);
  for (let run = 1; run <= RUNS; run++) {
    for (const restricted of [true, false]) {
      const dir = mkdtempSync(join(DIR, 'airframes-step-'));
      scrap(dir);
      const night = newWriter(dir, first);
      await timedRun(`round ${run}, + ${NEW_DAY}, ${restricted ? 'restricted' : 'full path'}`, night, {
        reuse: first.dir,
        logDays: restricted ? { added: [NEW_DAY], dropped: [] } : null,
      });
    }
  }
}
memory.stop();
db.closeSync();
