// builder: the schedule documents (/v1/refdata/airlines/{icao}/schedule/{org}/{dst}, spec 4.2),
// one per (airline, org, dst) with a heard take-off, made from counts kept between builds.
//
// the counts (schedules/counts.ts): per (airline, org, dst, callsign) its departures per 5-minute
// local slot as a list, with their sum and modal slot; per route its weekdays and its departures
// per local date as lists. a document is a function of its route's rows (scheduleRowsSql), the
// reference data and the window's length. a night that reuses the previous build folds the counts
// (the new days added, the dropped days and the changed callsigns' old routing taken away) and
// writes only the routes the fold named, keeping the others unbuilt; when the fold cannot be
// trusted the window's legs are counted (the full path), and the progress line says which.
import type { DuckDBConnection } from '@duckdb/node-api';
import type { BuildContext, RoutedLegs } from '../context.ts';
import { keys } from '../../../artifacts/keys.ts';
import { scheduleJson, type ScheduleTexts } from '../../../artifacts/refdata-doc.ts';
import { asJson, collectOnHeapGrowth, countRows, streamRows } from '../duck.ts';
import { saveCounts } from '../counts-fold.ts';
import { prepareScheduleCounts } from './counts.ts';
import { rebuilds } from '../reuse.ts';
import { SCHEDULES_STEP, SCHEDULE_TABLES } from './step.ts';

/** SQL: 'HH:MM' of a 5-minute slot of the day (0..287) */
const hhmm = (slot: string) => `lpad((${slot} // 12)::VARCHAR, 2, '0') || ':' || lpad((${slot} % 12 * 5)::VARCHAR, 2, '0')`;

/**
 * SQL: one row per route of sc_routes (all, or those in sc_tr) with its keys' rows (ScheduleTexts:
 * the weekdays and the times as JSON text in document form, the times sorted by their 'HH:MM',
 * which is unique in a route; the callsigns as JSON text, unordered: scheduleJson sorts them). only
 * the times are grouped: its keys' slots, summed per slot; routes and keys are matched once and
 * then carried by an integer id.
 */
export function scheduleRowsSql(only: boolean): string {
  return `
WITH r AS (SELECT row_number() OVER ()::INTEGER AS rid, * FROM sc_routes${only ? ' SEMI JOIN sc_tr USING (icao, org, dst)' : ''}),
k AS (SELECT r.rid, s.callsign, s.slots, s.flights, s.dep FROM sc_keys s JOIN r USING (icao, org, dst)),
sl AS (
  SELECT rid, list_sort(list({dep: ${hhmm('v')}, flights: n})) AS slots
  FROM (SELECT rid, v, sum(n)::INTEGER AS n FROM (SELECT rid, unnest(slots, recursive := true) FROM k) GROUP BY rid, v) GROUP BY rid),
cs AS (SELECT rid, list({callsign: callsign, flights: flights, dep: ${hhmm('dep')}}) AS callsigns FROM k GROUP BY rid)
SELECT r.icao, r.org, r.dst, list_sum(r.weekdays)::INTEGER AS departures, len(r.dates)::INTEGER AS days,
  ${asJson('r.weekdays')} AS weekdays, ${asJson('sl.slots')} AS times, ${asJson('cs.callsigns')} AS callsigns
FROM r JOIN sl USING (rid) JOIN cs USING (rid)`;
}

/** the nested column of scheduleRowsSql parsed here (the weekdays and times stay JSON text: scheduleJson) */
const NESTED = ['callsigns'];

export async function buildSchedules(ctx: BuildContext, legs: RoutedLegs, db: DuckDBConnection = ctx.db): Promise<void> {
  const ref = ctx.ref;
  const rule = SCHEDULES_STEP.reuse.counts;
  const folded = await prepareScheduleCounts(ctx, db, legs, 'refdata: schedules', rule);
  // every document carries window_days: with another window every route is written (window-length)
  const only = folded !== null && (folded.sameWindow || !rebuilds(rule, 'window-length'));
  const touched = only ? await countRows(db, `SELECT * FROM sc_tr`) : 0;
  ctx.progress.start(
    folded === null
      ? "refdata: schedules (all counted from the window's legs)"
      : `refdata: schedules (an increment: ${folded.line}; ${only ? `${touched} routes touched` : 'the window changed length, every route written'})`,
    0,
  );
  let n = 0;
  let kept = 0;
  // the build's earlier steps leave V8 a large heap (the manifest of every object so far, the routes
  // table), so it collected the chunks already read (native memory it does not see) and the
  // documents made from them late: on the year's first build its heap grew from 0.8 to 1.9 GB here,
  // the build's peak RSS (6.15 GiB; 5.31 GiB with a collection every 16 chunks)
  if (only) {
    // the routes whose counts did not move: the previous build's document (none when it wrote none).
    // kept first: their files the taken-over folder sets aside are what the writes below take
    // instead of new files (writer.ts spares)
    const sql = `SELECT icao, org, dst FROM sc_routes ANTI JOIN sc_tr USING (icao, org, dst)`;
    for await (const chunk of streamRows<{ icao: string; org: string; dst: string }>(db, sql)) {
      for (const r of chunk) if (ctx.writer.keep(keys.refSchedule(r.icao, r.org, r.dst))) kept++;
      await ctx.writer.drain();
    }
  }
  const collect = collectOnHeapGrowth();
  for await (const chunk of streamRows<ScheduleTexts & { icao: string; org: string; dst: string }>(db, scheduleRowsSql(only), NESTED)) {
    for (const r of chunk) {
      // iata is unique in the airport index; both ends must resolve to write a document
      const org = ref.airportByCode(r.org);
      const dst = ref.airportByCode(r.dst);
      if (!ref.airline(r.icao) || !org?.iata || !dst?.iata) continue;
      ctx.writer.putJson(keys.refSchedule(r.icao, r.org, r.dst), scheduleJson(r.icao, org, dst, r, ref, ctx.windowDays));
      n++;
    }
    ctx.progress.tick(chunk.length);
    await ctx.writer.drain();
    collect();
  }
  await db.run(`DROP TABLE IF EXISTS sc_tr`);
  ctx.counts['refdata.schedules'] = n + kept;
  ctx.progress.done(`${n + kept} schedules (${kept} unchanged, kept unbuilt)`);
  await saveCounts(ctx, db, legs, 'schedules', SCHEDULE_TABLES);
}
