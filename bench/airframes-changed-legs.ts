// benchmark (run by hand, never a test): an increment's airframes step reads the changed airframes'
// legs out of the window once (build/steps/airframes/build.ts, af_legs). Two ways, alternated within
// each round in one process: "routed, then picked" (the hex filter on legs_routed, the way before
// 2026-11-26) and "picked, then routed" (the step's own pickChangedLegs: the filter on the log's
// rows, then legsRoutedSql over them, made a table here as the step's batches read it). The first
// round checks that both give the same rows.
// Input: a flight log (e.g. one `sim/cli.ts log` wrote), the routes table a build saved
// (<version>/state/airframe-routes.parquet), and the days whose airframes count as changed.
// usage: npx tsx bench/airframes-changed-legs.ts --log <dir> --routes <file.parquet> [--days 2025-01-01,2025-06-01] [--through 2025-12-31] [--runs 2] [--memory-limit 4GB]
import './help.ts';
import { DuckDBInstance } from '@duckdb/node-api';
import { loadRefdata } from '../lib/reference/index.ts';
import { refViewOf } from '../artifacts/reference-view-adapter.ts';
import { allRows, loadRefAirports, sqlString } from '../build/steps/duck.ts';
import { legsRoutedSql } from '../build/steps/routes/legs-routed.ts';
import { dropChangedLegs, pickChangedLegs } from '../build/steps/airframes/build.ts';
import { flag, numberFlag } from './flags.ts';
import { alternate } from './alternate.ts';

const LOG = flag('log', '');
const ROUTES = flag('routes', '');
const DAYS = flag('days', '2025-01-01,2025-06-01').split(',');
const THROUGH = flag('through', '2025-12-31');
const RUNS = numberFlag('runs', 2);
const MEMORY_LIMIT = flag('memory-limit', '4GB');
if (!LOG || !ROUTES) throw new Error('--log <flight log root> and --routes <airframe-routes.parquet> are required');

const db = await (await DuckDBInstance.create(':memory:', { threads: '2', memory_limit: MEMORY_LIMIT })).connect();
await loadRefAirports(db, refViewOf(await loadRefdata()));
await db.run(
  `CREATE VIEW legs AS SELECT * FROM read_parquet(${sqlString(`${LOG}/*/legs.parquet`)}, hive_partitioning = true, hive_types = {'day': DATE}) WHERE day <= DATE ${sqlString(THROUGH)}`,
);
await db.run(`CREATE TABLE routes_table AS SELECT * FROM read_parquet(${sqlString(ROUTES)})`);
await db.run(legsRoutedSql('legs_routed', 'legs'));
await db.run(`CREATE TABLE af_changed AS SELECT DISTINCT hex FROM legs WHERE day IN (${DAYS.map((d) => `DATE ${sqlString(d)}`).join(', ')})`);
const [changed] = await allRows<{ n: number }>(db, `SELECT count(*) AS n FROM af_changed`);

const ways: Record<string, (into: string) => Promise<unknown>> = {
  'routed, then picked': (into) => db.run(`CREATE OR REPLACE TEMP TABLE ${into} AS SELECT * FROM legs_routed WHERE hex IN (SELECT hex FROM af_changed)`),
  // the step routes the picked rows as its batches read them: here into a table, to compare the rows
  'picked, then routed': async (into) => {
    await pickChangedLegs(db, 'routes_table', `${into}_routed`, 'af_changed');
    await db.run(`CREATE OR REPLACE TEMP TABLE ${into} AS SELECT * FROM ${into}_routed`);
    await dropChangedLegs(db, `${into}_routed`);
  },
};
console.log(`${changed!.n} airframes with legs on ${DAYS.join(', ')}; node ${process.version}, DuckDB threads 2, memory limit ${MEMORY_LIMIT}`);
await alternate(db, ways, RUNS);
