// rate-limit buckets and cache lifetimes, spec section 8, in one table.
// where the spec names only the edge lifetime, browsers get the same one.

export interface Policy {
  /** requests per window per client IP; 0 = unlimited */
  limit: number;
  /** Cache-Control for 200 responses */
  cache: string;
}

export const WINDOW_S = 600;

const cache = (browser: number, edge: number) => `public, max-age=${browser}, s-maxage=${edge}`;
const HOUR = 3600;

export const POLICIES: Record<string, Policy> = {
  now: { limit: 600, cache: cache(5, 10) },
  aircraft: { limit: 300, cache: cache(5, 10) },
  estimated: { limit: 300, cache: cache(10, 15) },
  trace: { limit: 600, cache: cache(5, 5) },
  point: { limit: 300, cache: cache(5, 5) },
  airframe: { limit: 300, cache: cache(HOUR, HOUR) },
  airport: { limit: 120, cache: cache(HOUR, HOUR) },
  // spec 8 puts the alliances in "refdata"; the other refdata operations join it (their limit is not shown)
  refdata: { limit: 300, cache: cache(HOUR, HOUR) },
  stations: { limit: 120, cache: cache(30, 30) },
  routes: { limit: 120, cache: cache(HOUR, HOUR) },
  // not shown in the spec (issue 44): an airframe-day's flights, as the airframe; a closed day never changes
  flights: { limit: 300, cache: cache(HOUR, HOUR) },
  // not shown in the spec, chosen here: /v1/route/{callsign} shares the routes limit but counts apart
  route: { limit: 120, cache: cache(HOUR, HOUR) },
  // not shown: a station's private status; tight, and never cached anywhere
  station: { limit: 60, cache: 'private, no-store' },
  // not shown: the readsb /v2 searches (hex, callsign, reg, type, squawk, military), as point
  search: { limit: 300, cache: cache(5, 5) },
  // not shown: the push stream (issue 17); each connection and each box change counts, so a map
  // that pans now and then stays well inside it. never cached: an upgrade is not a document
  stream: { limit: 300, cache: 'no-store' },
  // not shown: liveness and readiness probes, for load balancers; unlimited, never cached
  health: { limit: 0, cache: 'no-store' },
  // not shown: the first-party map (tier map): its page, script, styles, basemap and airport list.
  // one page load is 5 requests; the 5-minute cache lets a new build's airports show within minutes
  map: { limit: 600, cache: cache(300, 300) },
  // documentation and the machine-readable description
  docs: { limit: 600, cache: cache(300, 300) },
  // not shown: the researchers' Parquet files and texts (/v1/bundles/...). a remote query reads
  // each file in several range requests (its footer, then column chunks): a year of days is
  // about 1,500 requests, so the budget is ten times the docs one. an hour, as the history
  // artifacts; the handler sets it (artifacts/bundles.ts DATA_CACHE)
  bundles: { limit: 6000, cache: cache(HOUR, HOUR) },
};

export function policyFor(bucket: string): Policy {
  const p = POLICIES[bucket];
  if (!p) throw new Error(`no policy for bucket ${bucket}: add it to schemas/policy.ts`);
  return p;
}
