// builder of /v1/alliances/{slug} and /v1/alliances/{slug}/routes. member legs (callsign =
// member ICAO + flight number) are counted in DuckDB into four small tables of leg counts (per
// airframe, day, airport and IATA pair), in one pass over the legs that holds no member leg (until
// 2026-11-26 they were a temp table first: on the year 24-32 s and 4.5-4.8 GB peak RSS against 7 s
// and 0.85 GB now, bench/alliances-step.ts); every figure of the documents is read from them, so JS
// holds only per-alliance results. documents: artifacts/alliance-doc.ts.
// the tables are recorded in the version's state/: a night that reuses the previous build (the
// same code and reference data, whole days entering and leaving the window) adds the new days'
// member legs to them and takes the dropped days' away instead of reading the whole window.
import { join } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import {
  allianceDocument,
  allianceRoutes,
  allianceRoutesDocument,
  type AllianceInput,
  type AllianceRef,
  type AllianceTotals,
  type MemberCount,
  type PairCount,
} from '../../../artifacts/alliance-doc.ts';
import { keys } from '../../../artifacts/keys.ts';
import type { BuildContext, RefAirports } from '../context.ts';
import { allRows, loadTable, sqlString, streamRows } from '../duck.ts';
import { deltaLegs } from '../log-delta.ts';
import { saveState } from '../state.ts';
import type { Reuse } from '../declaration.ts';
import { daysOf, previousFor } from '../reuse.ts';
import { ALLIANCES_STEP, ALLIANCE_TABLES as TABLES, allianceState } from './step.ts';

export async function buildAlliances(ctx: BuildContext, _airports: RefAirports, rule: Reuse = ALLIANCES_STEP.reuse.counts): Promise<void> {
  const { as_of, alliances } = ctx.refdata.alliances;
  const refs: AllianceRef[] = alliances.map((a) => ({ ...a, as_of }));
  ctx.progress.start('alliances', refs.length);
  const counted = ctx.archiveThrough ? await count(ctx, refs, rule) : null;
  const logs = counted ? await aggregate(ctx.db, refs) : null;
  for (const alliance of refs) {
    const input: AllianceInput = { alliance, log: logs ? { windowDays: ctx.windowDays, ...logs.get(alliance.slug)! } : null };
    ctx.writer.put(keys.alliance(alliance.slug), allianceDocument(input));
    ctx.writer.put(keys.allianceRoutes(alliance.slug), allianceRoutesDocument(input));
    ctx.progress.tick();
  }
  if (counted) await saveCounts(ctx);
  ctx.counts.alliances = refs.length;
  ctx.progress.done(`${refs.length} alliances${counted === 'delta' ? ' (counts of the previous build, plus the new days and minus the dropped ones)' : ''}`);
}

type Observed = Omit<NonNullable<AllianceInput['log']>, 'windowDays'>;

const stateFile = (version: string, table: string) => join(version, allianceState(table));

/**
 * SQL: the count tables' rows from the legs of `src` (rows of `legs` with a column n: +1, or -1
 * for a leg that left the window) in one pass: member legs (callsign = member ICAO + flight
 * number) grouped five ways at once (GROUPING SETS), so no member leg is ever held; `set` names
 * the grouping a row belongs to. An end's IATA pair is kept only when both ends are heard, have
 * IATA codes and differ (a circuit is no route).
 */
const countSets = (src: string) => `
  WITH m AS (
    SELECT m.slug, m.icao, l.hex, l.day, l.org, l.dst, l.n::BIGINT AS n,
      CASE WHEN o.iata <> d.iata THEN least(o.iata, d.iata) END AS a,
      CASE WHEN o.iata <> d.iata THEN greatest(o.iata, d.iata) END AS b
    FROM ${src} l JOIN al_members m ON m.icao = substr(l.callsign, 1, 3)
      LEFT JOIN ref_airports o ON o.ident = l.org LEFT JOIN ref_airports d ON d.ident = l.dst
    WHERE regexp_full_match(l.callsign, '[A-Z]{3}[0-9][A-Z0-9]*'))
  SELECT CASE WHEN GROUPING(hex) = 0 THEN 'hexes' WHEN GROUPING(day) = 0 THEN 'days' WHEN GROUPING(org) = 0 THEN 'org'
      WHEN GROUPING(dst) = 0 THEN 'dst' ELSE 'pairs' END AS set,
    slug, icao, hex, day, org, dst, a, b, sum(n)::BIGINT AS n
  FROM m GROUP BY GROUPING SETS ((slug, icao, hex), (slug, day), (slug, org), (slug, dst), (slug, icao, a, b))`;

/** each table's rows from the grouped member legs `al_sets` */
const FROM_SETS: Record<(typeof TABLES)[number]['name'], string> = {
  al_hexes: `SELECT slug, icao, hex, n FROM al_sets WHERE set = 'hexes'`,
  al_days: `SELECT slug, day, n FROM al_sets WHERE set = 'days'`,
  al_ends: `SELECT slug, org AS ident, n FROM al_sets WHERE set = 'org' AND org IS NOT NULL
    UNION ALL SELECT slug, dst, n FROM al_sets WHERE set = 'dst' AND dst IS NOT NULL`,
  al_pairs: `SELECT slug, icao, a, b, n FROM al_sets WHERE set = 'pairs' AND a IS NOT NULL`,
};

/**
 * Fill the count tables: from the previous build's plus the legs of the days that changed when the
 * step's rule (step.ts) may read that build ('delta'), else from every leg of the window ('full').
 */
async function count(ctx: BuildContext, refs: readonly AllianceRef[], rule: Reuse): Promise<'full' | 'delta'> {
  const db = ctx.db;
  await loadTable(
    db,
    'al_members',
    [
      ['slug', 'VARCHAR'],
      ['icao', 'VARCHAR'],
    ],
    refs.flatMap((a) => a.members.map((m) => [a.slug, m.icao])),
  );
  const previous = previousFor(ctx, rule);
  const prev = 'dir' in previous && previous.days ? previous.dir : null;
  const delta = prev ? deltaLegs(daysOf(rule, ctx.logDays!)) : null;
  const src = prev ? delta : `(SELECT *, 1 AS n FROM legs)`;
  await db.run(
    `CREATE OR REPLACE TEMP TABLE al_sets AS ${
      src
        ? countSets(src)
        : `SELECT NULL::VARCHAR AS set, NULL::VARCHAR AS slug, NULL::VARCHAR AS icao, NULL::VARCHAR AS hex, NULL::DATE AS day,
        NULL::VARCHAR AS org, NULL::VARCHAR AS dst, NULL::VARCHAR AS a, NULL::VARCHAR AS b, NULL::BIGINT AS n WHERE false`
    }`,
  );
  for (const t of TABLES) {
    const before = prev ? `SELECT ${t.keys}, legs AS n FROM read_parquet(${sqlString(stateFile(prev, t.name))}) UNION ALL ` : '';
    // a key whose legs all left the window is gone, as if never counted
    await db.run(`CREATE OR REPLACE TEMP TABLE ${t.name} AS
      SELECT ${t.keys}, sum(n)::BIGINT AS legs FROM (${before}${FROM_SETS[t.name]}) GROUP BY ${t.keys} HAVING sum(n) > 0`);
  }
  await db.run(`DROP TABLE al_sets`);
  return prev ? 'delta' : 'full';
}

/** each alliance's figures, read from the count tables */
async function aggregate(db: DuckDBConnection, refs: readonly AllianceRef[]): Promise<Map<string, Observed>> {
  const out = new Map<string, Observed>();
  for (const a of refs) out.set(a.slug, { totals: undefined, members: new Map(), airports: 0, countries: 0, routes: [] });

  for (const r of await allRows<{ slug: string; legs: number; airframes: number; days: number }>(
    db,
    `SELECT slug, sum(legs)::BIGINT AS legs, count(DISTINCT hex) AS airframes, any_value(d.days) AS days FROM al_hexes
     JOIN (SELECT slug, count(*) AS days FROM al_days GROUP BY slug) d USING (slug) GROUP BY slug`,
  )) {
    out.get(r.slug)!.totals = { legs: r.legs, airframes: r.airframes, days_observed: r.days } satisfies AllianceTotals;
  }
  for (const r of await allRows<{ slug: string; icao: string } & MemberCount>(
    db,
    `SELECT slug, icao, sum(legs)::BIGINT AS legs, count(DISTINCT hex) AS airframes FROM al_hexes GROUP BY slug, icao`,
  )) {
    (out.get(r.slug)!.members as Map<string, MemberCount>).set(r.icao, { legs: r.legs, airframes: r.airframes });
  }
  for (const r of await allRows<{ slug: string; airports: number; countries: number }>(
    db,
    `SELECT e.slug, count(*) AS airports, count(DISTINCT r.iso_country) AS countries
     FROM al_ends e LEFT JOIN ref_airports r ON r.ident = e.ident GROUP BY e.slug`,
  )) {
    const o = out.get(r.slug)!;
    o.airports = r.airports;
    o.countries = r.countries;
  }
  const pairs = new Map<string, PairCount[]>();
  for await (const chunk of streamRows<PairCount & { slug: string }>(db, `SELECT slug, a, b, icao, legs FROM al_pairs`)) {
    for (const p of chunk) {
      const list = pairs.get(p.slug);
      if (list) list.push(p);
      else pairs.set(p.slug, [p]);
    }
  }
  for (const [slug, list] of pairs) out.get(slug)!.routes = allianceRoutes(list);
  return out;
}

/** record the count tables in the version being built, for the next night */
async function saveCounts(ctx: BuildContext): Promise<void> {
  await ctx.writer.readyForFiles();
  for (const t of TABLES) {
    await saveState(ctx.db, `SELECT * FROM ${t.name}`, stateFile(ctx.writer.dir, t.name));
    await ctx.db.run(`DROP TABLE ${t.name}`);
  }
}
