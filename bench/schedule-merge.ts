// benchmark (run by hand, never a test): a night's merge of the schedules' saved counts
// (build/steps/schedules/counts.ts mergeScheduleCounts) on real state. The delta is the
// difference between the counts two consecutive versions saved (--prev, --next: version folders
// of one tree, e.g. two nights of the year), so it is the night's delta less entries that summed
// to 0; the merge of --prev's counts with it must give --next's row for row, which each run checks
// (a line says "differ 0 0" when both tables match). Wall and this process's CPU per run.
// usage: npx tsx bench/schedule-merge.ts --prev <tree>/versions/<id> --next <tree>/versions/<id> [--runs 3] [--threads 2]
import './help.ts';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { mergeScheduleCounts } from '../build/steps/schedules/counts.ts';
import { allRows, sqlString } from '../build/steps/duck.ts';
import { flag, numberFlag } from './flags.ts';

const PREV = flag('prev', '');
const NEXT = flag('next', '');
const RUNS = numberFlag('runs', 3);
if (!PREV || !NEXT) throw new Error('--prev and --next (two version folders with state/sc_keys.parquet and state/sc_routes.parquet) are required');
const file = (v: string, t: string) => `read_parquet(${sqlString(join(v, 'state', `${t}.parquet`))})`;
const [pk, nk, pr, nr] = [file(PREV, 'sc_keys'), file(NEXT, 'sc_keys'), file(PREV, 'sc_routes'), file(NEXT, 'sc_routes')];
const KEY = 'icao, org, dst, callsign';
const ROUTE = 'icao, org, dst';

const db = await (await DuckDBInstance.create(':memory:', { threads: flag('threads', '2'), memory_limit: '4GB', preserve_insertion_order: 'false' })).connect();
/** the rows of one table that differ between the two versions, either way (their keys) */
const changed = (a: string, b: string, cols: string) =>
  `SELECT DISTINCT ${cols} FROM ((SELECT * FROM ${a} EXCEPT SELECT * FROM ${b}) UNION ALL (SELECT * FROM ${b} EXCEPT SELECT * FROM ${a}))`;
await db.run(`CREATE TEMP TABLE ck AS ${changed(nk, pk, KEY)}`);
await db.run(`CREATE TEMP TABLE cr AS ${changed(nr, pr, ROUTE)}`);
/** SQL: (key columns, v, n) of one version's list column `col` ({<k>, n}) for the changed rows */
const entries = (t: string, only: string, cols: string, col: string, k: string) =>
  `SELECT ${cols}, s.${k} AS v, s.n AS n FROM (SELECT ${cols}, unnest(${col}) AS s FROM ${t} SEMI JOIN ${only} USING (${cols}))`;
const weekdays = (t: string) => `SELECT ${ROUTE}, unnest(weekdays) AS n, generate_subscripts(weekdays, 1) AS v FROM ${t} SEMI JOIN cr USING (${ROUTE})`;
/** the signed difference, next minus previous, per (cols, v) */
const diff = (a: string, b: string, cols: string, kind: number, callsign: string) => `
  SELECT ${cols}${callsign}, ${kind}::UTINYINT AS k, v::INTEGER AS v, (coalesce(a.n, 0) - coalesce(b.n, 0))::INTEGER AS n
  FROM (${a}) a FULL JOIN (${b}) b USING (${cols}, v) WHERE a.n IS DISTINCT FROM b.n`;
await db.run(`CREATE TEMP TABLE delta0 AS
  ${diff(entries(nk, 'ck', KEY, 'slots', 'v'), entries(pk, 'ck', KEY, 'slots', 'v'), KEY, 0, '')}
  UNION ALL ${diff(weekdays(nr), weekdays(pr), ROUTE, 1, ', NULL::VARCHAR AS callsign')}
  UNION ALL ${diff(entries(nr, 'cr', ROUTE, 'dates', 'd'), entries(pr, 'cr', ROUTE, 'dates', 'd'), ROUTE, 2, ', NULL::VARCHAR AS callsign')}`);
const sizes = await allRows<{ k: number; n: bigint; rows: bigint }>(
  db,
  `SELECT k, count(*) AS n, count(DISTINCT (icao, org, dst, callsign)) AS rows FROM delta0 GROUP BY k ORDER BY k`,
);
console.log(`delta: ${sizes.map((s) => `${['slots', 'weekdays', 'dates'][s.k]} ${s.n} entries of ${s.rows} rows`).join(', ')}; node ${process.version}`);

/** rows of the merged temp table that differ from the next version's, either way */
const differ = async (t: string, next: string, cols: string) => {
  const [r] = await allRows<{ n: bigint }>(
    db,
    `SELECT count(*) AS n FROM ((SELECT * FROM ${t} EXCEPT ALL SELECT ${cols} FROM ${next}) UNION ALL (SELECT ${cols} FROM ${next} EXCEPT ALL SELECT * FROM ${t}))`,
  );
  return Number(r!.n);
};
for (let run = 1; run <= RUNS; run++) {
  await db.run(`CREATE OR REPLACE TEMP TABLE sc_delta AS SELECT * FROM delta0`);
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  const bad = await mergeScheduleCounts(db, { keys: join(PREV, 'state', 'sc_keys.parquet'), routes: join(PREV, 'state', 'sc_routes.parquet') });
  const wall = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(c0);
  const d = [await differ('sc_keys', nk, `${KEY}, slots, flights, dep`), await differ('sc_routes', nr, `${ROUTE}, weekdays, dates`)];
  console.log(`run ${run}: ${wall.toFixed(2)} s wall, ${((cpu.user + cpu.system) / 1e6).toFixed(2)} s CPU; below zero ${bad}; differ ${d.join(' ')}`);
  await db.run('DROP TABLE sc_tr');
}
