// the shared part of the artifact-builder benchmarks (bench/build-routes-airframes.ts, bench/build-airports-alliances.ts):
// real reference data, an in-memory DuckDB holding a seeded synthetic `legs` table made by the
// caller's SQL, a real ArtifactWriter, and wall time and peak RSS per builder.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { loadRefdata } from '../lib/reference/index.ts';
import { ArtifactWriter } from '../build/publish/writer.ts';
import type { BuildContext } from '../build/steps/context.ts';
import type { Progress } from '../build/progress.ts';
import { refViewOf } from '../artifacts/reference-view-adapter.ts';

/** runs one step, printing its wall time and the peak RSS so far */
export type Timed = <T>(name: string, step: () => Promise<T>) => Promise<T>;

export interface LegsInput {
  /** airport idents with an IATA code, not closed */
  idents: string[];
  /** up to 500 airline ICAO codes that have an IATA code */
  airlines: string[];
}

/** usage: <bench> [legs=1000000] [airframes=20000] */
export const LEGS = Number(process.argv[2] ?? 1_000_000);
export const AIRFRAMES = Number(process.argv[3] ?? 20_000);

/** a SQL list literal of strings */
export const sqlList = (xs: string[]) => `[${xs.map((x) => `'${x}'`).join(',')}]`;

export async function benchBuilders(
  legsSql: (input: LegsInput) => string,
  steps: (ctx: BuildContext, timed: Timed) => Promise<void>,
  progress: Progress,
): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'contrail-bench-'));
  const ref = await loadRefdata();
  const input: LegsInput = {
    idents: ref.airports.all.filter((a) => a.iata && a.kind !== 'closed').map((a) => a.ident),
    airlines: ref.airlines.all
      .filter((a) => a.iata)
      .map((a) => a.icao)
      .slice(0, 500),
  };
  const db = await (await DuckDBInstance.create(':memory:')).connect();
  await db.run(`SET threads = 2`);
  const t0 = Date.now();
  await db.run(`CREATE TABLE legs AS ${legsSql(input)}`);
  console.log(`generated ${LEGS} legs in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  const ctx: BuildContext = {
    db,
    refdata: ref,
    ref: refViewOf(ref),
    writer: new ArtifactWriter(join(dir, 'v'), null),
    archiveThrough: '2025-05-31',
    windowStart: '2024-06-01',
    windowDays: 365,
    windowLimit: 365,
    timetablesDir: null,
    nowMs: Date.UTC(2025, 5, 1),
    progress,
    counts: {},
  };
  let peak = 0;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 200);
  const timed: Timed = async (name, step) => {
    const s = Date.now();
    const out = await step();
    peak = Math.max(peak, process.memoryUsage().rss);
    console.log(`${name}: ${((Date.now() - s) / 1000).toFixed(1)} s, peak rss ${(peak / 2 ** 30).toFixed(2)} GB`);
    return out;
  };
  await steps(ctx, timed);
  clearInterval(timer);
  console.log(JSON.stringify(ctx.counts), ctx.writer.stats);
  rmSync(dir, { recursive: true, force: true });
}
