// the HTTP boundary: routing, methods, error shape, gzip negotiation, rate limits, client IP.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serve } from '../../helpers/http.ts';
import { reply, type Route } from '../../../server/http/types.ts';
import { invalidRequest, notObserved } from '../../../lib/errors.ts';
import { ClientIp, normalizeIp, rateKeyOf } from '../../../server/http/client-ip.ts';
import { RateLimiter } from '../../../server/http/ratelimit.ts';
import { acceptedCodings, acceptsGzip } from '../../../server/http/respond.ts';
import { Router } from '../../../server/http/router.ts';

const T0 = Date.UTC(2026, 10, 22, 12, 0, 0);
const big = { items: Array.from({ length: 500 }, (_, i) => ({ i, name: `item-${i}` })) };
const routes: Route[] = [
  { pattern: '/v1/now', bucket: 'now', handler: () => reply({ ok: true }) },
  { pattern: '/v1/aircraft', bucket: 'aircraft', handler: () => reply(big) },
  {
    pattern: '/v1/trace/:hex',
    bucket: 'trace',
    handler: (r) => {
      if (r.params.hex === 'bad') throw invalidRequest('bad hex');
      throw notObserved(`nothing heard from ${r.params.hex}`);
    },
  },
  { pattern: '/v1/airports/:code', bucket: 'airport', handler: () => reply({ history: true }) },
  {
    pattern: '/v1/stations',
    bucket: 'stations',
    handler: () => {
      throw new TypeError('boom');
    },
  },
];

test('unknown paths and non-GET methods answer in the section-7 shape with no-store', async () => {
  const s = await serve(routes, { clock: () => T0 });
  try {
    const a = await s.get('/nope');
    assert.equal(a.status, 404);
    assert.equal(a.json.error, 'not_found');
    const b = await s.get('/v1/now', { method: 'POST' });
    assert.equal(b.status, 405);
    assert.equal(b.json.error, 'invalid_request');
    assert.equal(b.headers['allow'], 'GET, HEAD');
    const c = await s.get('/v1/trace/%E0%A4%A');
    assert.equal(c.status, 422);
  } finally {
    s.close();
  }
});

test('typed errors map to their status; unknown errors become a logged 500 without leaking the message', async () => {
  const logged: string[] = [];
  const s = await serve(routes, { clock: () => T0, log: (l) => logged.push(l) });
  try {
    assert.equal((await s.get('/v1/trace/bad')).status, 422);
    const nf = await s.get('/v1/trace/abc123');
    assert.equal(nf.status, 404);
    assert.equal(nf.json.error, 'not_observed');
    const boom = await s.get('/v1/stations');
    assert.equal(boom.status, 500);
    // our own fault is not an outside source failing: internal_error, never upstream_unavailable
    assert.deepEqual(boom.json, { error: 'internal_error', detail: 'an internal fault; the service logged it' });
    assert.equal(boom.headers['cache-control'], 'no-store');
    assert.ok(!boom.text.includes('boom'), "!boom.text.includes('boom')");
    assert.ok(
      logged.some((l) => l.includes('boom')),
      "logged.some((l) => l.includes('boom'))",
    );
    const ok = await s.get('/v1/airports/ZRH');
    assert.equal(ok.status, 200);
    assert.deepEqual(ok.json, { history: true });
    assert.equal(ok.headers['cache-control'], 'public, max-age=3600, s-maxage=3600');
  } finally {
    s.close();
  }
});

test('large bodies are gzipped only when the client accepts gzip', async () => {
  const s = await serve(routes, { clock: () => T0 });
  try {
    const plain = await s.get('/v1/aircraft');
    assert.equal(plain.headers['content-encoding'], undefined);
    const gz = await s.get('/v1/aircraft', { headers: { 'accept-encoding': 'br, gzip;q=0.8' } });
    assert.equal(gz.headers['content-encoding'], 'gzip');
    assert.ok(gz.wireBytes < plain.wireBytes / 3, 'gzip shrinks the body');
    assert.deepEqual(gz.json, plain.json);
    const refused = await s.get('/v1/aircraft', { headers: { 'accept-encoding': 'gzip;q=0' } });
    assert.equal(refused.headers['content-encoding'], undefined);
    assert.equal(plain.headers['cache-control'], 'public, max-age=5, s-maxage=10');
  } finally {
    s.close();
  }
});

test('rate limit: headers on every response, 429 with Retry-After past the bucket limit, buckets count apart', async () => {
  const s = await serve(routes, { clock: () => T0 });
  try {
    let last;
    for (let i = 0; i < 120; i++) last = await s.get('/v1/airports/ZRH');
    assert.equal(last!.headers['ratelimit-limit'], '120');
    assert.equal(last!.headers['ratelimit-remaining'], '0');
    const over = await s.get('/v1/airports/ZRH');
    assert.equal(over.status, 429);
    assert.equal(over.json.error, 'rate_limited');
    assert.equal(over.headers['retry-after'], '600');
    assert.equal(over.headers['ratelimit-reset'], '600');
    const other = await s.get('/v1/now');
    assert.equal(other.status, 200);
    assert.equal(other.headers['ratelimit-remaining'], '599');
  } finally {
    s.close();
  }
});

test('rate limiter windows reset after 600 s and memory stays bounded under many IPs', () => {
  const rl = new RateLimiter(600, { maxEntries: 1000 });
  assert.equal(rl.hit('now', '1.1.1.1', 2, T0).remaining, 1);
  assert.equal(rl.hit('now', '1.1.1.1', 2, T0 + 1000).remaining, 0);
  assert.equal(rl.hit('now', '1.1.1.1', 2, T0 + 2000).allowed, false);
  assert.equal(rl.hit('now', '1.1.1.1', 2, T0 + 600_000).allowed, true);
  for (let i = 0; i < 50_000; i++) rl.hit('now', `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`, 2, T0 + 600_000 + i);
  assert.ok(rl.size <= 1000, `size ${rl.size} must stay within the cap`);
});

test('a flood of 250,000 new addresses never hands a client that spent its budget a fresh one', () => {
  const rl = new RateLimiter(600, { maxEntries: 200_000 });
  const limit = 300;
  // the client spends its whole budget first
  for (let i = 0; i < limit; i++) assert.equal(rl.hit('aircraft', '198.51.100.7', limit, T0 + i).allowed, true);
  assert.equal(rl.hit('aircraft', '198.51.100.7', limit, T0 + 400).allowed, false);
  // then 250,000 distinct addresses, two requests each: soon no window in the table can go
  for (let i = 0; i < 250_000; i++) {
    const ip = `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;
    rl.hit('aircraft', ip, limit, T0 + 1000);
    rl.hit('aircraft', ip, limit, T0 + 1000);
  }
  assert.ok(rl.size <= 200_000, `memory stays bounded: ${rl.size}`);
  assert.equal(rl.hit('aircraft', '198.51.100.7', limit, T0 + 2000).allowed, false, 'still limited within its window');
  assert.ok(rl.overflowHits > 0, 'newcomers were counted in shared slots once nothing could go');
  // its window ends: a fresh budget then, and only then
  assert.equal(rl.hit('aircraft', '198.51.100.7', limit, T0 + 600_000).allowed, true);
});

test('IPv6 clients count by their /64; IPv4 by the address', () => {
  assert.equal(rateKeyOf('2001:db8:1:2:aaaa::1'), '2001:db8:1:2::/64');
  assert.equal(rateKeyOf('2001:db8:1:2:ffff:ffff:ffff:ffff'), '2001:db8:1:2::/64');
  assert.equal(rateKeyOf('2001:db8::1'), '2001:db8:0:0::/64');
  assert.equal(rateKeyOf('::1'), '0:0:0:0::/64');
  assert.equal(rateKeyOf('198.51.100.7'), '198.51.100.7');
  const rl = new RateLimiter(600);
  rl.hit('now', rateKeyOf('2001:db8:1:2::a'), 1, T0);
  assert.equal(rl.hit('now', rateKeyOf('2001:db8:1:2::b'), 1, T0).allowed, false, 'a new address in the same /64 shares the budget');
  assert.equal(rl.hit('now', rateKeyOf('2001:db8:1:3::a'), 1, T0).allowed, true);
});

test('client IP: the peer, unless it is a trusted proxy; then the right-most untrusted X-Forwarded-For hop', () => {
  const c = new ClientIp(['127.0.0.1', '10.0.0.0/8', '::1']);
  assert.equal(c.resolve('203.0.113.9', '1.2.3.4'), '203.0.113.9', 'untrusted peer: header ignored');
  assert.equal(c.resolve('127.0.0.1', '1.2.3.4, 198.51.100.7, 10.1.2.3'), '198.51.100.7');
  assert.equal(c.resolve('::ffff:127.0.0.1', '198.51.100.7'), '198.51.100.7', 'IPv4-mapped peer');
  assert.equal(c.resolve('127.0.0.1', 'garbage, 198.51.100.7'), '198.51.100.7');
  // a garbled right-most hop: the client cannot be known; a shared key, neither the proxy's own nor the garbage
  assert.equal(c.resolve('127.0.0.1', '198.51.100.7, not-an-ip'), 'unresolved-via:127.0.0.1');
  assert.equal(c.resolve('127.0.0.1', 'other-garbage'), 'unresolved-via:127.0.0.1');
  assert.notEqual(c.resolve('127.0.0.1', 'x'), c.resolve('127.0.0.1', undefined));
  assert.equal(normalizeIp('0000:0000:0000:0000:0000:0000:0000:0001'), '::1');
  assert.throws(() => new ClientIp(['10.0.0.0/33']), /prefix length/);
  assert.throws(() => new ClientIp(['example.com']), /not an IP/);
});

test('client IP from X-Forwarded-For is used for rate limiting when the peer is trusted', async () => {
  const s = await serve(routes, { clock: () => T0, trustProxy: ['127.0.0.1'] });
  try {
    for (let i = 0; i < 120; i++) await s.get('/v1/airports/X', { headers: { 'x-forwarded-for': '198.51.100.1' } });
    assert.equal((await s.get('/v1/airports/X', { headers: { 'x-forwarded-for': '198.51.100.1' } })).status, 429);
    assert.equal((await s.get('/v1/airports/X', { headers: { 'x-forwarded-for': '198.51.100.2' } })).status, 200);
  } finally {
    s.close();
  }
});

test('Accept-Encoding parsing and the router', () => {
  assert.equal(acceptsGzip('gzip, deflate'), true);
  assert.equal(acceptsGzip('identity'), false);
  assert.equal(acceptsGzip('gzip;q=0'), false);
  assert.equal(acceptsGzip(undefined), false);
  assert.deepEqual(acceptedCodings('gzip, deflate, br'), { gzip: true, br: true });
  assert.deepEqual(acceptedCodings('br;q=0, gzip;q=0.5'), { gzip: true, br: false });
  assert.deepEqual(acceptedCodings('*'), { gzip: true, br: true });
  assert.deepEqual(acceptedCodings('*, gzip;q=0'), { gzip: false, br: true });
  assert.deepEqual(acceptedCodings('identity'), { gzip: false, br: false });
  // headers are remembered once read: asked again, each still gets its own answer
  for (let i = 0; i < 2; i++) {
    assert.deepEqual(acceptedCodings('br;q=0, gzip;q=0.5'), { gzip: true, br: false });
    assert.deepEqual(acceptedCodings('*, gzip;q=0'), { gzip: false, br: true });
  }
  // a flood of distinct headers is parsed each time, never remembered past the bound, never wrong
  for (let i = 0; i < 600; i++) assert.deepEqual(acceptedCodings(`gzip;q=0.${(i % 9) + 1}, x-${i}`), { gzip: true, br: false });
  assert.deepEqual(acceptedCodings(',,;;q=,'), { gzip: false, br: false }, 'malformed: nothing accepted, no throw');
  const r = new Router([
    { pattern: '/v1/alliances/:slug', bucket: 'refdata', handler: () => reply(1) },
    { pattern: '/v1/alliances/:slug/routes', bucket: 'refdata', handler: () => reply(2) },
    { pattern: '/static/*', bucket: 'docs', handler: () => reply(3) },
  ]);
  assert.deepEqual(r.match('/v1/alliances/star-alliance/routes')?.params, { slug: 'star-alliance' });
  assert.equal(r.match('/v1/alliances/a/b/c'), null);
  assert.deepEqual(r.match('/static/a/b.js')?.params, { '*': 'a/b.js' });
});
