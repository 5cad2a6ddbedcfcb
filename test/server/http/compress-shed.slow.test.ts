// a saturated serving thread stops compressing answers made for one request and sends them as they
// are; shared answers keep their prepared gzip; compression comes back once the thread has time.
// the class's rule on given utilisations, then the real uWebSockets.js server, saturated for real.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { gzipSync } from 'node:zlib';
import { CompressionShed, MAX_PENDING_GZIP } from '../../../server/http/compress-shed.ts';
import { serve } from '../../helpers/http.ts';
import { reply, type Route } from '../../../server/http/types.ts';

test('sheds after two saturated windows in a row, not after one, and resumes 20 points below', () => {
  const s = new CompressionShed(0.9);
  s.observe(0.95);
  assert.equal(s.shedding, false, 'one busy window (a collection, a burst) is not saturation');
  s.observe(0.5);
  s.observe(0.95);
  assert.equal(s.shedding, false, 'the busy windows must be in a row');
  s.observe(0.9);
  assert.equal(s.shedding, true);
  s.observe(0.75);
  assert.equal(s.shedding, true, 'within the hysteresis it stays on');
  s.observe(0.69);
  assert.equal(s.shedding, false);
  assert.equal(s.allow(), true);
  assert.equal(s.shedAnswers, 0);
});

test('sheds while too many gzips wait on the pool, counting the answers it sends plain', async () => {
  const s = new CompressionShed(0.9);
  const gates: (() => void)[] = [];
  const jobs = Array.from({ length: MAX_PENDING_GZIP }, () => s.track(new Promise<void>((r) => gates.push(r))));
  assert.equal(s.shedding, true);
  assert.equal(s.allow(), false);
  assert.equal(s.shedAnswers, 1);
  gates.pop()!();
  await jobs.at(-1);
  assert.equal(s.shedding, false, 'one fewer in flight');
  for (const g of gates) g();
  await Promise.all(jobs);
});

test('0 never sheds, whatever the load', () => {
  const s = new CompressionShed(0);
  for (let i = 0; i < 5; i++) s.observe(1);
  for (let i = 0; i < MAX_PENDING_GZIP * 2; i++) s.track(new Promise<void>(() => {}));
  assert.equal(s.shedding, false);
  assert.equal(s.allow(), true);
});

const BIG = { list: Array.from({ length: 400 }, (_, i) => ({ hex: i.toString(16).padStart(6, '0'), alt_baro: 30000 + i })) };
const SHARED = { shared: Array.from({ length: 400 }, (_, i) => i) };
const sharedText = JSON.stringify(SHARED);
const routes: Route[] = [
  // made for this request: compressed per request
  { pattern: '/v1/aircraft', bucket: 'aircraft', handler: () => reply(BIG) },
  // made once and shared: its gzip is prepared
  { pattern: '/v1/now', bucket: 'now', handler: () => ({ body: { raw: Buffer.from(sharedText), gz: gzipSync(sharedText) } }) },
  // work that holds the thread (the utilisation counts it as busy)
  {
    pattern: '/v1/airports/:code',
    bucket: 'airport',
    handler: () => {
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 250);
      return reply({ done: true });
    },
  },
];

test('the real server: saturated, a per-request answer goes out plain and a shared one keeps its gzip; idle again, gzip comes back', {
  timeout: 30_000,
}, async (t) => {
  const server = await serve(routes, { rateLimits: false, shedCompressionAt: 0.9 });
  t.after(() => server.close());
  const gz = { 'accept-encoding': 'gzip, deflate, br' };
  const before = await server.get('/v1/aircraft', { headers: gz });
  assert.equal(before.headers['content-encoding'], 'gzip', 'an idle thread compresses');
  // about 2.5 s of back-to-back work: four watch windows of 0.5 s, each busy nearly all the time
  for (const end = Date.now() + 2500; Date.now() < end; ) await server.get('/v1/airports/ZRH');
  const shed = await server.get('/v1/aircraft', { headers: gz });
  assert.equal(shed.headers['content-encoding'], undefined, 'saturated: sent as it is');
  assert.deepEqual(JSON.parse(shed.text), BIG);
  assert.equal(shed.headers.vary, 'Accept-Encoding');
  const shared = await server.get('/v1/now', { headers: gz });
  assert.equal(shared.headers['content-encoding'], 'gzip', 'a prepared gzip costs nothing: never shed');
  assert.equal(shared.text, sharedText);
  // idle: the next full window is far below the point
  await new Promise((r) => setTimeout(r, 1500));
  const after = await server.get('/v1/aircraft', { headers: gz });
  assert.equal(after.headers['content-encoding'], 'gzip', 'compression resumed');
  assert.deepEqual(JSON.parse(after.text), BIG);
});

test('without the option the server compresses even when saturated', { timeout: 30_000 }, async (t) => {
  const server = await serve(routes, { rateLimits: false });
  t.after(() => server.close());
  for (const end = Date.now() + 1500; Date.now() < end; ) await server.get('/v1/airports/ZRH');
  const got = await server.get('/v1/aircraft', { headers: { 'accept-encoding': 'gzip' } });
  assert.equal(got.headers['content-encoding'], 'gzip');
});
