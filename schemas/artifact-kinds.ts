// the artifact contract, one row per kind of object the nightly build emits: the URL it answers,
// its key in the tree, its cache bucket (schemas/policy.ts) and its schema. the build (writer), the
// server's history routes, the upload headers, the OpenAPI document and the nginx test all read
// this table; nothing else spells a key layout or a prefix -> bucket map.
//
// templates use OpenAPI's {name} parameters. a public kind's key is its URL without the leading
// slash (tar1090's "the file is the URL"), so a bucket or nginx can serve the tree as it is.

export interface ArtifactKind {
  /** URL template (OpenAPI style), or null for the server-only meta/* documents */
  readonly url: string | null;
  /** other URLs that answer the same object (the spec spells the airframe route both ways) */
  readonly aliases?: readonly string[];
  /** key template inside a version (no leading slash, no .gz) */
  readonly key: string;
  /** rate-limit and cache bucket of the URL; null for meta/* (never a public URL, always revalidated) */
  readonly bucket: string | null;
  /** schemas/<schema>.schema.json validates every object of this kind */
  readonly schema: string;
}

const pub = (url: string, bucket: string, schema: string, aliases?: string[]): ArtifactKind => ({
  url,
  key: url.slice(1),
  bucket,
  schema,
  ...(aliases ? { aliases } : {}),
});
const meta = (name: string, schema: string): ArtifactKind => ({ url: null, key: `meta/${name}`, bucket: null, schema });

export const ARTIFACT_KINDS = {
  airframe: pub('/v1/airframes/{hex}', 'airframe', 'airframe', ['/v1/airframe/{hex}']),
  airport: pub('/v1/airports/{code}', 'airport', 'airport'),
  alliance: pub('/v1/alliances/{slug}', 'refdata', 'alliance'),
  allianceRoutes: pub('/v1/alliances/{slug}/routes', 'refdata', 'alliance-routes'),
  route: pub('/v1/route/{callsign}', 'route', 'route'),
  flights: pub('/v1/flights/{hex}/{date}', 'flights', 'flights'),
  movements: pub('/v1/airports/{code}/movements/{date}', 'flights', 'movements'),
  refAircraft: pub('/v1/refdata/aircraft/{hex}', 'refdata', 'refdata-aircraft'),
  refAirlines: pub('/v1/refdata/airlines', 'refdata', 'refdata-airlines'),
  refAirline: pub('/v1/refdata/airlines/{icao}', 'refdata', 'refdata-airline'),
  refSchedule: pub('/v1/refdata/airlines/{icao}/schedule/{org}/{dst}', 'refdata', 'refdata-schedule'),
  refType: pub('/v1/refdata/types/{designator}', 'refdata', 'refdata-type'),
  refAirport: pub('/v1/refdata/airports/{ident}', 'refdata', 'refdata-airport'),
  /** the routes table the server loads for /v1/routes and /v1/route (and the estimator's destinations) */
  routesTable: meta('routes', 'routes-table'),
  /** code lookups the server needs for 404s, ICAO airport codes and destination positions */
  lookup: meta('lookup', 'lookup'),
  /** what the routes table does not say of the catalog-only routes, whose documents the server builds (artifacts/catalog-routes.ts) */
  catalogRoutes: meta('catalog-routes', 'catalog-routes'),
  /** typical block minutes per route, for the hourly `today` roll (build/roll.ts) */
  boardBlocks: meta('board-blocks', 'board-blocks'),
  /** the traffic flow /v1/estimated follows after the hold (lib/estimate/flow.ts) */
  flow: meta('flow', 'flow'),
  /** the traffic paths /v1/estimated follows after the hold (lib/estimate/paths.ts, follow.ts) */
  paths: meta('paths', 'paths'),
  /** the latest night's estimate accuracy (spec 2.3) */
  accuracy: meta('estimate-accuracy', 'estimate-accuracy'),
} as const satisfies Record<string, ArtifactKind>;

export type ArtifactKindName = keyof typeof ARTIFACT_KINDS;

/** the parameter names of a template, in order: '/v1/a/{x}/b/{y}' -> ['x', 'y'] */
export function templateParams(template: string): string[] {
  return [...template.matchAll(/\{([a-z]+)\}/g)].map((m) => m[1]!);
}

/** a template with its parameters filled in order */
export function fillTemplate(template: string, values: readonly string[]): string {
  let i = 0;
  const out = template.replace(/\{[a-z]+\}/g, () => {
    const v = values[i++];
    if (v === undefined) throw new Error(`${template}: too few values`);
    return v;
  });
  if (i !== values.length) throw new Error(`${template}: ${values.length} values for ${i} parameters`);
  return out;
}

// a key matches a template segment by segment; a parameter is one segment
const matchers = Object.entries(ARTIFACT_KINDS).map(([name, k]) => ({
  name: name as ArtifactKindName,
  kind: k as ArtifactKind,
  re: new RegExp(`^${k.key.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[a-z]+\}/g, '[^/]+')}$`),
}));

/** the kind of a tree key, or null when no kind has that shape */
export function kindOfKey(key: string): { name: ArtifactKindName; kind: ArtifactKind } | null {
  for (const m of matchers) if (m.re.test(key)) return { name: m.name, kind: m.kind };
  return null;
}

/** a URL template in the router's syntax: '/v1/airframes/{hex}' -> '/v1/airframes/:hex' */
export const routePattern = (template: string) => template.replace(/\{([a-z]+)\}/g, ':$1');
