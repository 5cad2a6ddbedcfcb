// alliance documents, GET /v1/alliances/{slug} and /v1/alliances/{slug}/routes (spec 2.9,
// schemas/alliance.schema.json, alliance-routes.schema.json). memberships are sourced facts
// (the alliance's own member page); coverage and legs are observation across the current member
// brands, a leg counting for a member when its callsign starts with the member's ICAO designator
// followed by a flight number. pure: the builder hands in what SQL aggregated.

interface AllianceMemberRef {
  icao: string;
  iata: string | null;
  name: string;
}

export interface AllianceRef {
  slug: string;
  name: string;
  /** URL of the alliance's member list */
  source: string;
  /** ISO date the membership list was compiled */
  as_of: string;
  members: readonly AllianceMemberRef[];
}

export interface MemberCount {
  legs: number;
  airframes: number;
}

export interface AllianceTotals {
  legs: number;
  airframes: number;
  days_observed: number;
}

/** One undirected airport pair: a < b (IATA), legs both ways, per member ICAO. */
export interface PairCount {
  a: string;
  b: string;
  icao: string;
  legs: number;
}

export interface AllianceDoc {
  slug: string;
  name: string;
  source: string;
  as_of: string;
  members: (AllianceMemberRef & { observed: MemberCount })[];
  observed: { legs: number; airframes: number; airports: number; countries: number; routes: number; days_observed: number } | null;
  window_days: number | null;
  coverage: 'observed';
}

export interface AllianceRoute {
  org: string;
  dst: string;
  legs: number;
  members: { icao: string; legs: number }[];
}

export interface AllianceRoutesDoc {
  slug: string;
  window_days: number | null;
  coverage: 'observed';
  routes: AllianceRoute[];
}

/** Undirected pairs: org/dst in alphabetical order, busiest first, members busiest first. */
export function allianceRoutes(pairs: readonly PairCount[]): AllianceRoute[] {
  const byPair = new Map<string, AllianceRoute>();
  for (const p of pairs) {
    if (p.a === p.b) continue; // circuits are no route
    const [org, dst] = p.a < p.b ? [p.a, p.b] : [p.b, p.a];
    const key = `${org}-${dst}`;
    let r = byPair.get(key);
    if (!r) byPair.set(key, (r = { org, dst, legs: 0, members: [] }));
    r.legs += p.legs;
    const m = r.members.find((x) => x.icao === p.icao);
    if (m) m.legs += p.legs;
    else r.members.push({ icao: p.icao, legs: p.legs });
  }
  const routes = [...byPair.values()];
  for (const r of routes) r.members.sort((x, y) => y.legs - x.legs || (x.icao < y.icao ? -1 : 1));
  return routes.sort((x, y) => y.legs - x.legs || (x.org < y.org ? -1 : x.org > y.org ? 1 : x.dst < y.dst ? -1 : 1));
}

export interface AllianceInput {
  alliance: AllianceRef;
  /** null when there is no flight log (then observed and window_days are null) */
  log: {
    windowDays: number;
    totals: AllianceTotals | undefined;
    members: ReadonlyMap<string, MemberCount>;
    /** distinct airports (any code) heard at either end of a member leg */
    airports: number;
    /** distinct countries of those airports */
    countries: number;
    routes: readonly AllianceRoute[];
  } | null;
}

export function allianceDocument(x: AllianceInput): AllianceDoc {
  const al = x.alliance;
  const log = x.log;
  return {
    slug: al.slug,
    name: al.name,
    source: al.source,
    as_of: al.as_of,
    members: al.members.map((m) => ({ icao: m.icao, iata: m.iata, name: m.name, observed: log?.members.get(m.icao) ?? { legs: 0, airframes: 0 } })),
    observed: log
      ? {
          legs: log.totals?.legs ?? 0,
          airframes: log.totals?.airframes ?? 0,
          airports: log.airports,
          countries: log.countries,
          routes: log.routes.length,
          days_observed: log.totals?.days_observed ?? 0,
        }
      : null,
    window_days: log ? log.windowDays : null,
    coverage: 'observed',
  };
}

export function allianceRoutesDocument(x: AllianceInput): AllianceRoutesDoc {
  return { slug: x.alliance.slug, window_days: x.log ? x.log.windowDays : null, coverage: 'observed', routes: x.log ? [...x.log.routes] : [] };
}
