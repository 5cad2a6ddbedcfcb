// benchmark (run by hand, never a test): the nightly's schedules step alone, a first build
// (build/steps/schedules/build.ts: the window's legs counted, every document written, the counts
// saved) over a real flight log (e.g. one `sim/cli.ts log` wrote): wall time per phase (the
// progress lines), peak RSS and the V8 heap at that moment (the rest is DuckDB's and other native
// memory), and a digest of every (key, sha256) written, so two versions of the code can be shown to
// write the same bytes. The routes table is the one a build saved (--routes
// <version>/state/schedules-routes.parquet) or empty (a leg's missing end is never filled).
// usage: npx tsx bench/schedules-step.ts --log <dir> [--routes <parquet>] [--memory-limit 4GB] [--dir /tmp]
import './help.ts';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { loadRefdata } from '../lib/reference/index.ts';
import { refViewOf } from '../artifacts/reference-view-adapter.ts';
import { ArtifactWriter } from '../build/publish/writer.ts';
import { openRoutedLog } from './routed-log.ts';
import { buildSchedules } from '../build/steps/schedules/build.ts';
import type { BuildContext } from '../build/steps/context.ts';
import type { Progress } from '../build/progress.ts';
import { gb, peakMemory } from './peak-memory.ts';
import { flag } from './flags.ts';

const LOG = flag('log', '');
const ROUTES = flag('routes', '');
const MEMORY_LIMIT = flag('memory-limit', '4GB');
const DIR = flag('dir', '/tmp');
if (!LOG) throw new Error('--log <flight log root> is required');

const out = mkdtempSync(join(DIR, 'schedules-step-'));
const ref = await loadRefdata();
const view = refViewOf(ref);
const { db, legs, close } = await openRoutedLog(LOG, view, { routes: ROUTES || undefined, memoryLimit: MEMORY_LIMIT, tempDirectory: join(out, 'spill') });

const memory = peakMemory();
let phase = performance.now();
// each phase's line: its wall time and the peak RSS within it
const progress: Progress = {
  start() {
    phase = performance.now();
    memory.reset();
  },
  tick() {},
  done(summary) {
    const p = memory.peak();
    console.log(
      `  ${((performance.now() - phase) / 1000).toFixed(1)} s, peak RSS ${gb(p.rss)} GB (V8 heap ${gb(p.heapUsed)} used of ${gb(p.heapTotal)}): ${summary}`,
    );
  },
};
const writer = new ArtifactWriter(join(out, 'v'), null);
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
  progress,
  counts: {},
};
const t0 = performance.now();
await buildSchedules(ctx, legs);
await writer.flush();
await writer.close();
const wall = (performance.now() - t0) / 1000;
const h = createHash('sha256');
const ks = [...writer.objects.keys()].sort();
for (const k of ks) h.update(`${k}\0${writer.objects.get(k)!.sha256}\n`);
console.log(`schedules step: ${ks.length} documents in ${wall.toFixed(1)} s; keys+sha256 digest ${h.digest('hex').slice(0, 16)}`);
memory.stop();
close();
rmSync(out, { recursive: true, force: true });
