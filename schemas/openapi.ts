// the OpenAPI 3.1 description, generated from operations.ts and the JSON Schemas of this folder.
// nothing here is kept by hand apart from the prose of info.description: a response shape, a limit
// or a cache lifetime changes in one place (its schema, operations.ts, schemas/policy.ts).
import { POLICIES, WINDOW_S } from './policy.ts';
import { loadSchemas, type Schema } from './index.ts';
import { OPERATIONS, type Operation } from './operations.ts';
import { getResponses, HEADERS, isLimited, preflightResponses } from './openapi-responses.ts';
import { reachable, refsIn, tolerant } from './tolerant.ts';

type Json = Record<string, unknown>;

const OPENAPI_VERSION = '3.1.0';
const API_VERSION = '1.0.0';
const COMPONENT = '#/components/schemas/';

const DESCRIPTION = `Contrail publishes open flight data collected by a network of ADS-B receivers: the live sky, short recent traces, estimated positions of aircraft that left coverage, observed flight history per airframe, airport and callsign, reference data, alliance data, and the public roster of receiving stations.

**Read-only and open.** Every operation is an HTTP GET returning JSON. No API key, no account, no tracking. \`/v1/stations/{uuid}\` is protected by knowledge of the full UUID only.

**License.** The data is licensed under ODbL 1.0. Credit the network's feeders and link the credits page (see \`/v1/credits\`); republishing carries those credits.

**Data honesty.**
1. History is observation, never an official registry. A gap means the network's sources did not hear the aircraft, nothing more.
2. Responses carry \`coverage\` = \`observed\` as a reminder.
3. The one exception is the airport board: its rows may be inferred from published timetables. Each board row carries its own \`source\` (\`observed\`, \`published\` or \`both\`); a \`published\` row is not a receiver observation.
4. A flight's \`route_source\` is \`observed\` when both ends were seen, \`observed+catalog\` when the community supplied the end coverage never reached, and \`catalog\` when the community supplied both. Observation outranks the catalog whenever it speaks.
5. A live snapshot older than 60 seconds is never served as live data: the answer is 503 \`stale_snapshot\`, so an outage never reads as an empty sky.

**Field dialects.** \`/v1/aircraft\` and \`/v2/point/...\` pass the ADS-B decoder's wire field names through unchanged (\`hex\`, \`t\`, \`r\`, \`gs\`, ...). Every other resource uses full words (\`reg\`, \`type\`, \`org\`, \`dst\`). Airport codes in history resources are IATA; \`/v1/airports/{code}\` accepts IATA or ICAO.

**Time formats.** Event times are unix seconds UTC (numbers). Registry timestamps are ISO 8601 UTC. Board and schedule times are \`HH:MM\` in the origin airport's local time.

**Errors.** Every error answer (4xx, 5xx) has the body \`{"error": <code>, "detail": <text>}\` and \`Cache-Control: no-store\`; each operation lists
the codes each of its statuses can carry.

**Limits.** Per client IP, per bucket, over a ${WINDOW_S} second window; each operation's bucket and limit are in \`x-rate-limit\`. Every answer a
bucket counted carries \`RateLimit-Limit\`, \`RateLimit-Remaining\` and \`RateLimit-Reset\`; a 429 carries \`Retry-After\`. The probes (\`/healthz\`,
\`/readyz\`, \`/metrics\`) are counted by no bucket and never answer 429.

**HTTP.** Every GET is also answered to HEAD, with the same status and headers and no body. History documents and the researchers' files carry an
\`ETag\`: send it back as \`If-None-Match\` and the answer is 304 while it is current. Any origin may read every answer (CORS); every path answers the
browser's preflight (OPTIONS, tag \`cors\`). Any other method is a 405.

**Stability** (\`x-stability\` on each operation): \`stable\` only gains fields, names and types are frozen (clients must tolerate added fields);
\`map\` exists for the first-party map and can change with it; \`candidate\` is proposed for stable and may still change. The schemas published here for stable
operations accept added properties, so a client that validates against them is not broken by an added field.`;

/** Rewrite `$ref`s of schema `name` to components: `x.json` and `#/$defs/y` become component names. */
function rewriteRefs(value: unknown, name: string): unknown {
  if (Array.isArray(value)) return value.map((v) => rewriteRefs(v, name));
  if (value === null || typeof value !== 'object') return value;
  const out: Json = {};
  for (const [k, v] of Object.entries(value)) {
    out[k] = k === '$ref' && typeof v === 'string' ? componentRef(v, name) : rewriteRefs(v, name);
  }
  return out;
}

function componentRef(target: string, from: string): string {
  const [file, fragment = ''] = target.split('#');
  const owner = file ? file.replace(/\.json$/, '') : from;
  if (fragment === '' || fragment === '/') return COMPONENT + owner;
  const def = /^\/\$defs\/([^/]+)$/.exec(fragment);
  if (!def) throw new Error(`schemas/${from}: $ref ${target} points inside a schema; only whole schemas and $defs entries are supported`);
  return `${COMPONENT}${owner}.${def[1]}`;
}

/** The names a schema refers to (whole schemas only; $defs travel with their owner). */
function refsOf(value: unknown, found: Set<string>): Set<string> {
  if (Array.isArray(value)) for (const v of value) refsOf(v, found);
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (k === '$ref' && typeof v === 'string' && !v.startsWith('#')) found.add(v.split('#')[0]!.replace(/\.json$/, ''));
      else refsOf(v, found);
    }
  }
  return found;
}

/** components.schemas for the named schemas and everything they refer to; $defs hoisted as `<name>.<def>`. */
function componentSchemas(roots: string[], all: Map<string, Schema>): Json {
  const out: Json = {};
  const todo = [...roots];
  while (todo.length) {
    const name = todo.pop()!;
    if (name in out) continue;
    const s = all.get(name);
    if (!s) throw new Error(`no schema named ${name}: add schemas/${name}.schema.json`);
    const { $id: _id, $schema: _dialect, $defs, ...body } = s as Json;
    out[name] = rewriteRefs(body, name);
    for (const [def, d] of Object.entries(($defs ?? {}) as Json)) out[`${name}.${def}`] = rewriteRefs(d, name);
    todo.push(...refsOf(s, new Set()));
  }
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => a.localeCompare(b)));
}

function okContent(op: Operation): Json {
  const r = op.response;
  if ('schema' in r) return { 'application/json': { schema: { $ref: COMPONENT + r.schema } } };
  if ('openapi' in r) {
    const schema = {
      type: 'object',
      required: ['openapi', 'info', 'paths'],
      properties: { openapi: { const: OPENAPI_VERSION }, info: { type: 'object' }, paths: { type: 'object' } },
    };
    return { 'application/json': { schema } };
  }
  if ('mediaType' in r) return { [r.mediaType]: { schema: { type: 'string' } } };
  throw new Error(`operation ${op.operationId} is a WebSocket: it has no 200 content`);
}

/** the GET of an operation (HEAD answers the same without a body) */
function operationObject(op: Operation, rateLimits: boolean): Json {
  const policy = POLICIES[op.bucket];
  if (!policy) throw new Error(`operation ${op.operationId}: no bucket ${op.bucket} in schemas/policy.ts`);
  const ws = 'websocket' in op.response ? op.response.websocket : null;
  return {
    operationId: op.operationId,
    tags: [op.tag],
    summary: op.summary,
    description: op.description,
    ...parametersOf(op),
    responses: getResponses(op, { rateLimits, content: ws ? null : okContent(op) }),
    ...(ws ? { 'x-websocket-messages': { $ref: COMPONENT + ws } } : {}),
    'x-stability': op.stability,
    'x-rate-limit': { bucket: op.bucket, limit: isLimited(op, rateLimits) ? policy.limit : 0, window_s: WINDOW_S },
    'x-cache-control': policy.cache,
  };
}

type Parameter = Operation['parameters'][number];
const parameterObject = ({ name, in: where, required, description, schema, example }: Parameter) => ({
  name,
  in: where,
  required,
  description,
  schema,
  example,
});
const parametersOf = (op: Operation): Json => (op.parameters.length ? { parameters: op.parameters.map(parameterObject) } : {});

/** the CORS preflight of an operation's path; path parameters only (a preflight reads no query) */
function preflightObject(op: Operation): Json {
  const path = { ...op, parameters: op.parameters.filter((p) => p.in === 'path') };
  return {
    operationId: `preflight${op.operationId[0]!.toUpperCase()}${op.operationId.slice(1)}`,
    tags: ['cors'],
    summary: `CORS preflight of ${op.path}`,
    description:
      'What a browser asks before a cross-origin request that is not simple; answered for every path, outside the rate limits. Never needed by other clients.',
    ...parametersOf(path),
    responses: preflightResponses(op),
    'x-stability': op.stability,
  };
}

export interface OpenApiOptions {
  /** public base URL of the service; empty: the server the document was fetched from */
  baseUrl?: string;
  operations?: readonly Operation[];
  schemas?: Map<string, Schema>;
  /**
   * published (the default): the schemas a stable operation answers with tolerate added fields
   * (tolerant.ts). strict: every schema exactly as in this folder, closed (the project's own tests)
   */
  variant?: 'published' | 'strict';
  /** the server counts the buckets (default true); false (--no-rate-limits): no RateLimit headers, no 429 */
  rateLimits?: boolean;
}

/** The whole OpenAPI 3.1 document. Throws when an operation names a missing schema or bucket. */
export function buildOpenApi(opts: OpenApiOptions = {}): Json {
  const ops = opts.operations ?? OPERATIONS;
  const all = opts.schemas ?? loadSchemas();
  const rateLimits = opts.rateLimits ?? true;
  const paths: Record<string, Json> = {};
  for (const op of ops) {
    if (paths[op.path]) throw new Error(`operations.ts lists ${op.path} twice`);
    paths[op.path] = { get: operationObject(op, rateLimits), options: preflightObject(op) };
  }
  const roots = ['error', ...ops.flatMap((o) => ('schema' in o.response ? [o.response.schema] : 'websocket' in o.response ? [o.response.websocket] : []))];
  const schemas = componentSchemas(roots, all);
  if ((opts.variant ?? 'published') === 'published') {
    const stable = ops.filter((o) => o.stability === 'stable').map((o) => refsIn(paths[o.path]!.get));
    for (const name of reachable(
      stable.flatMap((s) => [...s]),
      schemas,
    ))
      schemas[name] = tolerant(schemas[name]);
  }
  const base = (opts.baseUrl ?? '').replace(/\/+$/, '');
  return {
    openapi: OPENAPI_VERSION,
    // no jsonSchemaDialect: the default (the OpenAPI 3.1 base dialect, JSON Schema 2020-12 with the
    // OpenAPI vocabulary) is what the schemas use, and Swagger UI warns on any other value
    info: {
      title: 'Contrail open flight-data API',
      version: API_VERSION,
      description: DESCRIPTION,
      license: { name: 'ODbL 1.0 (data)', url: 'https://opendatacommons.org/licenses/odbl/1-0/' },
    },
    servers: [{ url: base || '/', description: base ? 'this deployment' : 'the server this document was fetched from' }],
    // spec 5: no key, no account
    security: [],
    tags: [
      { name: 'live', description: 'The live sky, from the current snapshot (never older than 60 s).' },
      { name: 'history', description: 'Observed flight history from the nightly build.' },
      { name: 'refdata', description: 'Reference data and what the network observed of it.' },
      { name: 'stations', description: 'The receiving stations.' },
      { name: 'about', description: 'Credits, terms and this description.' },
      { name: 'cors', description: 'The CORS preflight every path answers (OPTIONS): browsers send it on their own; no other client needs it.' },
    ],
    paths,
    components: { schemas, headers: HEADERS },
  };
}
