// the callsigns whose routes-table row changed since the previous build (tonight's table against
// one a step saved with its state, both ways), and the window's legs of those callsigns, picked
// once a night: what the steps that reuse the previous build share to find the keys a changed
// route reaches (airframes/changed.ts, airports/changed.ts, counts-fold.ts, schedules/counts.ts).
import type { DuckDBConnection } from '@duckdb/node-api';
import type { RoutedLegs } from './context.ts';
import { allRows, countRows, sqlString } from './duck.ts';
import { legsRoutedSql } from './routes/legs-routed.ts';

/**
 * temp tables later steps pick from `legs` once a night (this file: the window's distinct
 * callsigns, and the legs of the callsigns whose routes changed with their names), dropped when a
 * night's routes table is loaded: a connection that builds again (the tests' do) never reads another night's
 */
export const PICKED_FROM_LEGS = { legs: 'night_cs_legs', names: 'night_cs_names', callsigns: 'legs_callsigns' } as const;

const { names: NIGHT_NAMES, callsigns: LEGS_CALLSIGNS } = PICKED_FROM_LEGS;
/** the temp table of the window's legs of the callsigns pickNightLegs was last given */
export const NIGHT_LEGS = PICKED_FROM_LEGS.legs;

/** SQL: the callsigns whose row differs between tonight's routes table and the one saved in `prevFile`, either way (EXCEPT compares NULLs as equal) */
export function changedCallsignsSql(legs: RoutedLegs, prevFile: string): string {
  return `SELECT DISTINCT callsign FROM (
      (SELECT * FROM ${legs.table} EXCEPT SELECT * FROM read_parquet(${sqlString(prevFile)}))
      UNION ALL (SELECT * FROM read_parquet(${sqlString(prevFile)}) EXCEPT SELECT * FROM ${legs.table}))`;
}

/** changed callsigns up to which their spellings go into the query as constants (more: a join) */
const MAX_SPELLINGS = 1000;

/**
 * SQL: a filter on the raw callsign of a leg (alias l) that holds when its normalised callsign
 * (upper, trimmed) is one of those in the temp table `names(callsign)`. the log's own spellings of
 * those callsigns are found first, among the window's distinct callsigns, and the filter names
 * them: a filter on the column, which the Parquet scan applies itself, where upper(trim(callsign))
 * on every leg made it read every column of the window (bench/changed-callsign-legs.ts: 2.9 against
 * 6.0 s for 3 callsigns of the year). the distinct callsigns are read once a night (temp table
 * `legs_callsigns`, 2.1 s on the year; a night asks up to three times; forgotten when the routes
 * step loads a night's table: PICKED_FROM_LEGS). leaves the temp table `<names>_spellings`, for the
 * caller to drop.
 */
async function callsignInSql(db: DuckDBConnection, names: string): Promise<string> {
  const table = `${names}_spellings`;
  await db.run(`CREATE OR REPLACE TEMP TABLE ${table} AS SELECT callsign FROM ${names} WHERE false`);
  if ((await countRows(db, `SELECT * FROM ${names}`)) === 0) return 'false';
  await db.run(`CREATE TEMP TABLE IF NOT EXISTS ${LEGS_CALLSIGNS} AS SELECT DISTINCT callsign FROM legs`);
  await db.run(`INSERT INTO ${table} SELECT callsign FROM ${LEGS_CALLSIGNS} WHERE upper(trim(callsign)) IN (SELECT callsign FROM ${names})`);
  const spellings = await allRows<{ callsign: string }>(db, `SELECT callsign FROM ${table} LIMIT ${MAX_SPELLINGS + 1}`);
  if (spellings.length === 0) return 'false';
  if (spellings.length > MAX_SPELLINGS) return `l.callsign IN (SELECT callsign FROM ${table})`;
  return `l.callsign IN (${spellings.map((r) => sqlString(r.callsign)).join(', ')})`;
}

/** SQL: the window's legs (alias l) of the callsigns in the table `names` (callsignInSql; the caller drops `<names>_spellings`) */
export async function changedCallsignLegsSql(db: DuckDBConnection, names: string): Promise<string> {
  return `SELECT * FROM legs l WHERE ${await callsignInSql(db, names)}`;
}

/**
 * The temp table `night_cs_legs`: the window's legs of the callsigns in the table `names(callsign)`,
 * every spelling of them (callsignInSql). picked once a night for a set of callsigns: a scan of the
 * year's log (~2.9 s) that the airframes' choice, the airlines' fold and the schedules' fold each
 * made for the same re-routed callsigns; picked again for another set.
 */
export async function pickNightLegs(db: DuckDBConnection, names: string): Promise<void> {
  await db.run(`CREATE TEMP TABLE IF NOT EXISTS ${NIGHT_NAMES} (callsign VARCHAR)`);
  const differ = await countRows(
    db,
    `(SELECT callsign FROM ${names} EXCEPT SELECT callsign FROM ${NIGHT_NAMES})
    UNION ALL (SELECT callsign FROM ${NIGHT_NAMES} EXCEPT SELECT callsign FROM ${names})`,
  );
  if (differ === 0 && (await countRows(db, `SELECT * FROM duckdb_tables() WHERE table_name = '${NIGHT_LEGS}' AND temporary`))) return;
  await db.run(`CREATE OR REPLACE TEMP TABLE ${NIGHT_LEGS} AS ${await changedCallsignLegsSql(db, names)}`);
  await db.run(`DROP TABLE ${names}_spellings`);
  await db.run(`CREATE OR REPLACE TEMP TABLE ${NIGHT_NAMES} AS SELECT DISTINCT callsign FROM ${names}`);
}

/**
 * The temp table `fold_cs_legs`: the window's legs of the callsigns in `fold_changed` that also pass
 * `where` (alias l), from pickNightLegs; and the view `fold_cs_routed`: those legs routed with
 * tonight's table. picked first, then routed: DuckDB does not push the filter below legs_routed's
 * joins, so reading them through it joined every leg of the window. the caller drops both.
 */
export async function pickChangedCallsignLegs(db: DuckDBConnection, legs: RoutedLegs, where = 'true'): Promise<void> {
  await pickNightLegs(db, 'fold_changed');
  await db.run(`CREATE OR REPLACE TEMP TABLE fold_cs_legs AS SELECT * FROM ${NIGHT_LEGS} l WHERE (${where})`);
  await db.run(legsRoutedSql('fold_cs_routed', 'fold_cs_legs', legs.table));
}

/** Fill the temp table `into(callsign)` with the callsigns whose routes-table row differs from the one recorded in `prevRoutes`, either way. */
export async function changedRoutes(db: DuckDBConnection, legs: RoutedLegs, prevRoutes: string, into: string): Promise<void> {
  await db.run(`CREATE OR REPLACE TEMP TABLE ${into} AS ${changedCallsignsSql(legs, prevRoutes)}`);
}
