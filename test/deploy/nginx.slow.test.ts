// the reference nginx front (deploy/nginx/contrail.conf), started for real on loopback over a
// published tree built with the real builders, with the real live server (the whole app, real
// uWebSockets.js, reading the same tree) as its upstream: history URLs answer through the front
// as the spec says, stored keys from the tree and every other spelling from the live server.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { connect } from 'node:net';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { currentVersion } from '../../artifacts/tree.ts';
import { writeBundles } from '../../build/bundle/bundle.ts';
import { indexFiles, localFile } from '../../build/bundle/index-file.ts';
import { DATA_CACHE, PARQUET_TYPE, TEXT_TYPE } from '../../artifacts/bundles.ts';
import { checkRanges, malformedBundlePaths } from '../helpers/ranges.ts';
import { policyFor } from '../../schemas/policy.ts';
import { httpGet } from '../helpers/http.ts';
import { NOW_MS } from '../helpers/publish-fixture.ts';
import { startFront, type Front } from '../helpers/nginx.ts';
import { startApp, type RunningApp } from '../reliability/app.ts';
import { open } from '../helpers/ws-client.ts';
import { getAsSpelled, uuidLeaks, uuidSpellings } from '../helpers/uuid-spellings.ts';

let base = '';
let port = 0;
let runDir = '';
let front: Front | null = null;
let live: RunningApp | null = null;
let fx: RunningApp['fx'];
let bundles: Awaited<ReturnType<typeof writeBundles>>;

// a station the live server knows, so that its private status answers 200 through the front
const STATION_UUID = '2f1c6a1e-5b7d-4c2a-9e1f-0a1b2c3d4e5f';

before(async () => {
  const stations = join(mkdtempSync(join(tmpdir(), 'contrail-front-stations-')), 'feeders.json');
  writeFileSync(stations, JSON.stringify({ generated_at: NOW_MS / 1000, feeders: [{ uuid: STATION_UUID, lat: 47.45, lon: 8.55, connected: true }] }));
  live = await startApp(() => NOW_MS, ['--rate-limits', '--trust-proxy', '127.0.0.1', '--stations', stations]);
  await live.app.services.stations.source!.poll();
  fx = live.fx;
  const out = join(fx.dir, 'bundles');
  bundles = await writeBundles({ log: fx.log, root: fx.root, out, nowMs: NOW_MS });
  // beside the published files, one the layout does not name: never served
  writeFileSync(join(out, 'secret.txt'), 'not public');
  // when the test runs as root, nginx workers drop to nobody: the temp dirs (mode 0700) must be readable
  spawnSync('chmod', ['-R', 'a+rX', fx.dir]);
  front = await startFront({ live: [`127.0.0.1:${live.port}`], artifacts: fx.root, bundles: out });
  ({ base, port, run: runDir } = front);
});

after(() => {
  front?.stop();
  live?.stop();
});

const anAirframe = () => Object.keys(currentVersion(fx.root)!.manifest.objects).find((k) => k.startsWith('v1/airframes/'))!;

test('an artifact is sent gzipped as stored to a client that accepts gzip, with its Cache-Control and CORS', async () => {
  const key = anAirframe();
  const r = await httpGet(`${base}/${key}`, { headers: { 'accept-encoding': 'gzip' } });
  assert.equal(r.status, 200);
  assert.equal(r.headers['content-encoding'], 'gzip');
  assert.equal(r.headers['content-type'], 'application/json; charset=utf-8');
  assert.equal(r.headers['cache-control'], policyFor('airframe').cache);
  assert.equal(r.headers['access-control-allow-origin'], '*');
  const stored = readFileSync(join(fx.root, 'current', `${key}.gz`));
  assert.equal(r.wireBytes, stored.length, 'the stored gzip bytes, not re-compressed');
  assert.equal(r.json.hex, key.split('/').pop());
});

test('a client without gzip gets the same document decompressed, and the singular spelling answers too', async () => {
  const key = anAirframe();
  const r = await httpGet(`${base}/${key}`, { headers: { 'accept-encoding': 'identity' } });
  assert.equal(r.status, 200);
  assert.equal(r.headers['content-encoding'], undefined);
  assert.deepEqual(JSON.parse(r.text), JSON.parse(gunzipSync(readFileSync(join(fx.root, 'current', `${key}.gz`))).toString()));
  const singular = await httpGet(`${base}/${key.replace('airframes', 'airframe')}`);
  assert.equal(singular.status, 200);
  assert.equal(singular.json.hex, r.json.hex);
  const airport = await httpGet(`${base}/v1/airports/ZRH`);
  assert.equal(airport.headers['cache-control'], policyFor('airport').cache);
});

test('history through the front as through the server: upper case, the singular, a catalog spelling, 422 and not_found', async () => {
  const key = anAirframe();
  const stored = await httpGet(`${base}/${key}`);
  // keys the tree does not hold as spelled are answered by the live server from the same tree
  const upper = await httpGet(`${base}/v1/airframe/${key.split('/').pop()!.toUpperCase()}`);
  assert.equal(upper.status, 200);
  assert.deepEqual(upper.json, stored.json);
  assert.equal(upper.headers['cache-control'], policyFor('airframe').cache);
  assert.equal(upper.headers['uwebsockets'], undefined, "the live server's stray uWebSockets header is not passed on");
  // everything else is the live server's answer, byte for byte: the catalog spelling fallback
  // (EZY012 -> EZY12), not_observed for a known airline never heard, 422, not_found
  for (const path of ['/v1/route/SWR0100', '/v1/route/SWR9999', '/v1/route/ZZZ9999', '/v1/route/x', '/v1/airports/lszh', '/v1/refdata/types/a320']) {
    const d = await httpGet(`http://127.0.0.1:${live!.port}${path}`);
    const r = await httpGet(`${base}${path}`);
    assert.deepEqual([r.status, r.text, r.headers['cache-control']], [d.status, d.text, d.headers['cache-control']], path);
  }
  for (const [path, status, error] of [
    ['/v1/airframes/zz', 422, 'invalid_request'],
    ['/v1/airports/Q', 422, 'invalid_request'],
    ['/v1/airframes/000000', 404, 'not_found'],
  ] as const) {
    const r = await httpGet(`${base}${path}`);
    const d = await httpGet(`http://127.0.0.1:${live!.port}${path}`);
    assert.equal(r.status, d.status, path);
    assert.equal(r.status, status, path);
    assert.deepEqual(r.json, d.json, path);
    assert.equal(r.json.error, error, path);
    assert.equal(r.headers['cache-control'], 'no-store', path);
  }
});

test('meta objects, the manifest and unknown bundle paths answer a section-7 404 with no-store', async () => {
  for (const path of [
    '/meta/routes',
    '/manifest.json',
    '/v1/bundles/daily/../index.json',
    '/v1/bundles/x',
    ...malformedBundlePaths(bundles.index.log[0]!.day),
  ]) {
    const r = await httpGet(`${base}${path}`);
    assert.equal(r.status, 404, path);
    assert.equal(r.headers['cache-control'], 'no-store', path);
    assert.equal(r.headers['content-type'], 'application/json; charset=utf-8', path);
    assert.equal(r.json.error, 'not_found', path);
    assert.equal(typeof r.json.detail, 'string');
    assert.ok(!r.text.includes('not public'), path);
  }
});

test('a non-GET method answers 405 with a section-7 error body', async () => {
  const r = await httpGet(`${base}/${anAirframe()}`, { method: 'POST' });
  assert.equal(r.status, 405);
  assert.deepEqual(Object.keys(r.json).sort(), ['detail', 'error']);
  assert.equal(r.headers['cache-control'], 'no-store');
  assert.equal(r.headers['allow'], 'GET, HEAD');
});

test("the researchers' files are served as they are, with byte ranges exactly as the live server answers them; the index with the docs policy", async () => {
  const out = join(fx.dir, 'bundles');
  for (const e of indexFiles(bundles.index)) {
    const f = await httpGet(`${base}${e.path}`, { headers: { 'accept-encoding': 'gzip' } });
    assert.equal(f.status, 200, e.path);
    assert.equal(f.headers['content-type'], e.path.endsWith('.parquet') ? PARQUET_TYPE : TEXT_TYPE, e.path);
    assert.equal(f.headers['content-encoding'], undefined);
    assert.equal(f.headers['cache-control'], DATA_CACHE);
    assert.equal(f.headers['access-control-allow-origin'], '*');
    assert.deepEqual(f.body, readFileSync(localFile(out, e)), e.path);
  }
  await checkRanges(`${base}${bundles.index.log[0]!.path}`, readFileSync(localFile(out, bundles.index.log[0]!)));
  await checkRanges(`${base}/v1/bundles/tables/routes.parquet`, readFileSync(join(out, 'tables/routes.parquet')));
  const idx = await httpGet(`${base}/v1/bundles`, { schema: 'bundles-index' });
  assert.equal(idx.headers['cache-control'], policyFor('docs').cache);
  assert.deepEqual(idx.json, bundles.index);
  const now = await httpGet(`${base}/v1/now`, { schema: 'now' });
  assert.equal(now.status, 200);
  assert.equal(now.headers['cache-control'], policyFor('now').cache);
});

/** one raw request on a fresh connection; resolves to what came back before the server closed or 3 s passed */
function raw(request: string): Promise<string> {
  return new Promise((resolve) => {
    const sock = connect(port, '127.0.0.1');
    let got = '';
    const done = () => {
      sock.destroy();
      resolve(got);
    };
    sock.setTimeout(3000, done);
    sock.on('data', (d) => (got += d.toString('latin1')));
    sock.on('end', done);
    sock.on('error', done);
    sock.write(request);
  });
}

const statusOf = (res: string) => Number(/^HTTP\/1\.[01] (\d{3})/.exec(res)?.[1] ?? 0);
const bodyOf = (res: string) => JSON.parse(res.slice(res.indexOf('\r\n\r\n') + 4).replace(/^[0-9a-f]+\r\n|\r\n0\r\n\r\n$/g, ''));

test('HTTP/1.0, 60 headers and an absolute-form target reach the live server through the front and get answers', async () => {
  const http10 = await raw('GET /v1/now HTTP/1.0\r\nHost: x\r\n\r\n');
  assert.equal(statusOf(http10), 200, http10);
  assert.equal(typeof bodyOf(http10).generated_at, 'number', http10);
  const many = Array.from({ length: 60 }, (_, i) => `X-Filler-${i}: ${i}\r\n`).join('');
  const crowded = await raw(`GET /v1/now HTTP/1.1\r\nHost: x\r\n${many}Connection: close\r\n\r\n`);
  assert.equal(statusOf(crowded), 200, crowded.slice(0, 200));
  const absolute = await raw(`GET http://x/v1/now HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
  assert.equal(statusOf(absolute), 200, absolute.slice(0, 200));
});

test('requests the front cannot read answer 400 in the section-7 shape with no-store, never HTML', async () => {
  for (const req of [
    'GET /v1/now HTTP/1.1\r\nConnection: close\r\n\r\n',
    'GARBAGE\r\n\r\n',
    `GET /v1/now HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
  ]) {
    const res = await raw(req);
    const st = statusOf(res);
    assert.ok(st === 400 || st === 414, `${JSON.stringify(req.slice(0, 40))}: ${res.slice(0, 120)}`);
    assert.match(res, /\r\ncache-control: no-store\r\n/i);
    assert.equal(bodyOf(res).error, 'invalid_request');
  }
});

test('a folder of the tree (nginx would answer 403) is a section-7 answer with no-store, never HTML', async () => {
  const r = await httpGet(`${base}/v1/airframes/`);
  assert.ok(r.status === 403 || r.status === 404, String(r.status));
  assert.equal(r.headers['cache-control'], 'no-store');
  assert.equal(r.headers['content-type'], 'application/json; charset=utf-8');
  assert.equal(r.json.error, 'not_found');
});

test("a stored object's .gz name is no URL: 404 in the section-7 shape, not raw gzip labelled JSON", async () => {
  const r = await httpGet(`${base}/${anAirframe()}.gz`);
  assert.equal(r.status, 404);
  assert.equal(r.json.error, 'not_found');
  assert.equal(r.headers['cache-control'], 'no-store');
});

test('the front logs no client address and masks a station UUID in a path (spec 5)', async () => {
  const uuid = '2f1c6a1e-5b7d-4c2a-9e1f-0a1b2c3d4e5f';
  await httpGet(`${base}/v1/stations/${uuid}`);
  // nginx may log the garbage request's 400 after the client has its answer: wait for that line, so
  // it is in this test's log and not in the next test's count of lines
  const errors400 = () => (readFileSync(join(runDir, 'access.log'), 'utf8').match(/"GET \/__contrail_errors\/400" 400/g) ?? []).length;
  const before400 = errors400();
  await raw('GARBAGE\r\n\r\n');
  for (let i = 0; i < 100 && errors400() === before400; i++) await new Promise((r) => setTimeout(r, 50));
  const access = readFileSync(join(runDir, 'access.log'), 'utf8');
  assert.equal(errors400(), before400 + 1, 'the garbage request is logged, once, as a 400');
  const error = readFileSync(join(runDir, 'error.log'), 'utf8');
  assert.match(access, /"GET \/v1\/stations\/\{uuid\}"/);
  for (const text of [access, error]) {
    assert.ok(!text.includes('127.0.0.1'), text);
    assert.ok(!text.includes(uuid), text);
  }
});

test("a station UUID is masked in the front's access log whatever the spelling of its path; every spelling the live server routes answers 200 through the front", async () => {
  const before = readFileSync(join(runDir, 'access.log'), 'utf8').length;
  for (const sp of uuidSpellings(STATION_UUID)) {
    const status = await getAsSpelled(port, sp.path);
    if (sp.routed) assert.equal(status, 200, `${sp.path} reaches the station's record through the front`);
    else assert.ok(status < 500, `${sp.path}: ${status}`);
  }
  // nginx writes a request's access-log line after the client has its answer (the log phase): wait for the
  // last spelling's line before counting, or a fast client counts one short (CI, a loaded machine)
  const want = uuidSpellings(STATION_UUID).length;
  const logged = () => readFileSync(join(runDir, 'access.log'), 'utf8').slice(before);
  for (let i = 0; i < 100 && logged().split('\n').filter(Boolean).length < want; i++) await new Promise((r) => setTimeout(r, 50));
  const access = logged();
  const lines = access.split('\n').filter(Boolean);
  assert.equal(lines.length, want, access);
  assert.ok(lines.filter((l) => /"GET \/v1\/stations\/\{uuid\}"/.test(l)).length >= uuidSpellings(STATION_UUID).filter((x) => x.routed).length, access);
  for (const leak of uuidLeaks(STATION_UUID)) assert.ok(!access.toLowerCase().includes(leak.toLowerCase()), `${leak} in the front's access log:\n${access}`);
  // and the live server behind it logs none either (its own log, warnings included)
  for (const leak of uuidLeaks(STATION_UUID)) assert.ok(!live!.logs.join('\n').toLowerCase().includes(leak.toLowerCase()), leak);
});

test('the push stream upgrades through the front: the full state of the box arrives, from the live server', async () => {
  const ws = await open(`${base}/v1/stream?bbox=-180,-90,180,90`);
  try {
    const first = await ws.next((m) => m.type !== 'subscribed', 10_000);
    assert.equal(first.type, 'full', JSON.stringify(first).slice(0, 200));
    assert.ok(Array.isArray(first.aircraft) && first.aircraft.length > 0, 'the sample sky, through the front');
  } finally {
    ws.close();
  }
});

test('a CORS preflight through the front is answered 204 as the live server answers it: the asked-for headers echoed, cached a day, for stored and live URLs', async () => {
  for (const path of [`/${anAirframe()}`, '/v1/now', '/v1/stations/not-a-uuid']) {
    const r = await httpGet(`${base}${path}`, {
      method: 'OPTIONS',
      headers: { origin: 'https://map.example', 'access-control-request-method': 'GET', 'access-control-request-headers': 'x-client, traceparent' },
    });
    assert.equal(r.status, 204, path);
    assert.equal(r.headers['access-control-allow-origin'], '*', path);
    assert.equal(r.headers['access-control-allow-methods'], 'GET, HEAD', path);
    assert.equal(r.headers['access-control-allow-headers'], 'x-client, traceparent', path);
    assert.equal(r.headers['access-control-max-age'], '86400', path);
    assert.match(r.headers['vary'] ?? '', /Access-Control-Request-Headers/, path);
    assert.equal(r.headers['x-content-type-options'], 'nosniff', path);
  }
  // a header list that is not one is not echoed: the API's own list instead
  const odd = await httpGet(`${base}/v1/now`, {
    method: 'OPTIONS',
    headers: { 'access-control-request-method': 'GET', 'access-control-request-headers': 'x;y' },
  });
  assert.equal(odd.status, 204);
  assert.equal(odd.headers['access-control-allow-headers'], 'Accept, Accept-Encoding, If-None-Match, Range, If-Range');
});

test("the security headers are on every answer through the front: stored objects, the front's own errors, and what the live server sends", async () => {
  const answers = [
    await httpGet(`${base}/${anAirframe()}`, { headers: { 'accept-encoding': 'gzip' } }),
    await httpGet(`${base}/meta/routes`),
    await httpGet(`${base}/${anAirframe()}`, { method: 'POST' }),
    await httpGet(`${base}/v1/bundles`),
    await httpGet(`${base}/v1/now`),
    await httpGet(`${base}/v1/airframes/zzzzzz`),
  ];
  for (const r of answers) {
    assert.equal(r.headers['x-content-type-options'], 'nosniff', `${r.status} ${r.text.slice(0, 80)}`);
    assert.equal(r.headers['referrer-policy'], 'strict-origin-when-cross-origin', String(r.status));
    assert.equal(r.headers['x-frame-options'], 'SAMEORIGIN', String(r.status));
  }
  const map = await httpGet(`${base}/`);
  assert.match(map.headers['content-security-policy'] ?? '', /script-src 'self'/, "the map page's policy passes through the front");
});
