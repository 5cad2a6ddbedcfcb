// the OpenAPI 3.1 description, generated from operations.ts and the JSON Schemas of this folder.
// nothing here is kept by hand apart from the prose of info.description: a response shape, a limit
// or a cache lifetime changes in one place (its schema, operations.ts, schemas/policy.ts).
import { POLICIES, WINDOW_S } from './policy.ts';
import { loadSchemas, type Schema } from './index.ts';
import { ERROR_STATUS, OPERATIONS, type Operation } from './operations.ts';
import type { ErrorCode } from '../lib/errors.ts';

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

**Errors.** Every non-200 response has the body \`{"error": <code>, "detail": <text>}\` and \`Cache-Control: no-store\`.

**Limits.** Per client IP, per bucket, over a ${WINDOW_S} second window; each operation's bucket and limit are in \`x-rate-limit\`. Every response carries \`RateLimit-Limit\`, \`RateLimit-Remaining\` and \`RateLimit-Reset\`; a 429 carries \`Retry-After\`.

**Stability** (\`x-stability\` on each operation): \`stable\` only gains fields, names and types are frozen (clients must tolerate added fields); \`map\` exists for the first-party map and can change with it; \`candidate\` is proposed for stable and may still change.`;

const CODE_TEXT: Record<ErrorCode, string> = {
  not_found: '`not_found`: nothing is known for the requested key',
  not_observed: '`not_observed`: the key is real but the network has not heard it',
  invalid_request: '`invalid_request`: malformed input; `detail` says what to fix',
  rate_limited: '`rate_limited`: the bucket limit is exceeded; wait `Retry-After` seconds',
  stale_snapshot: '`stale_snapshot`: the live snapshot is older than 60 s',
  artifact_unavailable: '`artifact_unavailable`: a required history artifact is not loaded',
  upstream_unavailable: '`upstream_unavailable`: a part of the service this answer needs did not answer in time (a serving thread waiting on the one that holds the route, --forward-timeout-ms)',
  internal_error: '`internal_error`: a fault inside the service; it is logged, and the detail says no more',
};

const header = (description: string, schema: Json): Json => ({ description, schema });

const HEADERS: Json = {
  'RateLimit-Limit': header('Requests allowed per window in this bucket.', { type: 'integer' }),
  'RateLimit-Remaining': header('Requests left in the current window.', { type: 'integer' }),
  'RateLimit-Reset': header('Seconds until the window resets.', { type: 'integer' }),
  'Retry-After': header('Seconds to wait before retrying.', { type: 'integer' }),
  'Cache-Control': header('Cache lifetime of the answer (per bucket, spec 8); `no-store` on every error.', { type: 'string' }),
  'Content-Encoding': header('`gzip` when the client accepts it and the body is worth compressing.', { type: 'string', enum: ['gzip'] }),
};

const ref = (name: string) => ({ $ref: `#/components/headers/${name}` });
const RATE_HEADERS = { 'RateLimit-Limit': ref('RateLimit-Limit'), 'RateLimit-Remaining': ref('RateLimit-Remaining'), 'RateLimit-Reset': ref('RateLimit-Reset') };

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

function errorResponses(op: Operation): Json {
  const byStatus = new Map<number, ErrorCode[]>();
  // every operation can be rate limited, meet a fault of its own, or (an HTTP one) be asked on a
  // serving thread whose wait for the thread that holds the route runs out (server/serve/forward.ts)
  const forwarded = 'websocket' in op.response ? [] : ['upstream_unavailable' as const];
  for (const code of [...op.errors, 'rate_limited' as const, 'internal_error' as const, ...forwarded]) {
    const st = ERROR_STATUS[code];
    byStatus.set(st, [...(byStatus.get(st) ?? []), code]);
  }
  const out: Json = {};
  for (const [status, codes] of [...byStatus].sort(([a], [b]) => a - b)) {
    const retry = status === 429 || status >= 502;
    out[String(status)] = {
      description: codes.map((c) => CODE_TEXT[c]).join('; ') + '.',
      headers: { ...RATE_HEADERS, 'Cache-Control': ref('Cache-Control'), ...(retry ? { 'Retry-After': ref('Retry-After') } : {}) },
      content: { 'application/json': { schema: { $ref: `${COMPONENT}error` }, example: { error: codes[0], detail: CODE_TEXT[codes[0]!].replace(/^`[^`]+`: /, '') } } },
    };
  }
  // any method but GET and HEAD on a known path
  out['405'] = {
    description: '`invalid_request`: the method is not GET or HEAD; `Allow` names the ones that are.',
    headers: { 'Cache-Control': ref('Cache-Control'), Allow: { description: 'The allowed methods: GET, HEAD.', schema: { type: 'string' } } },
    content: { 'application/json': { schema: { $ref: `${COMPONENT}error` }, example: { error: 'invalid_request', detail: 'POST is not supported: every operation is GET' } } },
  };
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => Number(a) - Number(b)));
}

function okContent(op: Operation): Json {
  const r = op.response;
  if ('schema' in r) return { 'application/json': { schema: { $ref: COMPONENT + r.schema } } };
  if ('openapi' in r) {
    const schema = { type: 'object', required: ['openapi', 'info', 'paths'], properties: { openapi: { const: OPENAPI_VERSION }, info: { type: 'object' }, paths: { type: 'object' } } };
    return { 'application/json': { schema } };
  }
  if ('mediaType' in r) return { [r.mediaType]: { schema: { type: 'string' } } };
  throw new Error(`operation ${op.operationId} is a WebSocket: it has no 200 content`);
}

/** a WebSocket route: the 101 of the upgrade, and the 426 a plain GET gets; its messages by schema */
function upgradeResponses(messages: string): Json {
  const plain = (description: string) => ({ description, schema: { type: 'string' } });
  return {
    '101': {
      description: `Switching Protocols: the connection is now a WebSocket; every text message the server sends is one \`${messages}\` (x-websocket-messages).`,
      headers: { ...RATE_HEADERS, 'Cache-Control': ref('Cache-Control'), Upgrade: plain('`websocket`.'), 'Sec-WebSocket-Accept': plain('The RFC 6455 handshake answer.') },
      // not a body: the messages that follow the switch (the usual way to name them in OpenAPI)
      content: { 'application/json': { schema: { $ref: COMPONENT + messages } } },
    },
    '426': {
      description: '`invalid_request`: a plain GET without `Upgrade: websocket`; connect with a WebSocket client.',
      headers: { ...RATE_HEADERS, 'Cache-Control': ref('Cache-Control'), Upgrade: plain('`websocket`.') },
      content: { 'application/json': { schema: { $ref: `${COMPONENT}error` }, example: { error: 'invalid_request', detail: '/v1/stream is a WebSocket: connect with a WebSocket client (Upgrade: websocket)' } } },
    },
  };
}

function operationObject(op: Operation): Json {
  const policy = POLICIES[op.bucket];
  if (!policy) throw new Error(`operation ${op.operationId}: no bucket ${op.bucket} in schemas/policy.ts`);
  const ws = 'websocket' in op.response ? op.response.websocket : null;
  const ok: Json = ws
    ? upgradeResponses(ws)
    : {
        '200': {
          description: `OK. Cache-Control: \`${policy.cache}\`.`,
          headers: { ...RATE_HEADERS, 'Cache-Control': ref('Cache-Control'), 'Content-Encoding': ref('Content-Encoding') },
          content: okContent(op),
        },
      };
  return {
    operationId: op.operationId,
    tags: [op.tag],
    summary: op.summary,
    description: op.description,
    ...(op.parameters.length
      ? { parameters: op.parameters.map((p) => ({ name: p.name, in: p.in, required: p.required, description: p.description, schema: p.schema, example: p.example })) }
      : {}),
    responses: Object.fromEntries(Object.entries({ ...ok, ...errorResponses(op) }).sort(([x], [y]) => Number(x) - Number(y))),
    ...(ws ? { 'x-websocket-messages': { $ref: COMPONENT + ws } } : {}),
    'x-stability': op.stability,
    'x-rate-limit': { bucket: op.bucket, limit: policy.limit, window_s: WINDOW_S },
    'x-cache-control': policy.cache,
  };
}

export interface OpenApiOptions {
  /** public base URL of the service; empty: the server the document was fetched from */
  baseUrl?: string;
  operations?: readonly Operation[];
  schemas?: Map<string, Schema>;
}

/** The whole OpenAPI 3.1 document. Throws when an operation names a missing schema or bucket. */
export function buildOpenApi(opts: OpenApiOptions = {}): Json {
  const ops = opts.operations ?? OPERATIONS;
  const all = opts.schemas ?? loadSchemas();
  const paths: Json = {};
  for (const op of ops) {
    if (paths[op.path]) throw new Error(`operations.ts lists ${op.path} twice`);
    paths[op.path] = { get: operationObject(op) };
  }
  const roots = ['error', ...ops.flatMap((o) => ('schema' in o.response ? [o.response.schema] : 'websocket' in o.response ? [o.response.websocket] : []))];
  const base = (opts.baseUrl ?? '').replace(/\/+$/, '');
  return {
    openapi: OPENAPI_VERSION,
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
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
    ],
    paths,
    components: { schemas: componentSchemas(roots, all), headers: HEADERS },
  };
}
