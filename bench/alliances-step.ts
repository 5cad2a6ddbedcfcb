// benchmark (run by hand, never a test): the nightly's alliances step alone (build/steps/alliances/build.ts)
// over a real flight log (e.g. one `sim/cli.ts log` wrote): wall time, peak RSS (and the V8 heap at
// that moment: the rest is DuckDB's) and a digest of the documents and of the count tables the step
// records in state/, so two versions of the code can be shown to count the same.
// With --new-day D: the first build leaves out day D, then the night that adds it is counted from
// the first build's tables (the delta path) and its digest printed beside a full count of the
// same window, which must match.
// usage: npx tsx bench/alliances-step.ts --log <dir> [--memory-limit 4GB] [--new-day YYYY-MM-DD] [--dir /tmp]
import './help.ts';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { loadRefdata } from '../lib/reference/index.ts';
import { refViewOf } from '../artifacts/reference-view-adapter.ts';
import { ArtifactWriter } from '../build/publish/writer.ts';
import { loadRefAirports } from '../build/steps/duck.ts';
import { buildAlliances } from '../build/steps/alliances/build.ts';
import type { BuildContext } from '../build/steps/context.ts';
import { silentProgress } from '../build/progress.ts';
import { gb, peakMemory } from './peak-memory.ts';
import { flag } from './flags.ts';

const LOG = flag('log', '');
const MEMORY_LIMIT = flag('memory-limit', '4GB');
const NEW_DAY = flag('new-day', '');
const DIR = flag('dir', '/tmp');
if (!LOG) throw new Error('--log <flight log root> is required');

const ref = await loadRefdata();
const view = refViewOf(ref);
const db = await (await DuckDBInstance.create(':memory:', { threads: '2', preserve_insertion_order: 'false', memory_limit: MEMORY_LIMIT })).connect();
await db.run(`CREATE TABLE bench_upto AS SELECT ${NEW_DAY ? `DATE '${NEW_DAY}' - 1` : `DATE '9999-12-31'`} AS upto`);
await db.run(`CREATE VIEW legs AS SELECT * FROM read_parquet('${join(LOG, '*', 'legs.parquet')}', hive_partitioning = true, hive_types = {'day': DATE})
  WHERE day <= (SELECT upto FROM bench_upto)`);
const airports = await loadRefAirports(db, view);

const memory = peakMemory();

/** the count tables a build recorded, sorted, as one digest */
async function statesDigest(dir: string): Promise<string> {
  const h = createHash('sha256');
  for (const t of ['hexes', 'days', 'ends', 'pairs']) {
    const reader = await db.runAndReadAll(`SELECT * FROM read_parquet('${join(dir, 'state', `alliance-${t}.parquet`)}') ORDER BY ALL`);
    h.update(`${t}\n${JSON.stringify(reader.getRows(), (_, v) => (typeof v === 'bigint' ? Number(v) : v))}\n`);
  }
  return h.digest('hex').slice(0, 16);
}

async function timedRun(label: string, extra: Partial<BuildContext> = {}): Promise<ArtifactWriter> {
  const writer = new ArtifactWriter(join(mkdtempSync(join(DIR, 'alliances-step-')), 'v'), null);
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
  await buildAlliances(ctx, airports);
  await writer.flush();
  const wall = (performance.now() - t0) / 1000;
  const peak = memory.peak();
  const h = createHash('sha256');
  for (const k of [...writer.objects.keys()].sort()) h.update(`${k}\0${writer.objects.get(k)!.sha256}\n`);
  console.log(
    `${label}: ${wall.toFixed(1)} s, peak RSS ${gb(peak.rss)} GB (V8 heap ${gb(peak.heapUsed)}); documents ${h.digest('hex').slice(0, 16)}, count tables ${await statesDigest(writer.dir)}`,
  );
  return writer;
}

const first = await timedRun(NEW_DAY ? `first build, without ${NEW_DAY}` : 'first build');
if (NEW_DAY) {
  await db.run(`UPDATE bench_upto SET upto = DATE '9999-12-31'`);
  const night = await timedRun(`+ ${NEW_DAY}, from the first build's counts`, { reuse: first.dir, logDays: { added: [NEW_DAY], dropped: [] } });
  const full = await timedRun(`+ ${NEW_DAY}, counted in full`);
  rmSync(join(night.dir, '..'), { recursive: true, force: true });
  rmSync(join(full.dir, '..'), { recursive: true, force: true });
}
rmSync(join(first.dir, '..'), { recursive: true, force: true });
memory.stop();
db.closeSync();
