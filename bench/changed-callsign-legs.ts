// benchmark (run by hand, never a test): a night whose routes table changed a few callsigns' rows
// takes those callsigns' legs out of the window to count them again (the airlines' and schedules'
// count folds, build/steps/changed-callsigns.ts pickChangedCallsignLegs). Two ways, alternated
// within each round in one process: "normalised on every row" (the filter upper(trim(callsign)) IN
// (...) on all the window's legs, the way before 2026-11-27) and "spellings first" (the log's
// distinct spellings of those callsigns found first, then the legs whose raw callsign is one of
// them: a filter on the column itself, which the Parquet scan applies), with the window's distinct
// callsigns read each time (a night's first use), or with --cached read once (its later uses). The
// first round checks that both give the same rows.
// Input: a flight log (e.g. one `sim/cli.ts log` wrote), the routes table a build saved
// (<version>/state/schedules-routes.parquet), and how many of its callsigns count as changed (a
// seeded pick).
// usage: npx tsx bench/changed-callsign-legs.ts --log <dir> --routes <file.parquet> [--callsigns 2] [--seed 1] [--runs 2] [--cached] [--memory-limit 4GB]
import './help.ts';
import { DuckDBInstance } from '@duckdb/node-api';
import { allRows, sqlString } from '../build/steps/duck.ts';
import { alternate } from './alternate.ts';
import { changedCallsignLegsSql } from '../build/steps/changed-callsigns.ts';
import { flag, numberFlag } from './flags.ts';
import { mulberry32 } from '../lib/random.ts';

const LOG = flag('log', '');
const ROUTES = flag('routes', '');
const CALLSIGNS = numberFlag('callsigns', 2);
const SEED = numberFlag('seed', 1);
const RUNS = numberFlag('runs', 2);
const MEMORY_LIMIT = flag('memory-limit', '4GB');
const CACHED = process.argv.includes('--cached');
if (!LOG || !ROUTES) throw new Error('--log <flight log root> and --routes <schedules-routes.parquet> are required');

const db = await (await DuckDBInstance.create(':memory:', { threads: '2', memory_limit: MEMORY_LIMIT })).connect();
await db.run(`CREATE VIEW legs AS SELECT * FROM read_parquet(${sqlString(`${LOG}/*/legs.parquet`)}, hive_partitioning = true, hive_types = {'day': DATE})`);
const all = await allRows<{ callsign: string }>(
  db,
  `SELECT DISTINCT callsign FROM read_parquet(${sqlString(ROUTES)}) WHERE callsign IS NOT NULL ORDER BY callsign`,
);
const random = mulberry32(SEED);
const picked = Array.from({ length: Math.min(CALLSIGNS, all.length) }, () => all[Math.floor(random() * all.length)]!.callsign);
await db.run(`CREATE TABLE fold_changed AS SELECT unnest([${picked.map(sqlString).join(', ')}]::VARCHAR[]) AS callsign`);

const ways: Record<string, (into: string) => Promise<unknown>> = {
  'normalised on every row': (into) =>
    db.run(`CREATE OR REPLACE TEMP TABLE ${into} AS SELECT * FROM legs l WHERE upper(trim(l.callsign)) IN (SELECT callsign FROM fold_changed)`),
  'spellings first': async (into) => {
    if (!CACHED) await db.run(`DROP TABLE IF EXISTS legs_callsigns`);
    await db.run(`CREATE OR REPLACE TEMP TABLE ${into} AS ${await changedCallsignLegsSql(db, 'fold_changed')}`);
  },
};
console.log(
  `${picked.length} changed callsigns (${picked.join(', ')}), distinct callsigns ${CACHED ? 'read once' : 'read each time'}; node ${process.version}, DuckDB threads 2, memory limit ${MEMORY_LIMIT}`,
);
await alternate(db, ways, RUNS);
