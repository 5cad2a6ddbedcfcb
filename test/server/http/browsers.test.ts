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
    const pre = await httpGet(`${a.base}/v1/aircraft`, { method: 'OPTIONS', headers: { origin: 'https://map.example', 'access-control-request-method': 'GET' } });
    assert.equal(pre.status, 204);
    assert.equal(pre.headers['access-control-allow-origin'], '*');
    assert.equal(pre.headers['access-control-allow-methods'], 'GET, HEAD');
    assert.match(pre.headers['access-control-allow-headers'] ?? '', /If-None-Match/);
    assert.equal(pre.headers['access-control-max-age'], '86400');
    const r = await httpGet(`${a.base}/v1/now`, { headers: { origin: 'https://map.example' } });
    assert.equal(r.status, 200);
    for (const h of ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'Retry-After']) assert.match(r.headers['access-control-expose-headers'] ?? '', new RegExp(h));
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
