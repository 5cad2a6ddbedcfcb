// what a browser on another origin needs of the HTTP boundary: the CORS preflight, readable
// RateLimit-* headers, and conditional requests on history (ETag, If-None-Match, 304).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { httpGet } from '../../helpers/http.ts';
import { startApp } from '../../reliability/app.ts';
import { NOW_MS } from '../../helpers/publish-fixture.ts';

test('a CORS preflight is answered 204 with the methods, headers and max-age; responses expose RateLimit-* and Retry-After', async () => {
  const a = await startApp(undefined, ['--rate-limits']);
  try {
    const pre = await httpGet(`${a.base}/v1/aircraft`, {
      method: 'OPTIONS',
      headers: { origin: 'https://map.example', 'access-control-request-method': 'GET' },
    });
    assert.equal(pre.status, 204);
    assert.equal(pre.headers['access-control-allow-origin'], '*');
    assert.equal(pre.headers['access-control-allow-methods'], 'GET, HEAD');
    assert.match(pre.headers['access-control-allow-headers'] ?? '', /If-None-Match/);
    assert.equal(pre.headers['access-control-max-age'], '86400');
    const r = await httpGet(`${a.base}/v1/now`, { headers: { origin: 'https://map.example' } });
    assert.equal(r.status, 200);
    for (const h of ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'Retry-After'])
      assert.match(r.headers['access-control-expose-headers'] ?? '', new RegExp(h));
  } finally {
    a.stop();
  }
});

test('history answers carry an ETag; If-None-Match with it gets a 304 and no body, anything else the document', async () => {
  const a = await startApp(undefined, ['--rate-limits']);
  try {
    const r = await httpGet(`${a.base}/v1/airports/ZRH`, { headers: { 'accept-encoding': 'gzip' } });
    assert.equal(r.status, 200);
    const etag = r.headers.etag!;
    assert.match(etag, /^W\/"[A-Za-z0-9_-]{27}"$/);
    const again = await httpGet(`${a.base}/v1/airports/ZRH`, { headers: { 'if-none-match': etag } });
    assert.equal(again.status, 304);
    assert.equal(again.text, '');
    assert.equal(again.headers.etag, etag);
    assert.equal(again.headers['cache-control'], r.headers['cache-control']);
    assert.ok(again.headers['ratelimit-remaining'], 'still counted');
    // the same document spelled by its ICAO code has the same bytes, so the same validator
    assert.equal((await httpGet(`${a.base}/v1/airports/LSZH`)).headers.etag, etag);
    assert.equal((await httpGet(`${a.base}/v1/airports/ZRH`, { headers: { 'if-none-match': 'W/"other", "x"' } })).status, 200);
    assert.equal((await httpGet(`${a.base}/v1/airports/ZRH`, { headers: { 'if-none-match': `"x", ${etag.replace('W/', '')}` } })).status, 304);
  } finally {
    a.stop();
  }
});

test('a CORS preflight echoes the headers the page asks to send (a custom one, a tracing one), says it varies by them, and falls back to its own list for a malformed ask', async () => {
  const a = await startApp();
  try {
    for (const path of ['/v1/aircraft', '/v1/airports/ZRH', '/v1/stations/whatever']) {
      const pre = await httpGet(`${a.base}${path}`, {
        method: 'OPTIONS',
        headers: {
          origin: 'https://map.example',
          'access-control-request-method': 'GET',
          'access-control-request-headers': 'X-Client, traceparent, If-None-Match',
        },
      });
      assert.equal(pre.status, 204, path);
      assert.equal(pre.headers['access-control-allow-headers'], 'X-Client, traceparent, If-None-Match', path);
      assert.equal(pre.headers['access-control-max-age'], '86400', 'the preflight is cached');
      assert.equal(pre.headers['vary'], 'Access-Control-Request-Method, Access-Control-Request-Headers');
      assert.equal(pre.headers['access-control-allow-origin'], '*');
    }
    for (const bad of ['x\u0001y', 'a;b', 'a,,b', 'x'.repeat(3000)]) {
      const pre = await httpGet(`${a.base}/v1/now`, {
        method: 'OPTIONS',
        headers: { 'access-control-request-method': 'GET', 'access-control-request-headers': bad },
      }).catch(() => null);
      // node:http refuses to send a control character at all: nothing reaches the server then
      if (!pre) continue;
      assert.equal(pre.headers['access-control-allow-headers'], 'Accept, Accept-Encoding, If-None-Match, Range, If-Range', JSON.stringify(bad.slice(0, 20)));
    }
  } finally {
    a.stop();
  }
});

test('every answer carries the security headers, errors included; the map and /docs carry their content security policies', async () => {
  const a = await startApp(undefined, ['--rate-limits']);
  try {
    const got = [
      await httpGet(`${a.base}/v1/now`),
      await httpGet(`${a.base}/v1/aircraft?bbox=1,2`),
      await httpGet(`${a.base}/no/such`),
      await httpGet(`${a.base}/v1/now`, { method: 'POST' }),
      await httpGet(`${a.base}/v1/now`, { method: 'OPTIONS' }),
      await httpGet(`${a.base}/v1/airports/ZRH`),
      await httpGet(`${a.base}/v1/stream`),
      await httpGet(`${a.base}/`),
      await httpGet(`${a.base}/docs`),
    ];
    assert.deepEqual(
      got.map((r) => r.status),
      [200, 422, 404, 405, 204, 200, 426, 200, 200],
    );
    for (const r of got) {
      assert.equal(r.headers['x-content-type-options'], 'nosniff', String(r.status));
      assert.equal(r.headers['referrer-policy'], 'strict-origin-when-cross-origin', String(r.status));
      assert.equal(r.headers['x-frame-options'], 'SAMEORIGIN', String(r.status));
    }
    const csp = (r: { headers: Record<string, string> }) =>
      Object.fromEntries((r.headers['content-security-policy'] ?? '').split('; ').map((d) => [d.split(' ')[0], d.split(' ').slice(1)]));
    const map = csp(got[7]!);
    assert.deepEqual(map['script-src'], ["'self'"], 'the map runs only its own script');
    assert.deepEqual(map['worker-src'], ["'self'"], "the map's sky worker, from this server alone");
    // images from here and from the configured tile host alone (the default: OpenStreetMap's)
    assert.deepEqual(map['img-src'], ["'self'", 'data:', 'https://tile.openstreetmap.org']);
    assert.deepEqual(map['frame-ancestors'], ["'self'"]);
    assert.deepEqual(map['object-src'], ["'none'"]);
    const docs = csp(got[8]!);
    assert.deepEqual(docs['script-src'], ["'self'"], "Swagger UI's own files, no inline script");
    assert.deepEqual(docs['connect-src'], ["'self'"]);
    assert.equal(got[0]!.headers['content-security-policy'], undefined, 'a JSON answer needs no policy');
  } finally {
    a.stop();
  }
});

test('a client that accepts brotli alone gets brotli wherever gzip would be sent: the whole network, a box, a point, a history object', async () => {
  const a = await startApp();
  try {
    const { lat, lon } = ((await httpGet(`${a.base}/v1/aircraft`)).json as { aircraft: { lat?: number; lon?: number }[] }).aircraft.find(
      (x) => x.lat !== undefined,
    )!;
    for (const path of ['/v1/aircraft', '/v1/aircraft?bbox=-180,-90,180,90', `/v2/point/${lat}/${lon}/250`, '/v1/airports/ZRH', '/openapi.json']) {
      const plain = await httpGet(`${a.base}${path}`);
      const br = await httpGet(`${a.base}${path}`, { headers: { 'accept-encoding': 'br' } });
      const gz = await httpGet(`${a.base}${path}`, { headers: { 'accept-encoding': 'gzip' } });
      assert.equal(gz.headers['content-encoding'], 'gzip', path);
      assert.equal(br.headers['content-encoding'], 'br', path);
      assert.ok(br.wireBytes < plain.wireBytes, `${path}: ${br.wireBytes} of ${plain.wireBytes} bytes`);
      // the same document (a point's ptime aside)
      assert.deepEqual(path.startsWith('/v2/') ? { ...br.json, ptime: 0 } : br.json, path.startsWith('/v2/') ? { ...plain.json, ptime: 0 } : plain.json, path);
    }
  } finally {
    a.stop();
  }
});
