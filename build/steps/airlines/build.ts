// builder: the airline documents (/v1/refdata/airlines and /v1/refdata/airlines/{icao}, spec 4.2):
// every airline of the reference data with what the network saw of it in the window, made from
// counts kept between builds (counts-fold.ts), per airline-shaped callsign prefix:
//   al_fleet (icao, type, hex)                 flights, airframes, fleet
//   al_callsigns (icao, callsign)              distinct callsigns
//   al_days (icao, day)                        distinct log days
//   al_routes (icao, callsign, org, dst)       routes (flights, days) and countries; a leg with an
//                                              end known (org or dst), the ends as routed; its
//                                              days as day bits (day-bits.ts), not a row per day:
//                                              280,204 rows for the year's 33.6 M (key, day) rows
// a night that reuses the previous build folds them and writes only the airlines whose counts
// moved (and the list, which holds every airline's totals); the others are kept unbuilt.
import type { DuckDBConnection } from '@duckdb/node-api';
import type { BuildContext, RoutedLegs } from '../context.ts';
import { keys } from '../../../artifacts/keys.ts';
import { airlineDoc, airlinesDoc, type AirlineCounts, type AirlineDetail } from '../../../artifacts/refdata-doc.ts';
import { allRows, countRows } from '../duck.ts';
import { daysColumn, prepareCounts, saveCounts, type CountTable } from '../counts-fold.ts';
import { AIRLINE_CS } from '../schedules/counts.ts';
import { rebuilds } from '../reuse.ts';
import { AIRLINES_STEP, AIRLINE_TABLES } from './step.ts';

const counted =
  (cols: string, extra = '', days = false) =>
  (src: string, where: string, ring: number) =>
    `
SELECT substr(l.callsign, 1, 3) AS icao, ${cols}, count(*)::INTEGER AS n${days ? `, ${daysColumn(ring)}` : ''} FROM ${src} l
WHERE ${AIRLINE_CS.replace('callsign', 'l.callsign')}${extra} AND (${where}) GROUP BY ALL`;

const [FLEET, CALLSIGNS, DAYS, ROUTES] = AIRLINE_TABLES;
const TABLES: CountTable[] = [
  { name: FLEET, counts: counted('upper(l.type) AS type, l.hex'), routed: false },
  { name: CALLSIGNS, counts: counted('l.callsign'), routed: false },
  { name: DAYS, counts: counted('l."day"'), routed: false },
  { name: ROUTES, counts: counted('l.callsign, l.org, l.dst', ' AND (l.org IS NOT NULL OR l.dst IS NOT NULL)', true), routed: true, days: true },
];

const AIRLINES_SQL = `
SELECT icao, f.flights, f.airframes, c.callsigns, d.days FROM
  (SELECT icao, sum(n)::INTEGER AS flights, count(DISTINCT hex)::INTEGER AS airframes FROM al_fleet GROUP BY 1) f
  JOIN (SELECT icao, count(*)::INTEGER AS callsigns FROM al_callsigns GROUP BY 1) c USING (icao)
  JOIN (SELECT icao, count(*)::INTEGER AS days FROM al_days GROUP BY 1) d USING (icao)`;

/** the detail queries, on the airlines `only` passes (a condition on icao) */
const fleetSql = (only: string) => `
SELECT icao, type, count(DISTINCT hex)::INTEGER AS airframes, sum(n)::INTEGER AS flights FROM al_fleet WHERE ${only} GROUP BY 1, 2`;

const routesSql = (only: string) => `
SELECT icao, org, dst, sum(n)::INTEGER AS flights, bit_count(bit_or(days))::INTEGER AS days
FROM al_routes WHERE ${only} AND org IS NOT NULL AND dst IS NOT NULL AND org <> dst GROUP BY 1, 2, 3`;

// a leg counts once per country it touches (a domestic leg once)
const countriesSql = (only: string) => `
WITH c AS (SELECT iata, any_value(iso_country) AS iso_country FROM ref_airports WHERE iata IS NOT NULL GROUP BY iata),
r AS (SELECT icao, org, dst, sum(n) AS n FROM al_routes WHERE ${only} GROUP BY 1, 2, 3)
SELECT icao, x AS iso_country, sum(n)::INTEGER AS flights FROM (
  SELECT r.icao, r.n, unnest(list_distinct(list_filter([ao.iso_country, ad.iso_country], x -> x IS NOT NULL))) AS x
  FROM r LEFT JOIN c ao ON ao.iata = r.org LEFT JOIN c ad ON ad.iata = r.dst)
GROUP BY 1, 2`;

type Keyed<T> = T & { icao: string };

function groupBy<T extends { icao: string }>(rows: T[]): Map<string, Omit<T, 'icao'>[]> {
  const m = new Map<string, Omit<T, 'icao'>[]>();
  for (const { icao, ...rest } of rows) {
    const l = m.get(icao);
    if (l) l.push(rest);
    else m.set(icao, [rest]);
  }
  return m;
}

export async function buildAirlines(ctx: BuildContext, legs: RoutedLegs, db: DuckDBConnection = ctx.db): Promise<void> {
  const ref = ctx.ref;
  const rule = AIRLINES_STEP.reuse.counts;
  const folded = await prepareCounts(ctx, db, legs, 'airlines', TABLES, 'refdata: airlines', rule);
  // every document carries window_days: with another window every airline is written (window-length)
  const only = folded !== null && (folded.sameWindow || !rebuilds(rule, 'window-length'));
  if (only)
    await db.run(
      `CREATE OR REPLACE TEMP TABLE al_touched AS SELECT DISTINCT icao FROM (${TABLES.map((t) => `SELECT icao FROM ${t.name}_touched`).join(' UNION ALL ')})`,
    );
  const touched = only ? await countRows(db, `SELECT * FROM al_touched`) : 0;
  ctx.progress.start(
    folded === null
      ? "refdata: airlines (all counted from the window's legs)"
      : `refdata: airlines (an increment: ${folded.line}; ${only ? `${touched} callsign prefixes touched` : 'the window changed length, every airline written'})`,
    0,
  );
  const counts = await allRows<AirlineCounts>(db, AIRLINES_SQL);
  ctx.writer.put(keys.refAirlines(), airlinesDoc(counts, ref, ctx.windowDays));
  const byIcao = new Map(counts.map((c) => [c.icao, c]));
  const where = only ? 'icao IN (SELECT icao FROM al_touched)' : 'true';
  const fleet = groupBy(await allRows<Keyed<AirlineDetail['fleet'][number]>>(db, fleetSql(where)));
  const routes = groupBy(await allRows<Keyed<AirlineDetail['routes'][number]>>(db, routesSql(where)));
  const countries = groupBy(await allRows<Keyed<AirlineDetail['countries'][number]>>(db, countriesSql(where)));
  const changed = only ? new Set((await allRows<{ icao: string }>(db, `SELECT icao FROM al_touched`)).map((r) => r.icao)) : null;
  let n = 0;
  let kept = 0;
  for (const a of ref.allAirlines()) {
    n++;
    if (changed && !changed.has(a.icao)) {
      if (!ctx.writer.keep(keys.refAirline(a.icao))) {
        throw new Error(`the previous build has no ${keys.refAirline(a.icao)} although its counts were saved: its state is inconsistent; rerun with --rebuild`);
      }
      kept++;
      continue;
    }
    const d: AirlineDetail = {
      counts: byIcao.get(a.icao) ?? null,
      fleet: fleet.get(a.icao) ?? [],
      routes: routes.get(a.icao) ?? [],
      countries: countries.get(a.icao) ?? [],
    };
    ctx.writer.put(keys.refAirline(a.icao), airlineDoc(a.icao, d, ref, ctx.windowDays));
  }
  ctx.counts['refdata.airlines'] = (ctx.counts['refdata.airlines'] ?? 0) + n;
  if (only) await db.run(`DROP TABLE al_touched`);
  ctx.progress.done(`${n} airlines (${kept} unchanged, kept unbuilt), ${counts.length} callsign prefixes heard`);
  await saveCounts(ctx, db, legs, 'airlines', TABLES);
}
