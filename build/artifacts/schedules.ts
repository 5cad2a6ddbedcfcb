// builder: the schedule documents (/v1/refdata/airlines/{icao}/schedule/{org}/{dst}, spec 4.2),
// one per (airline, org, dst) with a heard take-off, made from counts kept between builds.
//
// the counts (`sc_counts`, saved as state/sc_counts.parquet): per (airline, org, dst, callsign),
// departures per 5-minute local slot (k 0, v = slot 0..287), per ISO weekday (k 1, v = 1..7) and
// per local date (k 2, v = days since 1970-01-01). a document is a function of its route's rows
// (scheduleRowsSql), the reference data and the window's length. a night that reuses the previous
// build folds the counts (counts-fold.ts: the new days added, the dropped days subtracted, the
// callsigns whose routes-table row changed counted again; every key holds the callsign) and
// writes only the routes whose counts moved, keeping the others unbuilt; when the fold cannot be
// trusted the window's legs are counted (the full path), and the progress line says which.
import type { DuckDBConnection } from '@duckdb/node-api';
import type { BuildContext, RoutedLegs } from './context.ts';
import { keys } from '../../artifacts/keys.ts';
import { scheduleDoc, type ScheduleCounts } from '../../artifacts/refdata.ts';
import { countRows, streamRows } from './duck.ts';
import { prepareCounts, saveCounts, type CountTable } from './counts-fold.ts';

/** an airline-shaped callsign: three letters, a digit, up to four more */
export const AIRLINE_CS = `regexp_full_match(callsign, '[A-Z]{3}[0-9][A-Z0-9]{0,4}')`;

/** the counts, in one table (k: what v is) */
const TABLES: CountTable[] = [{ name: 'sc_counts', counts: countsSql, routed: true }];

/**
 * SQL: the counts of the routed legs `src` that pass `where` (on `l`). the local time is the UTC
 * time plus the origin zone's offset on that UTC day, looked up once per (zone, UTC day) the
 * departures touch (ICU's conversion of every departure was most of a year's schedules step); a
 * day whose offset differs at its start and end (a clock change) has no row in `off`, and its
 * departures are converted one by one. local times are seconds, so date, weekday and slot are
 * integer arithmetic (1970-01-01 was a Thursday, ISO weekday 4).
 */
function countsSql(src: string, where: string): string {
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
  FROM (SELECT DISTINCT tz, dep_ts // 86400 AS ud FROM s)),
off AS (SELECT tz, ud, o0 AS off FROM z WHERE o0 = o1),
t AS (
  SELECT icao, org, dst, callsign, (ls // 300) % 288 AS slot, (ls // 86400 + 3) % 7 + 1 AS dow, ls // 86400 AS ld
  FROM (
    SELECT s.icao, s.org, s.dst, s.callsign,
      coalesce(s.dep_ts + off.off, epoch(timezone(s.tz, to_timestamp(s.dep_ts)))::BIGINT) AS ls
    FROM s LEFT JOIN off ON off.tz = s.tz AND off.ud = s.dep_ts // 86400))
SELECT icao, org, dst, callsign,
  (CASE WHEN GROUPING(slot) = 0 THEN 0 WHEN GROUPING(dow) = 0 THEN 1 ELSE 2 END)::UTINYINT AS k,
  (CASE WHEN GROUPING(slot) = 0 THEN slot WHEN GROUPING(dow) = 0 THEN dow ELSE ld END)::INTEGER AS v,
  count(*)::INTEGER AS n
FROM t GROUP BY GROUPING SETS ((icao, org, dst, callsign, slot), (icao, org, dst, callsign, dow), (icao, org, dst, callsign, ld))`;
}

/** SQL: 'HH:MM' of a 5-minute slot of the day (0..287) */
const hhmm = (slot: string) => `lpad((${slot} // 12)::VARCHAR, 2, '0') || ':' || lpad((${slot} % 12 * 5)::VARCHAR, 2, '0')`;

/** SQL: one row per route of the counts `state` (ScheduleCounts); the lists unordered (scheduleDoc sorts) */
function scheduleRowsSql(state: string): string {
  return `
WITH s AS (SELECT * FROM ${state}),
tot AS (
  SELECT icao, org, dst, sum(n) FILTER (WHERE k = 0)::INTEGER AS departures,
         count(DISTINCT v) FILTER (WHERE k = 2)::INTEGER AS days,
         [${[1, 2, 3, 4, 5, 6, 7].map((d) => `coalesce(sum(n) FILTER (WHERE k = 1 AND v = ${d}), 0)::INTEGER`).join(', ')}] AS weekdays
  FROM s GROUP BY 1, 2, 3),
sl AS (
  SELECT icao, org, dst, list({dep: ${hhmm('v')}, flights: n}) AS slots
  FROM (SELECT icao, org, dst, v, sum(n)::INTEGER AS n FROM s WHERE k = 0 GROUP BY ALL) GROUP BY 1, 2, 3),
cs AS (
  SELECT icao, org, dst, list({callsign: callsign, flights: n, dep: ${hhmm('dep')}}) AS callsigns FROM (
    SELECT icao, org, dst, callsign, sum(n)::INTEGER AS n, arg_max(v, (n, v)) AS dep FROM s WHERE k = 0 GROUP BY 1, 2, 3, 4)
  GROUP BY 1, 2, 3)
SELECT * FROM tot JOIN sl USING (icao, org, dst) JOIN cs USING (icao, org, dst)`;
}

export async function buildSchedules(ctx: BuildContext, legs: RoutedLegs, db: DuckDBConnection = ctx.db): Promise<void> {
  const ref = ctx.ref;
  const folded = await prepareCounts(ctx, db, legs, 'schedules', TABLES, 'refdata: schedules');
  // every document carries window_days: with another window every route is written
  const only = folded?.sameWindow ?? false;
  if (only) await db.run(`CREATE OR REPLACE TEMP TABLE sc_touched AS SELECT DISTINCT icao, org, dst FROM sc_counts_touched`);
  const touched = only ? await countRows(db, `SELECT * FROM sc_touched`) : 0;
  ctx.progress.start(folded === null ? 'refdata: schedules (all counted from the window\'s legs)' : `refdata: schedules (an increment: ${folded.line}; ${only ? `${touched} routes touched` : 'the window changed length, every route written'})`, 0);
  let n = 0;
  let kept = 0;
  const rows = only ? `(SELECT s.* FROM sc_counts s SEMI JOIN sc_touched USING (icao, org, dst))` : 'sc_counts';
  for await (const chunk of streamRows<ScheduleCounts & { icao: string; org: string; dst: string }>(db, scheduleRowsSql(rows))) {
    for (const r of chunk) {
      // iata is unique in the airport index; both ends must resolve to write a document
      const org = ref.airportByCode(r.org);
      const dst = ref.airportByCode(r.dst);
      if (!ref.airline(r.icao) || !org?.iata || !dst?.iata) continue;
      ctx.writer.put(keys.refSchedule(r.icao, r.org, r.dst), scheduleDoc(r.icao, org, dst, r, ref, ctx.windowDays));
      n++;
    }
    ctx.progress.tick(chunk.length);
    await ctx.writer.drain();
  }
  if (only) {
    // the routes whose counts did not move: the previous build's document (none when it wrote none)
    const sql = `SELECT DISTINCT icao, org, dst FROM sc_counts ANTI JOIN sc_touched USING (icao, org, dst)`;
    for await (const chunk of streamRows<{ icao: string; org: string; dst: string }>(db, sql)) {
      for (const r of chunk) if (ctx.writer.keep(keys.refSchedule(r.icao, r.org, r.dst))) kept++;
    }
    await db.run(`DROP TABLE sc_touched`);
  }
  ctx.counts['refdata.schedules'] = n + kept;
  ctx.progress.done(`${n + kept} schedules (${kept} unchanged, kept unbuilt)`);
  await saveCounts(ctx, db, legs, 'schedules', TABLES);
}
