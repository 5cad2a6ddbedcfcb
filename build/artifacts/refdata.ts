// builder: the /v1/refdata/... documents (spec 4.2) other than aircraft (written with the
// airframes): every type designator, every airport, every airline (with what the network saw of
// it), the observed airlines list, and one schedule per (airline, org, dst) with a heard
// take-off. aggregation in DuckDB over `legs_routed` (routes builder); JS only assembles.
import type { BuildContext, RefAirports, RoutedLegs } from './context.ts';
import { keys, normalise } from '../../artifacts/keys.ts';
import {
  airlineDoc, airlinesDoc, refAirportDoc, scheduleDoc, typeDoc,
  type AirlineCounts, type AirlineDetail, type ScheduleCounts,
} from '../../artifacts/refdata.ts';
import { allRows, streamRows } from './duck.ts';

const AIRLINE_CS = `regexp_full_match(callsign, '[A-Z]{3}[0-9][A-Z0-9]{0,4}')`;

const AIRLINES_SQL = `
SELECT substr(callsign, 1, 3) AS icao, count(*)::INTEGER AS flights, count(DISTINCT hex)::INTEGER AS airframes,
       count(DISTINCT callsign)::INTEGER AS callsigns, count(DISTINCT "day")::INTEGER AS days
FROM legs_routed WHERE ${AIRLINE_CS} GROUP BY 1`;

const FLEET_SQL = `
SELECT substr(callsign, 1, 3) AS icao, upper(type) AS type, count(DISTINCT hex)::INTEGER AS airframes, count(*)::INTEGER AS flights
FROM legs_routed WHERE ${AIRLINE_CS} GROUP BY 1, 2`;

const AIRLINE_ROUTES_SQL = `
SELECT substr(callsign, 1, 3) AS icao, org, dst, count(*)::INTEGER AS flights, count(DISTINCT "day")::INTEGER AS days
FROM legs_routed WHERE ${AIRLINE_CS} AND org IS NOT NULL AND dst IS NOT NULL AND org <> dst GROUP BY 1, 2, 3`;

// a leg counts once per country it touches (a domestic leg once)
const COUNTRIES_SQL = `
SELECT icao, c AS iso_country, count(*)::INTEGER AS flights FROM (
  SELECT substr(l.callsign, 1, 3) AS icao, unnest(list_distinct(list_filter([ao.iso_country, ad.iso_country], x -> x IS NOT NULL))) AS c
  FROM legs_routed l
  LEFT JOIN (SELECT iata, any_value(iso_country) AS iso_country FROM ref_airports WHERE iata IS NOT NULL GROUP BY iata) ao ON ao.iata = l.org
  LEFT JOIN (SELECT iata, any_value(iso_country) AS iso_country FROM ref_airports WHERE iata IS NOT NULL GROUP BY iata) ad ON ad.iata = l.dst
  WHERE ${AIRLINE_CS.replace('callsign', 'l.callsign')} AND (l.org IS NOT NULL OR l.dst IS NOT NULL)
) GROUP BY 1, 2`;

const TYPES_SQL = `
SELECT upper(type) AS type, count(DISTINCT hex)::INTEGER AS airframes, count(*)::INTEGER AS flights
FROM legs_routed WHERE type IS NOT NULL GROUP BY 1`;

// departures with a heard take-off, in the origin's local time, 5-minute slots. one pass over the
// legs, two groupings at once: (route, callsign, slot, weekday) for the counts, slots and
// callsigns, and (route, local date) for the days. every list is unordered (scheduleDoc sorts):
// ordered list(... ORDER BY) aggregates over a year's legs ran DuckDB out of its 4 GB.
const SCHEDULES_SQL = `
WITH s AS (
  SELECT substr(l.callsign, 1, 3) AS icao, l.org, l.dst, l.callsign, timezone(a.tz, to_timestamp(l.dep_ts)) AS lt
  FROM legs_routed l JOIN ref_airports a ON a.ident = l.org_ident
  WHERE l.dep_ts IS NOT NULL AND l.org IS NOT NULL AND l.dst IS NOT NULL AND l.org <> l.dst AND ${AIRLINE_CS.replace('callsign', 'l.callsign')}
),
t AS (
  SELECT icao, org, dst, callsign, isodow(lt) AS dow, CAST(lt AS DATE) AS d,
         lpad(hour(lt)::VARCHAR, 2, '0') || ':' || lpad((minute(lt) // 5 * 5)::VARCHAR, 2, '0') AS slot
  FROM s),
g AS MATERIALIZED (
  SELECT icao, org, dst, callsign, slot, dow, d, count(*)::INTEGER AS n
  FROM t GROUP BY GROUPING SETS ((icao, org, dst, callsign, slot, dow), (icao, org, dst, d))),
tot AS (
  SELECT icao, org, dst, coalesce(sum(n) FILTER (WHERE d IS NULL), 0)::INTEGER AS departures,
         count(*) FILTER (WHERE d IS NOT NULL)::INTEGER AS days,
         [${[1, 2, 3, 4, 5, 6, 7].map((d) => `coalesce(sum(n) FILTER (WHERE d IS NULL AND dow = ${d}), 0)::INTEGER`).join(', ')}] AS weekdays
  FROM g GROUP BY 1, 2, 3),
sl AS (
  SELECT icao, org, dst, list({dep: slot, flights: n}) AS slots
  FROM (SELECT icao, org, dst, slot, sum(n)::INTEGER AS n FROM g WHERE d IS NULL GROUP BY ALL) GROUP BY 1, 2, 3),
cs AS (
  SELECT icao, org, dst, list({callsign: callsign, flights: n, dep: dep}) AS callsigns FROM (
    SELECT icao, org, dst, callsign, sum(n)::INTEGER AS n, arg_max(slot, (n, slot)) AS dep
    FROM (SELECT icao, org, dst, callsign, slot, sum(n) AS n FROM g WHERE d IS NULL GROUP BY ALL) GROUP BY 1, 2, 3, 4)
  GROUP BY 1, 2, 3)
SELECT * FROM tot JOIN sl USING (icao, org, dst) JOIN cs USING (icao, org, dst)`;

type Keyed<T> = T & { icao: string };

function groupBy<T extends { icao: string }>(rows: T[]): Map<string, T[]> {
  const m = new Map<string, T[]>();
  for (const r of rows) {
    const l = m.get(r.icao);
    if (l) l.push(r);
    else m.set(r.icao, [r]);
  }
  return m;
}

export async function buildRefdata(ctx: BuildContext, _legs: RoutedLegs, _airports: RefAirports): Promise<void> {
  const ref = ctx.ref;
  const db = ctx.db;
  const count = (k: string) => (ctx.counts[`refdata.${k}`] = (ctx.counts[`refdata.${k}`] ?? 0) + 1);

  ctx.progress.start('refdata: types', 0);
  const typeObs = new Map((await allRows<{ type: string; airframes: number; flights: number }>(db, TYPES_SQL)).map((r) => [r.type, r]));
  for (const t of ref.allTypes()) {
    if (normalise.type(t.designator) !== t.designator) continue;
    const o = typeObs.get(t.designator);
    ctx.writer.put(keys.refType(t.designator), typeDoc(t, o ? { airframes: o.airframes, flights: o.flights } : null));
    count('types');
  }
  ctx.progress.done(`${ctx.counts['refdata.types'] ?? 0} types`);

  ctx.progress.start('refdata: airports', 0);
  const idents = new Set<string>();
  for (const a of ref.allAirports()) {
    if (idents.has(a.ident) || normalise.ident(a.ident) !== a.ident || ref.airport(a.ident) !== a) continue;
    idents.add(a.ident);
    ctx.writer.put(keys.refAirport(a.ident), refAirportDoc(a, ref.runways(a.ident)));
    count('airports');
    ctx.progress.tick();
    if (idents.size % 4096 === 0) await ctx.writer.drain();
  }
  ctx.progress.done(`${idents.size} airports`);

  ctx.progress.start('refdata: airlines', 0);
  const counts = await allRows<AirlineCounts>(db, AIRLINES_SQL);
  ctx.writer.put(keys.refAirlines(), airlinesDoc(counts, ref, ctx.windowDays));
  const byIcao = new Map(counts.map((c) => [c.icao, c]));
  const fleet = groupBy(await allRows<Keyed<AirlineDetail['fleet'][number]>>(db, FLEET_SQL));
  const routes = groupBy(await allRows<Keyed<AirlineDetail['routes'][number]>>(db, AIRLINE_ROUTES_SQL));
  const countries = groupBy(await allRows<Keyed<AirlineDetail['countries'][number]>>(db, COUNTRIES_SQL));
  const strip = <T extends { icao: string }>(rows: T[] | undefined) => (rows ?? []).map(({ icao: _i, ...rest }) => rest);
  for (const a of ref.allAirlines()) {
    const d: AirlineDetail = {
      counts: byIcao.get(a.icao) ?? null,
      fleet: strip(fleet.get(a.icao)),
      routes: strip(routes.get(a.icao)),
      countries: strip(countries.get(a.icao)),
    };
    ctx.writer.put(keys.refAirline(a.icao), airlineDoc(a.icao, d, ref, ctx.windowDays));
    count('airlines');
  }
  ctx.progress.done(`${ctx.counts['refdata.airlines'] ?? 0} airlines, ${counts.length} callsign prefixes heard`);

  ctx.progress.start('refdata: schedules', 0);
  for await (const rows of streamRows<Keyed<ScheduleCounts & { org: string; dst: string }>>(db, SCHEDULES_SQL)) {
    for (const r of rows) {
      // iata is unique in the airport index; both ends must resolve to write a document
      const org = ref.airportByCode(r.org);
      const dst = ref.airportByCode(r.dst);
      if (!ref.airline(r.icao) || !org?.iata || !dst?.iata) continue;
      ctx.writer.put(keys.refSchedule(r.icao, r.org, r.dst), scheduleDoc(r.icao, org, dst, r, ref, ctx.windowDays));
      count('schedules');
    }
    ctx.progress.tick(rows.length);
    await ctx.writer.drain();
  }
  ctx.progress.done(`${ctx.counts['refdata.schedules'] ?? 0} schedules`);
}

