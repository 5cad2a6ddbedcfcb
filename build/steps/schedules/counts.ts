// the schedules' counts kept between builds (state/sc_keys.parquet, state/sc_routes.parquet), as
// lists: one row per (airline, org, dst, callsign) and one per route, not one row per count.
//   sc_keys   (icao, org, dst, callsign)  slots: departures per 5-minute local slot, sparse
//             [{v: 0..287, n}] ordered by v; flights (their sum) and dep (the modal slot,
//             ties to the later one), so a document needs no grouping of its callsigns
//   sc_routes (icao, org, dst)            weekdays: departures per ISO weekday [7]; dates:
//             departures per local date, sparse [{d: days since 1970-01-01, n}] ordered by d
//             (days_observed is its length; kept per route, not per callsign)
// a night's counts are the saved ones plus a delta of signed departures: the added days' legs and
// the changed callsigns' window legs routed with tonight's routes table (+1), the dropped days'
// legs and the changed callsigns' legs of the previous window routed with the saved table (-1):
// exactly what the previous build counted, taken away. the delta is grouped three ways (small: a
// few days' legs) and listed per key and per route; the lists of the keys and routes it names are
// summed with it by list functions (foldedColumns); the other rows are copied as they are. a first
// build groups the whole window's departures the same way and lists them (listScheduleCounts).
// anything unknown (no reuse, a day rewritten in place, a state file missing, a count below zero)
// counts the window instead.
import { join } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import type { BuildContext, RoutedLegs } from '../context.ts';
import type { Reuse } from '../declaration.ts';
import { countRows, sqlString } from '../duck.ts';
import { daysOf, previousFor, rebuilds } from '../reuse.ts';
import { SCHEDULES_STEP } from './step.ts';
import { addedDaysSql, droppedLegsSql } from '../log-delta.ts';
import { changedCallsignsSql, pickChangedCallsignLegs } from '../changed-callsigns.ts';
import { legsRoutedSql } from '../routes/legs-routed.ts';
import { foldLine, routesFile, savedWindow, stateFile, type Folded } from '../counts-fold.ts';

/** an airline-shaped callsign: three letters, a digit, up to four more */
export const AIRLINE_CS = `regexp_full_match(callsign, '[A-Z]{3}[0-9][A-Z0-9]{0,4}')`;

const FAMILY = 'schedules';

/**
 * SQL: the departures (icao, org, dst, callsign, slot, dow, ld, n = `sign`) of the routed legs `src`
 * that pass `where` (on `l`). the local time is the UTC time plus the origin zone's offset on that
 * UTC day, looked up once per (zone, UTC day) the departures touch; a day whose offset differs at
 * its start and end (a clock change) has its departures converted one by one (CASE: only those
 * rows). no filter on `z`: DuckDB pushed `WHERE o0 = o1` below the DISTINCT, so both ICU
 * conversions ran for every departure (on the 30-day log of docs/perf-log/nightly-increments.md, the schedules' lists: 8.2 of the query's 9 s).
 * local times are seconds, so date, weekday and slot are integer arithmetic (1970-01-01 was a
 * Thursday, ISO weekday 4).
 */
function departuresSql(src: string, where: string, sign: 1 | -1): string {
  return `
WITH s AS (
  SELECT substr(l.callsign, 1, 3) AS icao, l.org, l.dst, l.callsign, l.dep_ts, a.tz
  FROM ${src} l JOIN ref_airports a ON a.ident = l.org_ident
  WHERE l.dep_ts IS NOT NULL AND l.org IS NOT NULL AND l.dst IS NOT NULL AND l.org <> l.dst AND ${AIRLINE_CS.replace('callsign', 'l.callsign')} AND (${where})
),
z AS (
  SELECT tz, ud,
    (epoch(timezone(tz, to_timestamp(ud * 86400))) - ud * 86400)::BIGINT AS o0,
    (epoch(timezone(tz, to_timestamp(ud * 86400 + 86399))) - (ud * 86400 + 86399))::BIGINT AS o1
  FROM (SELECT DISTINCT tz, dep_ts // 86400 AS ud FROM s))
SELECT icao, org, dst, callsign, ((ls // 300) % 288)::SMALLINT AS slot, ((ls // 86400 + 3) % 7 + 1)::TINYINT AS dow, (ls // 86400)::INTEGER AS ld, ${sign} AS n
FROM (
  SELECT s.icao, s.org, s.dst, s.callsign,
    CASE WHEN z.o0 = z.o1 THEN s.dep_ts + z.o0 ELSE epoch(timezone(s.tz, to_timestamp(s.dep_ts)))::BIGINT END AS ls
  FROM s LEFT JOIN z ON z.tz = s.tz AND z.ud = s.dep_ts // 86400)`;
}

/**
 * the temp table `sc_delta(icao, org, dst, callsign, k, v, n)` from signed departures: k 0 per
 * (key, slot v), k 1 per (route, weekday v), k 2 per (route, local date v); callsign NULL but in k 0
 */
async function groupDelta(db: DuckDBConnection, parts: string[]): Promise<void> {
  await db.run(`CREATE OR REPLACE TEMP TABLE sc_delta AS
SELECT icao, org, dst, callsign,
  (CASE WHEN GROUPING(slot) = 0 THEN 0 WHEN GROUPING(dow) = 0 THEN 1 ELSE 2 END)::UTINYINT AS k,
  (CASE WHEN GROUPING(slot) = 0 THEN slot WHEN GROUPING(dow) = 0 THEN dow ELSE ld END)::INTEGER AS v,
  sum(n)::INTEGER AS n
FROM (${parts.map((p) => `SELECT * FROM (${p})`).join(' UNION ALL ')})
GROUP BY GROUPING SETS ((icao, org, dst, callsign, slot), (icao, org, dst, dow), (icao, org, dst, ld))`);
}

const KEY = 'icao, org, dst, callsign';
const ROUTE = 'icao, org, dst';
const week = (f: (d: number) => string) => `[${[1, 2, 3, 4, 5, 6, 7].map(f).join(', ')}]::INTEGER[]`;

/**
 * SQL columns of a saved sparse list `prev` ([{<k>, n}] ordered by k, or NULL) with the delta's
 * entries `delta` (same shape, each k once; `ks` their keys, a column so it is not made again per
 * entry) summed in: `kept`, the saved entries the delta does not name, and `summed`, the named
 * ones with the delta added, those at 0 left out. list functions per row, not an unnest of every
 * saved entry of every touched row grouped again: a night's delta names a few slots or days of a
 * row that holds 85 slots or 187 days on average (the year's state). the saved entries are above 0
 * (a fold with a count below zero is not saved), so only `summed` can hold one.
 */
function foldedColumns(prev: string, delta: string, ks: string, k: string, type: string): string {
  const saved = `coalesce(${prev}, []::${type})`;
  const summed = `list_transform(${delta}, x -> {${k}: x.${k}, n: (x.n + coalesce(list_sum(list_transform(list_filter(${saved}, y -> y.${k} = x.${k}), y -> y.n)), 0))::INTEGER})`;
  return `list_filter(${saved}, y -> NOT list_contains(${ks}, y.${k})) AS kept, list_filter(${summed}, x -> x.n <> 0) AS summed`;
}
/** SQL: the folded list of foldedColumns, ordered by its key again */
const FOLDED = 'list_sort(list_concat(m.kept, m.summed))';
/** SQL: the lowest count foldedColumns summed (NULL: none) */
const LOW = 'list_min(list_transform(m.summed, x -> x.n))';
const SLOTS = 'STRUCT(v SMALLINT, n INTEGER)[]';
const DATES = 'STRUCT(d INTEGER, n INTEGER)[]';
/** SQL: a key's modal slot from its slots list, ties to the later one (the largest n * 288 + v: a slot's number is below 288) */
const modalSlot = (slots: string) => `(list_max(list_transform(${slots}, x -> x.n * 288 + x.v)) % 288)::SMALLINT`;

/**
 * A first build's (or a recount's) sc_keys and sc_routes: `sc_delta` holds the whole window,
 * grouped already (one row per key and slot, per route and weekday, per route and date), so its
 * rows are listed as they are.
 */
export async function listScheduleCounts(db: DuckDBConnection): Promise<void> {
  await db.run(`CREATE OR REPLACE TEMP TABLE sc_keys AS
SELECT *, ${modalSlot('slots')} AS dep FROM (
  SELECT ${KEY}, list_sort(list({v: v::SMALLINT, n: n})) AS slots, sum(n)::INTEGER AS flights FROM sc_delta WHERE k = 0 AND n <> 0 GROUP BY ${KEY})`);
  await db.run(`CREATE OR REPLACE TEMP TABLE sc_routes AS
SELECT ${ROUTE}, ${week((d) => `coalesce(sum(n) FILTER (WHERE k = 1 AND v = ${d}), 0)`)} AS weekdays,
  list_sort(list({d: v, n: n}) FILTER (WHERE k = 2 AND n <> 0)) AS dates
FROM sc_delta WHERE k > 0 GROUP BY ${ROUTE} HAVING sum(n) FILTER (WHERE k = 1) > 0`);
  await db.run(`DROP TABLE sc_delta`);
}

/**
 * A night's sc_keys and sc_routes: the saved ones (files `prev`) with `sc_delta` summed in, and
 * `sc_tr(icao, org, dst)`: the routes the delta names. Returns the number of counts below zero (0
 * when the fold is sound).
 */
export async function mergeScheduleCounts(db: DuckDBConnection, prev: { keys: string; routes: string }): Promise<number> {
  await db.run(
    `CREATE OR REPLACE TEMP TABLE sc_tk AS SELECT ${KEY}, row_number() OVER ()::INTEGER AS kid FROM (SELECT DISTINCT ${KEY} FROM sc_delta WHERE k = 0)`,
  );
  await db.run(`CREATE OR REPLACE TEMP TABLE sc_tr AS SELECT ${ROUTE}, row_number() OVER ()::INTEGER AS rid FROM (SELECT DISTINCT ${ROUTE} FROM sc_delta)`);
  const pk = `read_parquet(${sqlString(prev.keys)})`;
  const pr = `read_parquet(${sqlString(prev.routes)})`;
  // per touched key: its saved slots with the delta's summed in; flights the saved sum plus the delta's
  await db.run(`CREATE OR REPLACE TEMP TABLE sc_keys_moved AS
WITH dk AS (
  SELECT t.kid, list({v: d.v::SMALLINT, n: d.n}) AS dl, list(d.v::SMALLINT) AS ks, sum(d.n) AS dn
  FROM sc_delta d JOIN sc_tk t USING (${KEY}) WHERE d.k = 0 GROUP BY t.kid),
m AS (SELECT dk.kid, coalesce(p.flights, 0) + dk.dn AS flights, ${foldedColumns('p.slots', 'dk.dl', 'dk.ks', 'v', SLOTS)}
  FROM dk JOIN sc_tk t USING (kid) LEFT JOIN ${pk} p USING (${KEY})),
f AS (SELECT m.kid, ${FOLDED} AS slots, m.flights::INTEGER AS flights, ${LOW} AS low FROM m)
SELECT t.icao, t.org, t.dst, t.callsign, f.slots, f.flights, ${modalSlot('f.slots')} AS dep, f.low
FROM f JOIN sc_tk t USING (kid) WHERE len(f.slots) > 0`);
  // per touched route: weekdays added up, dates as the keys' slots
  await db.run(`CREATE OR REPLACE TEMP TABLE sc_routes_moved AS
WITH dr AS (
  SELECT t.rid, ${week((d) => `coalesce(sum(d.n) FILTER (WHERE d.k = 1 AND d.v = ${d}), 0)`)} AS w,
    coalesce(list({d: d.v, n: d.n}) FILTER (WHERE d.k = 2), []) AS dl, coalesce(list(d.v) FILTER (WHERE d.k = 2), []) AS ks
  FROM sc_delta d JOIN sc_tr t USING (${ROUTE}) WHERE d.k > 0 GROUP BY t.rid),
m AS (
  SELECT t.rid, ${week((d) => `coalesce(p.weekdays[${d}], 0) + coalesce(dr.w[${d}], 0)`)} AS weekdays, ${foldedColumns('p.dates', 'dr.dl', 'dr.ks', 'd', DATES)}
  FROM sc_tr t LEFT JOIN dr USING (rid) LEFT JOIN ${pr} p USING (${ROUTE}))
SELECT t.icao, t.org, t.dst, m.weekdays, CASE WHEN len(m.kept) + len(m.summed) > 0 THEN ${FOLDED} END AS dates, ${LOW} AS low
FROM sc_tr t JOIN m USING (rid)`);
  // a count below zero, or a route with departures and no dates (or the reverse): not what the saved counts made
  const bad =
    (await countRows(db, `SELECT * FROM sc_keys_moved WHERE low < 0`)) +
    (await countRows(db, `SELECT * FROM sc_routes_moved WHERE low < 0 OR list_min(weekdays) < 0 OR (list_sum(weekdays) > 0) <> (dates IS NOT NULL)`));
  await db.run(`CREATE OR REPLACE TEMP TABLE sc_keys AS
SELECT ${KEY}, slots, flights, dep FROM ${pk} ANTI JOIN sc_tk USING (${KEY})
UNION ALL SELECT ${KEY}, slots, flights, dep FROM sc_keys_moved`);
  await db.run(`CREATE OR REPLACE TEMP TABLE sc_routes AS
SELECT ${ROUTE}, weekdays, dates FROM ${pr} ANTI JOIN sc_tr USING (${ROUTE})
UNION ALL SELECT ${ROUTE}, weekdays, dates FROM sc_routes_moved WHERE list_sum(weekdays) > 0`);
  for (const t of ['sc_tk', 'sc_keys_moved', 'sc_routes_moved', 'sc_delta']) await db.run(`DROP TABLE ${t}`);
  return bad;
}

/**
 * the signed departures of a night against the previous build's state, or null when the step's
 * rule (step.ts) may not read it: the added and dropped days it declares, and with changed-routes
 * the changed callsigns counted again in both windows
 */
async function foldParts(
  ctx: BuildContext,
  db: DuckDBConnection,
  legs: RoutedLegs,
  rule: Reuse,
): Promise<{ parts: string[]; line: string; prev: string } | null> {
  const previous = previousFor(ctx, rule);
  if (!('dir' in previous) || !previous.days) return null;
  const prev = previous.dir;
  const days = daysOf(rule, previous.days);
  const rerouted = rebuilds(rule, 'changed-routes');
  const changedSql = rerouted ? changedCallsignsSql(legs, join(prev, rule.routes!)) : 'SELECT NULL::VARCHAR AS callsign WHERE false';
  await db.run(`CREATE OR REPLACE TEMP TABLE fold_changed AS ${changedSql}`);
  const changed = await countRows(db, `SELECT * FROM fold_changed`);
  const added = days.added.length ? `l.day IN (${addedDaysSql(days)})` : 'false';
  const parts: string[] = [];
  if (days.added.length) parts.push(departuresSql(legs.view, added, 1));
  const old: string[] = [];
  if (days.dropped.length) old.push(`SELECT * FROM ${droppedLegsSql(days)}`);
  if (changed) {
    // a changed callsign's legs in both windows, read once: counted with tonight's table, taken away as the saved table routed them
    await pickChangedCallsignLegs(db, legs, `NOT (${added})`);
    parts.push(departuresSql('fold_cs_routed', 'true', 1));
    old.push(`SELECT * FROM fold_cs_legs`);
  }
  if (old.length) {
    // the routes table the saved counts were routed with: the old legs are taken away as it routed them
    await db.run(`CREATE OR REPLACE TEMP TABLE fold_routes_prev AS SELECT * FROM read_parquet(${sqlString(routesFile(prev, FAMILY))})`);
    await db.run(`CREATE OR REPLACE TEMP VIEW fold_old AS ${old.join(' UNION ALL BY NAME ')}`);
    await db.run(legsRoutedSql('fold_old_routed', 'fold_old', 'fold_routes_prev'));
    parts.push(departuresSql('fold_old_routed', 'true', -1));
  }
  // nothing differs: an empty delta
  if (!parts.length) parts.push(departuresSql(legs.view, 'false', 1));
  return { parts, line: foldLine(days.added.length, days.dropped.length, changed), prev };
}

async function dropFoldTables(db: DuckDBConnection): Promise<void> {
  for (const v of ['fold_old_routed', 'fold_old', 'fold_cs_routed']) await db.run(`DROP VIEW IF EXISTS ${v}`);
  for (const t of ['fold_cs_legs', 'fold_routes_prev', 'fold_changed']) await db.run(`DROP TABLE IF EXISTS ${t}`);
}

/**
 * The temp tables sc_keys and sc_routes for tonight, as their own progress step: folded from the
 * previous build's when it can be trusted (then also sc_tr, the routes whose counts may have
 * moved), else counted from the window's legs (null).
 */
export async function prepareScheduleCounts(
  ctx: BuildContext,
  db: DuckDBConnection,
  legs: RoutedLegs,
  label: string,
  rule: Reuse = SCHEDULES_STEP.reuse.counts,
): Promise<Folded | null> {
  ctx.progress.start(`${label}: counts`, 0);
  let folded: Folded | null = null;
  const fold = await foldParts(ctx, db, legs, rule);
  if (fold) {
    await groupDelta(db, fold.parts);
    const bad = await mergeScheduleCounts(db, { keys: stateFile(fold.prev, 'sc_keys'), routes: stateFile(fold.prev, 'sc_routes') });
    if (bad === 0) folded = { line: fold.line, sameWindow: savedWindow(fold.prev, FAMILY) === ctx.windowDays };
  }
  await dropFoldTables(db);
  if (!folded) {
    await groupDelta(db, [departuresSql(legs.view, 'true', 1)]);
    await listScheduleCounts(db);
  }
  ctx.progress.done(folded === null ? "counted from the window's legs" : `folded: ${folded.line}`);
  return folded;
}
