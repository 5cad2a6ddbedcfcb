// the two readings of the contract (schemas/tolerant.ts): /openapi.json publishes the schemas of
// stable operations open to added fields (spec 9), the strict variant keeps them closed, and the
// build's validation (schemas/index.ts, build/publish/writer.ts) stays strict.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildOpenApi } from '../../schemas/openapi.ts';
import { problems } from '../../schemas/index.ts';
import { OPERATIONS } from '../../schemas/operations.ts';
import { reachable, refsIn, tolerant } from '../../schemas/tolerant.ts';
import { OpenApiCheck } from '../helpers/openapi-check.ts';

const published = buildOpenApi() as any;
const strict = buildOpenApi({ variant: 'strict' }) as any;
const open = new OpenApiCheck(published);
const closed = new OpenApiCheck(strict);

const TRACE = {
  hex: '4b1814',
  points: [
    [1795312389, 47.45, 8.56, 'ground', null],
    [1795312399, 47.46, 8.57, 3000, 161.5],
  ],
  departure: { at: 1795312389, lat: 47.45, lon: 8.56, alt_ft: 1400 },
  arrival: null,
};
const AIRCRAFT = {
  generated_at: 1795312389,
  total: 1,
  with_position: 1,
  aircraft: [{ hex: '4b1814', flight: 'SWR100', lat: 47.45, lon: 8.56, alt_baro: 3000 }],
};

test('a stable answer with an added field, at the top or nested, matches the published document and not the strict one', () => {
  const cases: [string, unknown][] = [
    ['/v1/trace/{hex}', TRACE],
    ['/v1/trace/{hex}', { ...TRACE, new_field: 1 }],
    ['/v1/trace/{hex}', { ...TRACE, departure: { ...TRACE.departure, runway: '16' } }],
    // a trace point may gain trailing fields, as readsb's do
    ['/v1/trace/{hex}', { ...TRACE, points: [[1795312389, 47.45, 8.56, 'ground', null, 'adsb']] }],
    ['/v1/aircraft', { ...AIRCRAFT, aircraft: [{ ...AIRCRAFT.aircraft[0], nav_qnh: 1013.6 }] }],
    ['/v1/aircraft', { ...AIRCRAFT, cursor: 'x' }],
  ];
  const [valid, ...added] = cases;
  assert.deepEqual(open.bodyProblems(valid![0], 'get', 200, valid![1]), []);
  assert.deepEqual(closed.bodyProblems(valid![0], 'get', 200, valid![1]), []);
  for (const [path, body] of added) {
    assert.deepEqual(open.bodyProblems(path, 'get', 200, body), [], `${path} ${JSON.stringify(body).slice(0, 80)}: published`);
    assert.notDeepEqual(closed.bodyProblems(path, 'get', 200, body), [], `${path}: strict refuses it`);
  }
  // tolerant is not lax: a wrong type or a missing field still fails the published document
  assert.notDeepEqual(open.bodyProblems('/v1/trace/{hex}', 'get', 200, { ...TRACE, hex: 12 }), []);
  assert.notDeepEqual(open.bodyProblems('/v1/trace/{hex}', 'get', 200, { hex: '4b1814', points: TRACE.points }), []);
  assert.notDeepEqual(open.bodyProblems('/v1/trace/{hex}', 'get', 200, { ...TRACE, points: [[1, 2, 3, 4]] }), [], 'a point still has its five fields');
  const withDst = { ...AIRCRAFT, aircraft: [{ hex: '4b1814', dst: 2 }] };
  assert.notDeepEqual(open.bodyProblems('/v1/aircraft', 'get', 200, withDst), [], 'dst stays forbidden in /v1/aircraft');
  // errors are answered by stable operations too
  assert.deepEqual(open.bodyProblems('/v1/now', 'get', 503, { error: 'stale_snapshot', detail: 'old', retry_hint: 5 }), []);
  assert.notDeepEqual(closed.bodyProblems('/v1/now', 'get', 503, { error: 'stale_snapshot', detail: 'old', retry_hint: 5 }), []);
  assert.notDeepEqual(open.bodyProblems('/v1/now', 'get', 503, { error: 'not_found', detail: 'x' }), [], 'a 503 of /v1/now is stale_snapshot only');
});

test('every schema a stable operation reaches is open in the published document; those it does not reach stay as strict', () => {
  const stable = OPERATIONS.filter((o) => o.stability === 'stable');
  const names = reachable(
    stable.flatMap((o) => [...refsIn(published.paths[o.path].get)]),
    published.components.schemas,
  );
  for (const n of ['now', 'aircraft-list', 'aircraft-record', 'trace', 'point', 'airframe', 'error']) assert.ok(names.has(n), n);
  const closedAt = (v: unknown): boolean => JSON.stringify(v).includes('"additionalProperties":false');
  for (const name of names) assert.ok(!closedAt(published.components.schemas[name]), `${name} is open`);
  assert.ok(
    [...names].some((n) => closedAt(strict.components.schemas[n])),
    'the strict variant has them closed',
  );
  // the airport (candidate) is reached by no stable operation: published as strict as its file
  assert.ok(!names.has('airport'), 'no stable operation reaches the airport');
  assert.deepEqual(published.components.schemas.airport, strict.components.schemas.airport);
  assert.ok(closedAt(published.components.schemas.airport), 'the airport stays closed');
  // one source: apart from the opening, the two documents are the same
  const opened = structuredClone(strict);
  for (const name of names) opened.components.schemas[name] = tolerant(opened.components.schemas[name]);
  assert.deepEqual(opened, published);
});

test('tolerant drops only the closing keywords, and never a property that happens to be named like one', () => {
  const s = {
    type: 'object',
    additionalProperties: false,
    required: ['maxItems'],
    properties: { maxItems: { type: 'integer' }, additionalProperties: { type: 'boolean' }, m: { type: 'object', additionalProperties: { type: 'string' } } },
    $defs: { t: { type: 'array', prefixItems: [{ type: 'number' }, { type: 'number' }], minItems: 2, maxItems: 2, items: false } },
    enum: [{ additionalProperties: false }],
  };
  assert.deepEqual(tolerant(s), {
    type: 'object',
    required: ['maxItems'],
    properties: { maxItems: { type: 'integer' }, additionalProperties: { type: 'boolean' }, m: { type: 'object', additionalProperties: { type: 'string' } } },
    $defs: { t: { type: 'array', prefixItems: [{ type: 'number' }, { type: 'number' }], minItems: 2 } },
    enum: [{ additionalProperties: false }],
  });
  // a plain array's maxItems is a limit, not a tuple's closing: kept
  assert.deepEqual(tolerant({ type: 'array', maxItems: 200 }), { type: 'array', maxItems: 200 });
});

test('the build validates artifacts against the strict schemas: an added field fails schemas/index.ts', () => {
  assert.deepEqual(problems('trace', TRACE), []);
  assert.match(problems('trace', { ...TRACE, new_field: 1 }).join(' '), /additionalProperties|must NOT have additional properties/);
  assert.notDeepEqual(problems('aircraft-list', { ...AIRCRAFT, aircraft: [{ ...AIRCRAFT.aircraft[0], nav_qnh: 1 }] }), []);
});
