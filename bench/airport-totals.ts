// benchmark (run by hand, never a test): the airports' totals and traffic mix over a window's
// leg ends (build/steps/airports/sql.ts airportTotals). Two ways, alternated within each
// round in one process: "one pass" (one GROUP BY over the ends with the distinct counts in it, the
// step's way from 2026-11-26 to 2026-11-27) and "count tables" (the step's way since: the count
// tables of AIRPORT_COUNTS made from the window, as a first build makes them, then the totals from
// them; a night folds those tables instead, counts-fold.ts). The way before 2026-11-26 (the ends
// made a temp table, DISTINCT pairs counted) took 25-28 s on the year against 17-19 s for one pass (docs/perf-log/nightly-year-runs.md, day bits).
// The first round checks that both give the same totals for every airport.
import './help.ts';
import { isDeepStrictEqual } from 'node:util';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { loadRefdata } from '../lib/reference/index.ts';
import { refViewOf } from '../artifacts/reference-view-adapter.ts';
import { allRows, loadRefAirports, sqlString } from '../build/steps/duck.ts';
import { AIRPORT_COUNTS, airportTotals, loadMixTables } from '../build/steps/airports/sql.ts';
import { dayRing } from '../build/steps/day-bits.ts';
import { flag, numberFlag } from './flags.ts';

const LOG = flag('log', '');
const THROUGH = flag('through', '2025-12-31');
const RUNS = numberFlag('runs', 2);
const MEMORY_LIMIT = flag('memory-limit', '4GB');
if (!LOG) throw new Error('--log <flight log root> is required');

const refdata = await loadRefdata();
const db = await (await DuckDBInstance.create(':memory:', { threads: '2', memory_limit: MEMORY_LIMIT })).connect();
await loadRefAirports(db, refViewOf(refdata));
await db.run(
  `CREATE VIEW legs AS SELECT * FROM read_parquet(${sqlString(`${LOG}/*/legs.parquet`)}, hive_partitioning = true, hive_types = {'day': DATE}) WHERE day <= DATE ${sqlString(THROUGH)}`,
);
const military = await loadMixTables(
  db,
  (hex) => refdata.codeBlocks.isMilitaryHex(hex),
  refdata.airlines.all.map((a) => a.icao),
);

/** the way from 2026-11-26 to 2026-11-27, as it was: one GROUP BY over the ends, distinct counts in it */
async function onePass(db: DuckDBConnection): Promise<Map<string, unknown>> {
  const rows = await allRows<{
    ident: string;
    departures: number;
    destinations: number;
    tails: number;
    days: number;
    movements: number;
    military: number;
    airline: number;
  }>(
    db,
    `SELECT e.ident, count(*) FILTER (WHERE e.dep) AS departures, count(*) AS movements,
       count(*) FILTER (WHERE m.hex IS NOT NULL) AS military,
       count(*) FILTER (WHERE al.icao IS NOT NULL AND substr(e.callsign, 4, 1) BETWEEN '0' AND '9') AS airline,
       count(DISTINCT e.hex) AS tails, count(DISTINCT e.day) AS days,
       count(DISTINCT e.other) FILTER (WHERE e.dep) AS destinations
     FROM (SELECT org AS ident, true AS dep, dst AS other, hex, day, callsign FROM legs WHERE org IS NOT NULL AND org IS DISTINCT FROM dst
           UNION ALL
           SELECT dst AS ident, false AS dep, org AS other, hex, day, callsign FROM legs WHERE dst IS NOT NULL AND dst IS DISTINCT FROM org) e
     SEMI JOIN (SELECT ident FROM ref_airports WHERE iata IS NOT NULL) i ON i.ident = e.ident
     LEFT JOIN ap_mil m ON m.hex = e.hex
     LEFT JOIN ap_airlines al ON al.icao = substr(e.callsign, 1, 3)
     GROUP BY e.ident`,
  );
  return new Map(
    rows.map((r) => [
      r.ident,
      {
        totals: { departures: r.departures, destinations: r.destinations, tails: r.tails, days_observed: r.days },
        mix: { movements: r.movements, military: r.military, airline: r.airline },
      },
    ]),
  );
}

/** the step's way: the count tables from the window's legs (counts-fold.ts countAll: the callsigns keyed as the routes table keys them), then the totals */
async function countTables(db: DuckDBConnection): Promise<Map<string, unknown>> {
  await db.run(`CREATE OR REPLACE TEMP VIEW counts_legs AS SELECT * REPLACE (upper(trim(callsign)) AS callsign) FROM legs`);
  for (const t of AIRPORT_COUNTS) await db.run(`CREATE OR REPLACE TEMP TABLE ${t.name} AS ${t.counts('counts_legs', 'true', dayRing(366))}`);
  const out = await airportTotals(db);
  for (const t of AIRPORT_COUNTS) await db.run(`DROP TABLE ${t.name}`);
  return out;
}

const ways: Record<string, (db: DuckDBConnection) => Promise<Map<string, unknown>>> = { 'one pass': onePass, 'count tables': countTables };
const [legs] = await allRows<{ n: number }>(db, `SELECT count(*)::INTEGER AS n FROM legs`);
console.log(`${legs!.n} legs through ${THROUGH}, ${military} military hexes; node ${process.version}, DuckDB threads 2, memory limit ${MEMORY_LIMIT}`);
for (let round = 0; round < RUNS; round++) {
  const names = Object.keys(ways);
  if (round % 2 === 1) names.reverse();
  const line: string[] = [];
  const got: Record<string, Map<string, unknown>> = {};
  for (const name of names) {
    const t0 = performance.now();
    got[name] = await ways[name]!(db);
    line.push(`${name} ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  }
  if (round === 0) {
    const [a, b] = names.map((n) => got[n]!);
    const sorted = (m: Map<string, unknown>) => [...m].sort(([x], [y]) => (x < y ? -1 : 1));
    if (!isDeepStrictEqual(sorted(a!), sorted(b!))) throw new Error('the two ways give different totals');
    line.push(`(the same totals of ${a!.size} airports)`);
  }
  console.log(`round ${round + 1}: ${line.join(', ')}`);
}
