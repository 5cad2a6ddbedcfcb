// benchmark (run by hand, never a test): the airports' totals and traffic mix over a window's
// leg ends (build/artifacts/airports-sql.ts airportTotals). Two ways, alternated within each
// round in one process: "pairs" (the leg ends made a temp table, then DISTINCT (airport, hex),
// (airport, day) and (airport, other) pairs counted, the way before 2026-11-26) and "one pass"
// (the step's own airportTotals since then: one GROUP BY over the ends, distinct counts in it).
// The first round checks that both give the same totals for every airport.
// usage: npx tsx bench/airport-totals.ts --log <dir> [--through 2025-12-31] [--runs 2] [--memory-limit 4GB]
import './help.ts';
import { isDeepStrictEqual } from 'node:util';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { loadRefdata } from '../lib/reference/index.ts';
import { refViewOf } from '../artifacts/reference-view-adapter.ts';
import { allRows, loadRefAirports, sqlString } from '../build/artifacts/duck.ts';
import { airportTotals, loadMixTables } from '../build/artifacts/airports-sql.ts';
import { flag, numberFlag } from './flags.ts';

const LOG = flag('log', '');
const THROUGH = flag('through', '2025-12-31');
const RUNS = numberFlag('runs', 2);
const MEMORY_LIMIT = flag('memory-limit', '4GB');
if (!LOG) throw new Error('--log <flight log root> is required');

const refdata = await loadRefdata();
const db = await (await DuckDBInstance.create(':memory:', { threads: '2', memory_limit: MEMORY_LIMIT })).connect();
await loadRefAirports(db, refViewOf(refdata));
await db.run(`CREATE VIEW legs AS SELECT * FROM read_parquet(${sqlString(`${LOG}/*/legs.parquet`)}, hive_partitioning = true, hive_types = {'day': DATE}) WHERE day <= DATE ${sqlString(THROUGH)}`);
const military = await loadMixTables(db, (hex) => refdata.codeBlocks.isMilitaryHex(hex), refdata.airlines.all.map((a) => a.icao));

/** the way before 2026-11-26, as it was: the ends as a table, then DISTINCT pairs counted */
async function pairs(db: DuckDBConnection): Promise<Map<string, unknown>> {
  await db.run(`CREATE OR REPLACE TEMP TABLE ap_ends AS
    SELECT e.ident, e.dep, e.other, e.hex, e.day, (m.hex IS NOT NULL) AS mil,
      (al.icao IS NOT NULL AND substr(e.callsign, 4, 1) BETWEEN '0' AND '9') AS airline
    FROM (SELECT org AS ident, true AS dep, dst AS other, hex, day, callsign FROM legs WHERE org IS NOT NULL AND org IS DISTINCT FROM dst
          UNION ALL
          SELECT dst AS ident, false AS dep, org AS other, hex, day, callsign FROM legs WHERE dst IS NOT NULL AND dst IS DISTINCT FROM org) e
    SEMI JOIN (SELECT ident FROM ref_airports WHERE iata IS NOT NULL) i ON i.ident = e.ident
    LEFT JOIN ap_mil m ON m.hex = e.hex
    LEFT JOIN ap_airlines al ON al.icao = substr(e.callsign, 1, 3)`);
  const rows = await allRows<{ ident: string; departures: number; destinations: number; tails: number; days: number; movements: number; military: number; airline: number }>(
    db,
    `WITH c AS (SELECT ident, count(*) FILTER (WHERE dep) AS departures, count(*) AS movements,
                  count(*) FILTER (WHERE mil) AS military, count(*) FILTER (WHERE airline) AS airline
                FROM ap_ends GROUP BY ident),
          t AS (SELECT ident, count(*) AS tails FROM (SELECT DISTINCT ident, hex FROM ap_ends) GROUP BY ident),
          d AS (SELECT ident, count(*) AS days FROM (SELECT DISTINCT ident, day FROM ap_ends) GROUP BY ident),
          o AS (SELECT ident, count(*) AS destinations FROM (SELECT DISTINCT ident, other FROM ap_ends WHERE dep AND other IS NOT NULL) GROUP BY ident)
     SELECT c.*, t.tails, d.days, coalesce(o.destinations, 0) AS destinations
     FROM c JOIN t USING (ident) JOIN d USING (ident) LEFT JOIN o USING (ident)`,
  );
  await db.run(`DROP TABLE ap_ends`);
  return new Map(rows.map((r) => [r.ident, {
    totals: { departures: r.departures, destinations: r.destinations, tails: r.tails, days_observed: r.days },
    mix: { movements: r.movements, military: r.military, airline: r.airline },
  }]));
}

const ways: Record<string, (db: DuckDBConnection) => Promise<Map<string, unknown>>> = { pairs, 'one pass': (db) => airportTotals(db) };
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
