// benchmark (run by hand, never a test): an increment's airframes step aggregates the changed
// airframes' legs batch by batch (build/steps/airframes/build.ts). This measures that part alone on
// a real log, for each way and batch size, alternated within each round in one process: the time to
// pick the legs, the time of the batches (every document's legs made and read, as the step does),
// and DuckDB's peak memory meanwhile (duckdb_memory(), sampled every 100 ms on a second connection).
// Ways: "unrouted" (the step's own pickChangedLegs: the log's rows held as they are, routed as each
// batch reads them) and "routed" (the rows routed once into a table, the batches read that: the step
// before 2026-11-27). A digest of every (hex, legs), in hex order, shows the ways and sizes give
// the same documents.
// Input: a flight log (e.g. one `sim/cli.ts log` wrote), the routes table a build saved
// (<version>/state/airframe-routes.parquet), and the day whose airframes count as changed (the
// window: --since to --day).
// usage: npx tsx bench/airframes-batches.ts --log <dir> --routes <file.parquet> --day YYYY-MM-DD [--since YYYY-MM-DD] [--per 1000000,2000000] [--ways unrouted,routed] [--rounds 2] [--memory-limit 4GB]
import './help.ts';
import { createHash } from 'node:crypto';
import { DuckDBInstance, type DuckDBBlobVector, type DuckDBVarCharVector } from '@duckdb/node-api';
import { loadRefdata } from '../lib/reference/index.ts';
import { refViewOf } from '../artifacts/reference-view-adapter.ts';
import { allRows, loadRefAirports, releaseReadChunks, sqlString, streamChunks } from '../build/steps/duck.ts';
import { dropChangedLegs, pickChangedLegs } from '../build/steps/airframes/build.ts';
import { airframesSql, hexBatches, operatorCountsSql } from '../build/steps/airframes/sql.ts';
import { flag, numberFlag } from './flags.ts';

const LOG = flag('log', '');
const ROUTES = flag('routes', '');
const DAY = flag('day', '');
const SINCE = flag('since', '0001-01-01');
const PER = flag('per', '1000000,2000000').split(',').map(Number);
const WAYS = flag('ways', 'unrouted,routed').split(',');
const ROUNDS = numberFlag('rounds', 2);
const MEMORY_LIMIT = flag('memory-limit', '4GB');
if (!LOG || !ROUTES || !DAY) throw new Error('--log <flight log root>, --routes <airframe-routes.parquet> and --day YYYY-MM-DD are required');
if (PER.some((n) => !(n > 0)) || WAYS.some((w) => w !== 'unrouted' && w !== 'routed')) throw new Error('--per: positive leg counts; --ways: unrouted, routed');

const instance = await DuckDBInstance.create(':memory:', { threads: '2', memory_limit: MEMORY_LIMIT, preserve_insertion_order: 'false' });
const db = await instance.connect();
await loadRefAirports(db, refViewOf(await loadRefdata()));
await db.run(
  `CREATE VIEW legs AS SELECT * FROM read_parquet(${sqlString(`${LOG}/*/legs.parquet`)}, hive_partitioning = true, hive_types = {'day': DATE}) WHERE day >= DATE ${sqlString(SINCE)} AND day <= DATE ${sqlString(DAY)}`,
);
await db.run(`CREATE TABLE routes_table AS SELECT * FROM read_parquet(${sqlString(ROUTES)})`);
await db.run(`CREATE TEMP TABLE af_full AS SELECT DISTINCT hex FROM legs WHERE day = DATE ${sqlString(DAY)}`);
// no previous build: every changed airframe's legs are made
await db.run(`CREATE TEMP TABLE af_prev (hex VARCHAR, legsum UBIGINT, reg VARCHAR, type VARCHAR, operator_icao VARCHAR)`);
const [changed] = await allRows<{ n: number }>(db, `SELECT count(*) AS n FROM af_full`);

// DuckDB's memory, sampled beside the queries
const side = await instance.connect();
let peak = 0;
let sampling = false;
const sampler = setInterval(() => {
  if (sampling) return;
  sampling = true;
  side
    .runAndReadAll(`SELECT sum(memory_usage_bytes)::BIGINT FROM duckdb_memory()`)
    .then((r) => void (peak = Math.max(peak, Number(r.getRows()[0]![0]))))
    .finally(() => void (sampling = false));
}, 100);

async function run(way: string, per: number): Promise<string> {
  peak = 0;
  const t0 = performance.now();
  let counted = await pickChangedLegs(db, 'routes_table', 'af_legs');
  // the operators' counts, from the picked rows (airframesSql reads them)
  await db.run(`CREATE OR REPLACE TEMP TABLE af_ops AS ${operatorCountsSql(counted)}`);
  let source = 'af_legs';
  if (way === 'routed') {
    // as the step before: only the routed rows held
    await db.run(`CREATE TEMP TABLE af_legs_routed AS SELECT * FROM af_legs`);
    await dropChangedLegs(db, 'af_legs');
    source = counted = 'af_legs_routed';
  }
  const t1 = performance.now();
  // one hash per airframe, sorted at the end: DuckDB hands out the rows in no set order
  const each: string[] = [];
  let rows = 0;
  const batches = await hexBatches(db, counted, per);
  for (const [lo, hi] of batches) {
    for await (const chunk of streamChunks(db, airframesSql(source, lo, hi))) {
      const hex = chunk.getColumnVector(0) as DuckDBVarCharVector;
      const legs = chunk.getColumnVector(8) as DuckDBBlobVector; // airframesSql's legs column
      for (let i = 0; i < chunk.rowCount; i++)
        each.push(
          createHash('sha256')
            .update(`${hex.getItem(i)}\0`)
            .update(legs.getItemBytes(i) ?? new Uint8Array())
            .digest('hex'),
        );
      rows += chunk.rowCount;
    }
    releaseReadChunks();
  }
  const t2 = performance.now();
  await db.run(`DROP TABLE IF EXISTS af_legs_routed`);
  await dropChangedLegs(db, 'af_legs');
  const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  return `${way} ${per}: pick ${s(t1 - t0)}, ${batches.length} batches ${s(t2 - t1)}, DuckDB peak ${(peak / 2 ** 30).toFixed(2)} GiB, ${rows} airframes, digest ${createHash('sha256').update(each.sort().join('\n')).digest('hex').slice(0, 12)}`;
}

console.log(`${changed!.n} airframes with legs on ${DAY}; node ${process.version}, DuckDB threads 2, memory limit ${MEMORY_LIMIT}`);
const runs = WAYS.flatMap((way) => PER.map((per) => [way, per] as const));
for (let round = 0; round < ROUNDS; round++) {
  for (const [way, per] of round % 2 === 1 ? [...runs].reverse() : runs) console.log(`round ${round + 1}: ${await run(way, per)}`);
}
clearInterval(sampler);
