// property-based fuzzing of every route of the real app (fast-check, seeded): paths built from
// the operations table with hostile parameters, broken percent-encodings, queries, methods and
// headers. whatever comes in: no 5xx, every error in the section-7 shape with no-store, no path or
// stack in any body. FUZZ_RUNS=100000 for the long run (its figure: docs/performance.md, "Reliability").
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:http';
import fc from 'fast-check';
import { OPERATIONS } from '../../schemas/operations.ts';
import { startApp, type RunningApp } from './app.ts';

const RUNS = Number(process.env.FUZZ_RUNS ?? 2000);
const SEED = Number(process.env.FUZZ_SEED ?? 20261124);
const CODES = new Set(['not_found', 'not_observed', 'invalid_request', 'rate_limited', 'stale_snapshot', 'artifact_unavailable', 'upstream_unavailable', 'internal_error']);

let app: RunningApp;
before(async () => {
  app = await startApp();
});
after(() => app?.stop());

// a parameter value: plausible ones, hostile ones, and arbitrary unicode, percent-encoded as a client would send it
const param = fc.oneof(
  fc.constantFrom('4b1814', '4B1814', 'ZRH', 'LSZH', 'SWR100', 'EZY012', 'star-alliance', 'A320', 'SWR', 'daily', 'x.tar.gz', '47.5', '8.5', '250', '-90', '1e308', 'NaN'),
  fc.constantFrom('..', '.', '%2e%2e', '%00', '%zz', '%', '%%', '%C0%AF', '%ff', '%2F', '\u0000', 'a'.repeat(5000), '~abc12', '-0', 'Infinity', '0x1f', ' '),
  fc.string({ unit: 'binary', maxLength: 40 }),
);
// a hostile encoding (starting with %) goes as it is; anything else byte by byte, as a client would encode it
const SAFE = /[A-Za-z0-9\-._~]/;
const enc = (s: string) =>
  s.startsWith('%') && s.length <= 6 ? s : [...Buffer.from(s, 'utf8')].map((b) => (SAFE.test(String.fromCharCode(b)) ? String.fromCharCode(b) : `%${b.toString(16).toUpperCase().padStart(2, '0')}`)).join('');
const path = fc.oneof(
  { weight: 8, arbitrary: fc.tuple(fc.constantFrom(...OPERATIONS.map((o) => o.path)), fc.array(param, { minLength: 4, maxLength: 4 })).map(([p, vals]) => {
    let i = 0;
    return p.replace(/\{[a-z]+\}/g, () => enc(vals[i++]!));
  }) },
  { weight: 1, arbitrary: fc.array(param, { minLength: 1, maxLength: 6 }).map((segs) => `/${segs.map(enc).join('/')}`) },
  { weight: 1, arbitrary: fc.constantFrom('/', '//', '/v1', '/v1/', '/v2/point', '/v1/stations/', '/openapi.json/', '/docs/../../etc/passwd', '/v1/airframes/4b1814.gz') },
);
const query = fc.oneof(
  fc.constant(''),
  fc.tuple(fc.constantFrom('bbox', 'callsigns', 'x', ''), param).map(([k, v]) => `?${k}=${enc(v)}`),
  fc.constantFrom('?bbox=1,2,3', '?bbox=5,45,15,55', '?bbox=190,0,200,1', '?callsigns=' + 'A1,'.repeat(100), '?bbox=1,2,3,4&bbox=1,2,3,4', '?%zz', '?&&&', '?callsigns=SWR100,EZY012'),
);
const method = fc.constantFrom('GET', 'GET', 'GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'OPTIONS', 'PATCH');
const headers = fc.record({
  'accept-encoding': fc.constantFrom('gzip', 'gzip, deflate, br', 'identity', 'gzip;q=0', '*', 'br', ''),
  'x-forwarded-for': fc.constantFrom('1.2.3.4', 'garbage', '::1', '', '1.2.3.4, 999.1.1.1'),
  'x-filler': fc.string({ maxLength: 2000 }).map((s) => s.replace(/[^\x20-\x7e]/g, 'x')),
});

function send(m: string, p: string, h: Record<string, string>): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(`${app.base}${p}`, { method: m, headers: h, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('latin1') }));
    });
    req.setTimeout(10_000, () => req.destroy(new Error(`no answer to ${m} ${p} in 10 s`)));
    req.on('error', reject);
    req.end();
  });
}

test(`${RUNS} fuzzed requests over every route: no 5xx, section-7 errors with no-store, no path or stack echoed`, { timeout: 600_000 }, async () => {
  let n = 0;
  const statuses = new Map<number, number>();
  await fc.assert(
    fc.asyncProperty(method, path, query, headers, async (m, p, q, h) => {
      const r = await send(m, p + q, h);
      n++;
      statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
      assert.ok(r.status >= 200 && r.status < 500, `${m} ${p}${q}: ${r.status} ${r.body.slice(0, 200)}`);
      // 204: a CORS preflight (OPTIONS), answered and cacheable
      if (r.status !== 200 && r.status !== 204 && r.status !== 304) {
        assert.equal(r.headers['cache-control'], 'no-store', `${m} ${p}: ${r.status} without no-store`);
        if (m !== 'HEAD') {
          const body = JSON.parse(r.body);
          assert.deepEqual(Object.keys(body).sort(), ['detail', 'error'], `${m} ${p}: ${r.body.slice(0, 200)}`);
          assert.ok(CODES.has(body.error) && typeof body.detail === 'string', r.body);
        }
      }
      if (m !== 'HEAD' && r.status !== 200 && r.status !== 204) {
        assert.ok(!/\n\s+at /.test(r.body) && !r.body.includes('node_modules') && !r.body.includes('/work/'), `a stack or a file path in ${r.body.slice(0, 300)}`);
        if (p.length > 24) assert.ok(!r.body.includes(p), `the path came back in ${r.body.slice(0, 300)}`);
      }
    }),
    { numRuns: RUNS, seed: SEED, endOnFailure: true },
  );
  assert.equal(n, RUNS);
  // the cases reach the routes, not only the router's 404
  assert.ok((statuses.get(200) ?? 0) > RUNS / 20 && (statuses.get(422) ?? 0) > RUNS / 20, JSON.stringify([...statuses]));
  if (process.env.FUZZ_RUNS) console.log(`fuzz: ${n} requests, statuses ${JSON.stringify(Object.fromEntries([...statuses].sort()))}`);
  assert.ok(!app.logs.some((l) => l.startsWith('error ')), `no handler fault was logged: ${app.logs.filter((l) => l.startsWith('error ')).join('\n')}`);
});
