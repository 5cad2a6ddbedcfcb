// the generated OpenAPI 3.1 document: a standard linter passes it, every operation of spec 4 is in it
// with its tier, every reference resolves, and the operations table agrees with the real route modules.
import { routesOf } from '../../server/app.ts';
import type { Services } from '../../server/services.ts';
import { loadServerConfig } from '../../server/config.ts';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import { buildOpenApi } from '../../schemas/openapi.ts';
import { loadSchemas, problems, type Schema } from '../../schemas/index.ts';
import { OPERATIONS, type Operation } from '../../schemas/operations.ts';
import { POLICIES } from '../../schemas/policy.ts';
import type { Route } from '../../server/http/types.ts';

const doc = buildOpenApi({ baseUrl: 'https://api.example.org/' }) as any;

// spec 4 (4.1, 4.2, 4.3) and spec 9's tiers; operations whose tier the spec does not show are candidate
const SPEC_4: Record<string, string> = {
  '/v1/now': 'stable',
  '/v1/aircraft': 'stable',
  '/v1/estimated': 'map',
  '/v1/trace/{hex}': 'stable',
  '/v2/point/{lat}/{lon}/{radius}': 'stable',
  '/v1/airframes/{hex}': 'stable',
  '/v1/airframe/{hex}': 'stable',
  '/v1/airports/{code}': 'candidate',
  '/v1/alliances/{slug}': 'candidate',
  '/v1/alliances/{slug}/routes': 'candidate',
  '/v1/routes': 'candidate',
  '/v1/route/{callsign}': 'candidate',
  '/v1/refdata/aircraft/{hex}': 'candidate',
  '/v1/refdata/airlines': 'candidate',
  '/v1/refdata/airlines/{icao}': 'candidate',
  '/v1/refdata/airlines/{icao}/schedule/{org}/{dst}': 'candidate',
  '/v1/refdata/types/{designator}': 'candidate',
  '/v1/refdata/airports/{ident}': 'candidate',
  '/v1/stations': 'candidate',
  '/v1/stations/{uuid}': 'candidate',
};

test('the document passes the redocly recommended-strict ruleset', async () => {
  const config = await createConfig({ extends: ['recommended-strict'] } as never);
  const found = await lintFromString({ source: JSON.stringify(doc), absoluteRef: 'openapi.json', config });
  // `not: {required: [x]}` says "x is absent" (a valid JSON Schema idiom); the rule reads it as a typo
  const real = found.filter((p) => !(p.ruleId === 'no-required-schema-properties-undefined' && p.location[0]?.pointer?.includes('/not/required/')));
  // a WebSocket upgrade answers 101, never 2xx: OpenAPI has no better way to say so (docs/api.md, "Push stream")
  const upgrade = (p: (typeof found)[number]) => p.ruleId === 'operation-2xx-response' && p.location[0]?.pointer === '#/paths/~1v1~1stream/get/responses';
  assert.equal(real.filter(upgrade).length, 1, "the one exception is the stream's upgrade");
  // the preflight of a path without parameters can only answer 204: no 4xx to list
  const preflight = (p: (typeof found)[number]) => p.ruleId === 'operation-4xx-response' && /\/options\/responses$/.test(p.location[0]?.pointer ?? '');
  const paramless = Object.values<any>(doc.paths).filter((item) => !item.get.parameters?.some((x: any) => x.in === 'path')).length;
  assert.equal(real.filter(preflight).length, paramless, 'the other: the preflights of paths without parameters');
  assert.deepEqual(
    real.filter((p) => !upgrade(p) && !preflight(p)).map((p) => `${p.ruleId} ${p.message} at ${p.location[0]?.pointer}`),
    [],
  );
});

test('the linter is not a no-op: a document with an undefined path parameter fails it', async () => {
  const broken = structuredClone(doc);
  broken.paths['/v1/trace/{hex}'].get.parameters = [];
  const config = await createConfig({ extends: ['recommended-strict'] } as never);
  const found = await lintFromString({ source: JSON.stringify(broken), absoluteRef: 'openapi.json', config });
  assert.ok(
    found.some((p) => p.ruleId === 'path-parameters-defined'),
    found.map((p) => p.ruleId).join(', '),
  );
});

test('every operation of spec 4 is present as a GET with its stability tier', () => {
  for (const [path, tier] of Object.entries(SPEC_4)) {
    const op = doc.paths[path]?.get;
    assert.ok(op, `${path} is missing from /openapi.json`);
    assert.equal(op['x-stability'], tier, `${path} tier`);
  }
  const documents = [
    '/v1/credits',
    '/openapi.json',
    '/docs',
    '/v1/bundles',
    '/v1/bundles/log/{partition}/legs.parquet',
    '/v1/bundles/tables/{table}',
    '/v1/bundles/tables/{table}/{partition}/{file}',
    '/v1/bundles/{doc}',
    '/healthz',
    '/readyz',
    '/metrics',
  ];
  // the readsb /v2 searches and the push stream (issue 17), tier candidate
  const searches = ['/v2/hex/{hex}', '/v2/callsign/{callsign}', '/v2/reg/{reg}', '/v2/type/{designator}', '/v2/sqk/{squawk}', '/v2/mil', '/v1/stream'];
  for (const extra of searches) assert.equal(doc.paths[extra]?.get?.['x-stability'], 'candidate', extra);
  for (const extra of documents) assert.ok(doc.paths[extra]?.get, `${extra} is missing`);
  // spec 9's map tier: the first-party map and what it reads that no other client needs (issue 46)
  const map = ['/', '/v1/map/airports', '/v1/map/config', '/v1/map/types', '/v1/map/extent'];
  for (const extra of map) assert.equal(doc.paths[extra]?.get?.['x-stability'], 'map', extra);
  // the flights of an airframe-day and the movements of an airport-day (issue 44), tier candidate
  const history = ['/v1/flights/{hex}/{date}', '/v1/airports/{code}/movements/{date}'];
  for (const extra of history) assert.equal(doc.paths[extra]?.get?.['x-stability'], 'candidate', extra);
  assert.equal(
    Object.keys(doc.paths).length,
    Object.keys(SPEC_4).length + documents.length + searches.length + map.length + history.length,
    "no operation beyond spec 4, the service's own documents and probes, the searches, the stream, the map and the flights",
  );
  // every operation is a GET (HEAD answers the same without a body), with the CORS preflight of its path
  for (const item of Object.values<any>(doc.paths)) assert.deepEqual(Object.keys(item), ['get', 'options'], 'every operation is GET only, with its preflight');
});

test('info: version 1.0.0, ODbL 1.0, the servers entry from the base URL without a trailing slash, and the spec notes', () => {
  assert.equal(doc.openapi, '3.1.0');
  assert.equal(doc.info.version, '1.0.0');
  assert.match(doc.info.license.name, /ODbL 1\.0/);
  assert.deepEqual(
    doc.servers.map((s: any) => s.url),
    ['https://api.example.org'],
  );
  assert.deepEqual(
    (buildOpenApi() as any).servers.map((s: any) => s.url),
    ['/'],
  );
  for (const words of ['No API key', 'never an official registry', 'stale_snapshot', 'Field dialects', 'unix seconds UTC', 'HH:MM', 'route_source']) {
    assert.ok(doc.info.description.includes(words), `info.description mentions ${words}`);
  }
  assert.deepEqual(doc.security, [], 'no authentication (spec 5)');
});

test('/v1/routes documents its callsigns query parameter: required, comma-separated, up to 80', () => {
  const [p] = doc.paths['/v1/routes'].get.parameters;
  assert.equal(p.name, 'callsigns');
  assert.equal(p.in, 'query');
  assert.equal(p.required, true);
  assert.match(p.description, /up to 80/);
  const re = new RegExp(p.schema.pattern);
  assert.ok(re.test('SWR123,DLH4AB') && re.test('swr123'), "re.test('SWR123,DLH4AB') && re.test('swr123')");
  assert.ok(!re.test('SWR123,,X') && !re.test('SWR-1'), "!re.test('SWR123,,X') && !re.test('SWR-1')");
});

test('every $ref resolves inside the document and every response schema names a file in schemas/', () => {
  const refs: string[] = [];
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) k === '$ref' ? refs.push(x as string) : walk(x);
  };
  walk(doc);
  assert.ok(refs.length > 100, 'refs.length > 100');
  for (const r of refs) {
    assert.match(r, /^#\//, `${r} must be local to the document`);
    const target = r
      .slice(2)
      .split('/')
      .reduce<any>((o, k) => o?.[k.replace(/~1/g, '/').replace(/~0/g, '~')], doc);
    assert.ok(target !== undefined, `${r} does not resolve`);
  }
  const files = loadSchemas();
  for (const op of OPERATIONS) if ('schema' in op.response) assert.ok(files.has(op.response.schema), `${op.path}: schemas/${op.response.schema}.schema.json`);
  for (const name of Object.keys(doc.components.schemas))
    assert.ok(!('$id' in doc.components.schemas[name]), `${name} keeps no $id (it would move the base URI)`);
});

test('each response lists 200, 405, 429, 500 and its own error statuses; errors use the section-7 schema with Retry-After on 429/503', () => {
  const trace = doc.paths['/v1/trace/{hex}'].get.responses;
  // the trace is live data: a stale snapshot answers 503 (spec 1, rule 5); so does a serving
  // worker's wait for the main thread run out (server/serve/forward.ts)
  assert.deepEqual(Object.keys(trace), ['200', '404', '405', '422', '429', '500', '503']);
  assert.deepEqual(trace['503'].content['application/json'].schema.properties.error.enum, ['stale_snapshot', 'upstream_unavailable']);
  assert.match(trace['503'].description, /upstream_unavailable/);
  assert.match(trace['500'].description, /internal_error/);
  assert.ok(trace['405'].headers.Allow, "trace['405'].headers.Allow");
  assert.match(trace['404'].description, /not_found.*not_observed/);
  const now = doc.paths['/v1/now'].get.responses;
  assert.deepEqual(Object.keys(now), ['200', '405', '429', '500', '503']);
  assert.ok(
    now['503'].headers['Retry-After'] && now['429'].headers['Retry-After'] && !trace['404'].headers['Retry-After'],
    "now['503'].headers['Retry-After'] && now['429'].headers['Retry-After'] && !trace['404'].headers['Retry-After']",
  );
  for (const [path, item] of Object.entries<any>(doc.paths)) {
    const limited = POLICIES[item.get['x-rate-limit'].bucket]!.limit > 0;
    for (const [status, r] of Object.entries<any>(item.get.responses)) {
      // a 405 is refused before any bucket is counted, and the 101 of an upgrade carries the
      // handshake only: no RateLimit headers on them, nor on any answer of an unlimited bucket
      const rate = limited && status !== '405' && status !== '101';
      for (const h of ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset']) assert.equal(Boolean(r.headers[h]), rate, `${path} ${status} ${h}`);
      assert.equal(Boolean(r.headers['Cache-Control']), status !== '101', `${path} ${status} Cache-Control`);
      if (status === '200' || status === '101' || status === '206' || status === '304') continue;
      const media = r.content['application/json'];
      assert.equal(media.schema.$ref, '#/components/schemas/error');
      assert.deepEqual(problems('error', media.example), [], `${path} ${status} example is a section-7 error`);
      assert.ok(media.schema.properties.error.enum.includes(media.example.error), `${path} ${status}: the example's code is one of the status's codes`);
    }
  }
});

test('the probes are outside the limits: no RateLimit headers and no 429 on /healthz, /readyz, /metrics', () => {
  for (const path of ['/healthz', '/readyz', '/metrics']) {
    const responses = doc.paths[path].get.responses;
    assert.ok(!responses['429'], `${path} lists no 429`);
    for (const [status, r] of Object.entries<any>(responses)) {
      assert.ok(!r.headers['RateLimit-Limit'] && !r.headers['RateLimit-Remaining'], `${path} ${status}`);
    }
  }
  // 503 on /healthz: upstream_unavailable, asked on a serving worker whose wait for the main thread ran out
  assert.deepEqual(Object.keys(doc.paths['/healthz'].get.responses), ['200', '405', '500', '503']);
  assert.match(doc.paths['/healthz'].get.responses['503'].description, /upstream_unavailable/);
  assert.deepEqual(Object.keys(doc.paths['/readyz'].get.responses), ['200', '405', '500', '503']);
});

test('a server without rate limits (--no-rate-limits) is described without RateLimit headers and 429s', () => {
  const open = buildOpenApi({ rateLimits: false }) as any;
  for (const [path, item] of Object.entries<any>(open.paths)) {
    assert.ok(!item.get.responses['429'], `${path} 429`);
    for (const r of Object.values<any>(item.get.responses)) assert.ok(!r.headers?.['RateLimit-Limit'], path);
    assert.equal(item.get['x-rate-limit'].limit, 0, path);
  }
  assert.ok(doc.paths['/v1/now'].get.responses['429'], 'the default document has them');
});

test('304, 206 and 416 are described where the server sends them, each with its headers', () => {
  const etagged = Object.entries<any>(doc.paths)
    .filter(([, item]) => item.get.responses['304'])
    .map(([p]) => p);
  const ops = OPERATIONS.filter((o) => o.etag).map((o) => o.path);
  assert.deepEqual(etagged.sort(), [...ops].sort());
  // every history document and every researchers' file
  assert.ok(ops.includes('/v1/airframes/{hex}') && ops.includes('/v1/bundles/tables/{table}') && !ops.includes('/v1/now'), ops.join(' '));
  for (const p of etagged) {
    const r = doc.paths[p].get.responses;
    assert.equal(r['200'].headers.ETag.required, true, p);
    assert.equal(r['304'].headers.ETag.required, true, p);
    assert.ok(!r['304'].content, `${p}: a 304 has no body`);
  }
  const file = doc.paths['/v1/bundles/log/{partition}/legs.parquet'].get.responses;
  assert.ok(file['206'].headers['Content-Range'].required && file['416'].headers['Content-Range'].required, 'Content-Range on 206 and 416');
  assert.ok(!file['200'].headers['Content-Encoding'], 'a file goes out as stored, never re-encoded');
  assert.deepEqual(Object.keys(doc.paths['/v1/bundles/{doc}'].get.responses), ['200', '206', '304', '404', '405', '416', '422', '429', '500', '503']);
});

test('every path describes its CORS preflight: 204 with the Access-Control headers, outside the limits', () => {
  for (const [path, item] of Object.entries<any>(doc.paths)) {
    const op = item.options;
    assert.deepEqual(op.tags, ['cors'], path);
    const r = op.responses['204'];
    for (const h of ['Access-Control-Allow-Methods', 'Access-Control-Allow-Headers', 'Access-Control-Max-Age', 'Allow', 'Cache-Control']) {
      assert.equal(r.headers[h]?.required, true, `${path} ${h}`);
    }
    assert.ok(!r.headers['RateLimit-Limit'] && !r.content, path);
    const params = item.get.parameters?.filter((x: any) => x.in === 'path') ?? [];
    assert.deepEqual(op.parameters ?? [], params, `${path}: the path's parameters`);
    assert.deepEqual(Object.keys(op.responses), params.length ? ['204', '422'] : ['204'], path);
  }
  assert.ok(
    doc.tags.some((t: any) => t.name === 'cors'),
    'the cors tag is described',
  );
});

test('no jsonSchemaDialect other than the default: Swagger UI warns on any other value (the /docs warning box)', () => {
  assert.ok(!('jsonSchemaDialect' in doc) || doc.jsonSchemaDialect === 'https://spec.openapis.org/oas/3.1/dialect/base', String(doc.jsonSchemaDialect));
});

test("airport.today is described as the board for the airport's local day, not as of the build", () => {
  const today = doc.components.schemas.airport.properties.today.description as string;
  assert.match(today, /local day/);
  assert.doesNotMatch(today, /at build time/);
});

test('the stream is described as an upgrade: 101 naming its message schema, 426 for a plain GET, 422 and 429 before the upgrade', () => {
  const op = doc.paths['/v1/stream'].get;
  assert.deepEqual(Object.keys(op.responses), ['101', '405', '422', '426', '429', '500']);
  assert.equal(op['x-websocket-messages'].$ref, '#/components/schemas/stream-message');
  assert.equal(op.responses['101'].content['application/json'].schema.$ref, '#/components/schemas/stream-message');
  assert.ok(doc.components.schemas['stream-message.diff'], 'the message kinds travel with it');
  assert.equal(op.parameters[0].name, 'bbox');
  assert.equal(op['x-rate-limit'].bucket, 'stream');
});

test('limits and cache lifetimes come from schemas/policy.ts by bucket', () => {
  for (const op of OPERATIONS) {
    const o = doc.paths[op.path].get;
    assert.deepEqual(o['x-rate-limit'], { bucket: op.bucket, limit: POLICIES[op.bucket]!.limit, window_s: 600 });
    assert.equal(o['x-cache-control'], POLICIES[op.bucket]!.cache);
  }
  assert.equal(doc.paths['/v1/airports/{code}'].get['x-rate-limit'].limit, 120, 'spec 8: airport 120 per 600 s');
});

test('$defs are hoisted as <schema>.<def> and cross-file $refs point at components', () => {
  const schemas = new Map<string, Schema>([
    ['a', { $id: 'a.json', type: 'object', properties: { b: { $ref: 'b.json' }, c: { $ref: '#/$defs/c' } }, $defs: { c: { type: 'string' } } }],
    ['b', { $id: 'b.json', type: 'integer' }],
    ['error', { $id: 'error.json', type: 'object' }],
    ['unused', { $id: 'unused.json' }],
  ]);
  const op: Operation = { ...OPERATIONS[0]!, bucket: 'now', response: { schema: 'a' } };
  const out = buildOpenApi({ operations: [op], schemas }) as any;
  assert.deepEqual(Object.keys(out.components.schemas), ['a', 'a.c', 'b', 'error']);
  assert.deepEqual(out.components.schemas.a.properties, { b: { $ref: '#/components/schemas/b' }, c: { $ref: '#/components/schemas/a.c' } });
});

test('a missing schema, a missing bucket, a duplicate path or a deep $ref fails the build with the fix', () => {
  const base = OPERATIONS[0]!;
  assert.throws(() => buildOpenApi({ operations: [{ ...base, response: { schema: 'nope' } }] }), /add schemas\/nope\.schema\.json/);
  assert.throws(() => buildOpenApi({ operations: [{ ...base, bucket: 'nope' }] }), /no bucket nope in schemas\/policy\.ts/);
  assert.throws(() => buildOpenApi({ operations: [base, base] }), /lists \/v1\/now twice/);
  const deep = new Map<string, Schema>([
    ['now', { $id: 'now.json', properties: { x: { $ref: '#/properties/y' } } }],
    ['error', { $id: 'error.json' }],
  ]);
  assert.throws(() => buildOpenApi({ operations: [base], schemas: deep }), /only whole schemas and \$defs/);
});

// the server's own route table (server/app.ts), built over stub services: route modules read
// their dependencies per request, never when built
function allRoutes(): Route[] {
  return routesOf({ stations: {} } as unknown as Services, loadServerConfig([], {}).config);
}

test('the operations table and the route modules agree: the same paths, each in the same bucket', () => {
  const routes = new Map(
    allRoutes()
      .filter((r) => !r.pattern.endsWith('*'))
      .map((r) => [r.pattern, r.bucket]),
  );
  const ops = new Map(OPERATIONS.map((o) => [o.path.replace(/\{(\w+)\}/g, ':$1'), o.bucket]));
  assert.deepEqual([...ops.keys()].sort(), [...routes.keys()].sort());
  for (const [pattern, bucket] of ops) assert.equal(routes.get(pattern), bucket, `${pattern} bucket`);
});
