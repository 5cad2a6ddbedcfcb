// builder of /v1/alliances/{slug} and /v1/alliances/{slug}/routes. member legs (callsign =
// member ICAO + flight number) are selected once into a temp table in DuckDB; every count is a
// GROUP BY over it, so JS holds only per-alliance results. documents: artifacts/alliance.ts.
import type { DuckDBConnection } from '@duckdb/node-api';
import {
  allianceDocument, allianceRoutes, allianceRoutesDocument,
  type AllianceInput, type AllianceRef, type AllianceTotals, type MemberCount, type PairCount,
} from '../../artifacts/alliance.ts';
import { keys } from '../../artifacts/keys.ts';
import type { BuildContext, RefAirports } from './context.ts';
import { allRows, loadTable, streamRows } from './duck.ts';

export async function buildAlliances(ctx: BuildContext, _airports: RefAirports): Promise<void> {
  const { as_of, alliances } = ctx.refdata.alliances;
  const refs: AllianceRef[] = alliances.map((a) => ({ ...a, as_of }));
  ctx.progress.start('alliances', refs.length);
  const logs = ctx.archiveThrough ? await aggregate(ctx.db, ctx, refs) : null;
  for (const alliance of refs) {
    const input: AllianceInput = { alliance, log: logs ? { windowDays: ctx.windowDays, ...logs.get(alliance.slug)! } : null };
    ctx.writer.put(keys.alliance(alliance.slug), allianceDocument(input));
    ctx.writer.put(keys.allianceRoutes(alliance.slug), allianceRoutesDocument(input));
    ctx.progress.tick();
  }
  ctx.counts.alliances = refs.length;
  ctx.progress.done(`${refs.length} alliances`);
}

type Observed = Omit<NonNullable<AllianceInput['log']>, 'windowDays'>;

async function aggregate(db: DuckDBConnection, ctx: BuildContext, refs: readonly AllianceRef[]): Promise<Map<string, Observed>> {
  await loadTable(db, 'al_members', [['slug', 'VARCHAR'], ['icao', 'VARCHAR']], refs.flatMap((a) => a.members.map((m) => [a.slug, m.icao])));
  await db.run(`CREATE OR REPLACE TEMP TABLE al_legs AS
    SELECT m.slug, m.icao, l.hex, l.day, l.org, l.dst
    FROM legs l JOIN al_members m ON m.icao = substr(l.callsign, 1, 3)
    WHERE regexp_full_match(l.callsign, '[A-Z]{3}[0-9][A-Z0-9]*')`);

  const out = new Map<string, Observed>();
  for (const a of refs) out.set(a.slug, { totals: undefined, members: new Map(), airports: 0, countries: 0, routes: [] });

  for (const r of await allRows<{ slug: string; legs: number; airframes: number; days: number }>(
    db, `SELECT slug, count(*) AS legs, count(DISTINCT hex) AS airframes, count(DISTINCT day) AS days FROM al_legs GROUP BY slug`,
  )) {
    out.get(r.slug)!.totals = { legs: r.legs, airframes: r.airframes, days_observed: r.days } satisfies AllianceTotals;
  }
  for (const r of await allRows<{ slug: string; icao: string } & MemberCount>(
    db, `SELECT slug, icao, count(*) AS legs, count(DISTINCT hex) AS airframes FROM al_legs GROUP BY slug, icao`,
  )) {
    (out.get(r.slug)!.members as Map<string, MemberCount>).set(r.icao, { legs: r.legs, airframes: r.airframes });
  }
  for (const r of await allRows<{ slug: string; airports: number; countries: number }>(
    db,
    `WITH ends AS (SELECT slug, org AS ident FROM al_legs WHERE org IS NOT NULL UNION SELECT slug, dst FROM al_legs WHERE dst IS NOT NULL)
     SELECT e.slug, count(*) AS airports, count(DISTINCT r.iso_country) AS countries
     FROM ends e LEFT JOIN ref_airports r ON r.ident = e.ident GROUP BY e.slug`,
  )) {
    const o = out.get(r.slug)!;
    o.airports = r.airports;
    o.countries = r.countries;
  }
  // undirected IATA pairs with both ends heard, circuits out; org/dst ordered in SQL already
  const pairs = new Map<string, PairCount[]>();
  for await (const chunk of streamRows<PairCount & { slug: string }>(
    db,
    `SELECT l.slug, least(o.iata, d.iata) AS a, greatest(o.iata, d.iata) AS b, l.icao, count(*) AS legs
     FROM al_legs l JOIN ref_airports o ON o.ident = l.org JOIN ref_airports d ON d.ident = l.dst
     WHERE o.iata IS NOT NULL AND d.iata IS NOT NULL AND o.iata <> d.iata
     GROUP BY ALL`,
  )) {
    for (const p of chunk) {
      const list = pairs.get(p.slug);
      if (list) list.push(p);
      else pairs.set(p.slug, [p]);
    }
  }
  for (const [slug, list] of pairs) out.get(slug)!.routes = allianceRoutes(list);
  await db.run(`DROP TABLE IF EXISTS al_legs`);
  return out;
}
