// property-based fuzzing of every route of the real app (fast-check, seeded): paths built from
// the operations table with hostile parameters, broken percent-encodings, queries, methods and
// headers. whatever comes in: no 5xx, every error in the section-7 shape with no-store, no path or
// stack in any body. FUZZ_RUNS=100000 for the long run here; bench/fuzz.ts runs 100,000 over both serving threads
// (docs/performance.md has its figures).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:http';
import fc from 'fast-check';
import { CODES, headers, method, path, query } from '../helpers/fuzz-cases.ts';
import { startApp, type RunningApp } from './app.ts';

const RUNS = Number(process.env.FUZZ_RUNS ?? 2000);
const SEED = Number(process.env.FUZZ_SEED ?? 20261124);

let app: RunningApp;
before(async () => {
  app = await startApp();
});
after(() => app?.stop());

function send(
  m: string,
  p: string,
  h: Record<string, string>,
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
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
        assert.ok(
          !/\n\s+at /.test(r.body) && !r.body.includes('node_modules') && !r.body.includes('/work/'),
          `a stack or a file path in ${r.body.slice(0, 300)}`,
        );
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
