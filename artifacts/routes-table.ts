// the routes table: callsign -> [org, dst] IATA with its route_source (spec 1 rule 4, 2.8).
// observation first; the community catalog only where observation is silent, only after its
// automatic checks and its review (artifacts/catalog-check.ts, catalog-review.ts), and never
// for an end that observation contradicts. the rules are written out in artifacts/ROUTES.md.
import type { AirportRef, RefView } from './reference-view.ts';
import type { CatalogVerdict } from './catalog-check.ts';

export type RouteSource = 'observed' | 'observed+catalog' | 'catalog';

/** one served route (the routes step returns the whole RoutesTable) */
export interface RouteEntry {
  /** IATA codes */
  org: string;
  dst: string;
  /** OurAirports idents of the same airports (to join with the log's org/dst) */
  org_ident: string;
  dst_ident: string;
  route_source: RouteSource;
  /** whether the network itself heard each end for this callsign (the catalog supplied an unheard one) */
  org_seen: boolean;
  dst_seen: boolean;
}

export type RoutesTable = Map<string, RouteEntry>;

/** log legs of one callsign grouped by (org, dst) ident; circuits (org = dst) already left out */
export interface EndGroup {
  org: string | null;
  dst: string | null;
  legs: number;
  last_ts: number;
}

export interface CallsignEvidence {
  callsign: string;
  groups: EndGroup[];
  /** all legs of the callsign in the window, circuits excluded */
  legs: number;
  days: number;
  last_ts: number;
  /** type designators flown under the callsign */
  types: string[];
}

/** a pair or an end needs this many legs to win, unless it is the only candidate */
const MIN_LEGS = 2;

interface Vote {
  key: string;
  legs: number;
  last_ts: number;
}

/** the winner by legs, then the latest leg, then the key (stable); `clear` when it may be served */
function majority(votes: Iterable<Vote>): { winner: Vote; clear: boolean } | null {
  let best: Vote | null = null;
  let n = 0;
  for (const v of votes) {
    n++;
    if (!best || v.legs > best.legs || (v.legs === best.legs && (v.last_ts > best.last_ts || (v.last_ts === best.last_ts && v.key < best.key)))) best = v;
  }
  if (!best) return null;
  return { winner: best, clear: best.legs >= MIN_LEGS || n === 1 };
}

function tally(groups: EndGroup[], pick: (g: EndGroup) => string | null): Map<string, Vote> {
  const votes = new Map<string, Vote>();
  for (const g of groups) {
    const key = pick(g);
    if (key === null) continue;
    const v = votes.get(key);
    if (v) {
      v.legs += g.legs;
      v.last_ts = Math.max(v.last_ts, g.last_ts);
    } else votes.set(key, { key, legs: g.legs, last_ts: g.last_ts });
  }
  return votes;
}

/** what observation says about one callsign's ends */
export interface Observed {
  /** the clear majority route (a pair, or two clear ends seen on different legs), as idents */
  route: { org: string; dst: string } | null;
  /** every origin / destination ident heard for the callsign */
  orgs: Set<string>;
  dsts: Set<string>;
}

export function observe(ev: CallsignEvidence | null): Observed {
  if (!ev) return { route: null, orgs: new Set(), dsts: new Set() };
  const sep = '\u0000';
  const pairs = tally(ev.groups, (g) => (g.org !== null && g.dst !== null ? g.org + sep + g.dst : null));
  const orgVotes = tally(ev.groups, (g) => g.org);
  const dstVotes = tally(ev.groups, (g) => g.dst);
  const orgs = new Set(orgVotes.keys());
  const dsts = new Set(dstVotes.keys());
  const pair = majority(pairs.values());
  if (pair?.clear) {
    const [org, dst] = pair.winner.key.split(sep) as [string, string];
    return { route: { org, dst }, orgs, dsts };
  }
  // no pair seen with both ends (or several, none clear): two clear ends from separate legs
  if (!pair) {
    const o = majority(orgVotes.values());
    const d = majority(dstVotes.values());
    if (o?.clear && d?.clear && o.winner.key !== d.winner.key) return { route: { org: o.winner.key, dst: d.winner.key }, orgs, dsts };
  }
  return { route: null, orgs, dsts };
}

/** why a callsign has no served route (counted by the build, shown nowhere else) */
type NoRoute = 'observed_without_iata' | 'observed_ambiguous' | 'no_catalog' | 'catalog_rejected' | 'catalog_contradicted' | 'catalog_multistop_unanchored';

export interface RouteDecision {
  entry: RouteEntry | null;
  /** the catalog row used for the entry, when the catalog supplied an end */
  catalogUsed: boolean;
  reason: NoRoute | null;
}

const entryOf = (org: AirportRef, dst: AirportRef, seen: { org: boolean; dst: boolean }): RouteEntry => ({
  org: org.iata!,
  dst: dst.iata!,
  org_ident: org.ident,
  dst_ident: dst.ident,
  route_source: seen.org && seen.dst ? 'observed' : seen.org || seen.dst ? 'observed+catalog' : 'catalog',
  org_seen: seen.org,
  dst_seen: seen.dst,
});

/**
 * The route of one callsign from its log evidence (null when never heard in the window) and its
 * checked catalog verdict (null when the catalog has no row for it).
 */
export function decideRoute(ev: CallsignEvidence | null, verdict: CatalogVerdict | null, ref: Pick<RefView, 'airport'>): RouteDecision {
  const obs = observe(ev);
  if (obs.route) {
    const org = ref.airport(obs.route.org);
    const dst = ref.airport(obs.route.dst);
    // observation spoke: the catalog is not asked, even when the observed airport has no IATA code
    if (!org?.iata || !dst?.iata) return { entry: null, catalogUsed: false, reason: 'observed_without_iata' };
    return { entry: entryOf(org, dst, { org: true, dst: true }), catalogUsed: false, reason: null };
  }
  if (!verdict) return { entry: null, catalogUsed: false, reason: obs.orgs.size || obs.dsts.size ? 'observed_ambiguous' : 'no_catalog' };
  if (!verdict.ok) return { entry: null, catalogUsed: false, reason: 'catalog_rejected' };
  // an end is usable only when every observation of that end names the catalog's airport
  const agrees = (seen: Set<string>, a: AirportRef) => seen.size === 0 || (seen.size === 1 && seen.has(a.ident));
  const fits = verdict.segments.filter(([o, d]) => agrees(obs.orgs, o) && agrees(obs.dsts, d));
  if (fits.length === 0) return { entry: null, catalogUsed: false, reason: 'catalog_contradicted' };
  // a multi-stop route names several legs: serve one only when an observed end picks it out
  const anchored = obs.orgs.size > 0 || obs.dsts.size > 0;
  if (verdict.segments.length > 1 && (!anchored || fits.length > 1)) {
    return { entry: null, catalogUsed: false, reason: 'catalog_multistop_unanchored' };
  }
  const [o, d] = fits[0]!;
  const entry = entryOf(o, d, { org: obs.orgs.size > 0, dst: obs.dsts.size > 0 });
  return { entry, catalogUsed: entry.route_source !== 'observed', reason: null };
}

export interface RouteDoc {
  callsign: string;
  org: string;
  dst: string;
  route_source: RouteSource;
  flight: string | null;
  airline: { icao: string; iata: string | null; name: string } | null;
  observed: { legs: number; days: number; last_seen: number } | null;
  catalog: { stops: string[]; review: 'accepted' | 'auto'; reviewer: string | null; reviewed_on: string | null } | null;
  coverage: 'observed';
}

/** the airline designator a callsign starts with (DAL1234 -> DAL), or null */
export const airlinePrefixOf = (callsign: string): string | null => /^[A-Z]{3}(?=\d)/.exec(callsign)?.[0] ?? null;

/** v1/route/<callsign> (a catalog-only one without a file: artifacts/catalog-routes.ts) */
export function routeDoc(
  callsign: string,
  entry: RouteEntry,
  ev: CallsignEvidence | null,
  verdict: CatalogVerdict | null,
  ref: Pick<RefView, 'airline' | 'flightNumber'>,
): RouteDoc {
  const prefix = airlinePrefixOf(callsign);
  const airline = prefix ? ref.airline(prefix) : null;
  const usedCatalog = entry.route_source !== 'observed' && verdict?.ok;
  return {
    callsign,
    org: entry.org,
    dst: entry.dst,
    route_source: entry.route_source,
    flight: ref.flightNumber(callsign),
    airline: airline ? { icao: airline.icao, iata: airline.iata, name: airline.name } : null,
    observed: ev && ev.legs > 0 ? { legs: ev.legs, days: ev.days, last_seen: ev.last_ts } : null,
    catalog:
      usedCatalog && verdict?.ok
        ? {
            stops: verdict.stops.map((a) => a.iata!),
            review: verdict.review.status === 'accepted' ? 'accepted' : 'auto',
            reviewer: verdict.review.status === 'accepted' ? verdict.review.entry.reviewer : null,
            reviewed_on: verdict.review.status === 'accepted' ? verdict.review.entry.date : null,
          }
        : null,
    coverage: 'observed',
  };
}
