// the live server's log on the whole app, through the real logger: JSON lines, warnings at warn,
// the access log only when asked, and no client address, query or station UUID unless the operator
// asks for the address (--log-ips).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { httpGet } from '../helpers/http.ts';
import { ROOT, startServerProcess } from '../helpers/processes.ts';
import { getAsSpelled, uuidLeaks, uuidSpellings } from '../helpers/uuid-spellings.ts';
import { NOW_MS } from '../helpers/publish-fixture.ts';
import { startApp, type RunningApp } from '../reliability/app.ts';
import { createLogger } from '../../lib/log.ts';
import { accessEntry, maskedPath } from '../../server/access-log.ts';

const UUID = '2f1c6a1e-5b7d-4c2a-9e1f-0a1b2c3d4e5f';
const CLIENT = '203.0.113.77';

type Line = Record<string, unknown> & { time: string; level: string; msg: string };

/** the real app, logging through the real logger (json) into memory */
async function withApp(flags: string[], f: (a: RunningApp, lines: () => Line[]) => Promise<void>) {
  let text = '';
  const logger = createLogger({ logFormat: 'json', logLevel: 'info' }, { write: (s: string) => (text += s) }, () => NOW_MS);
  const a = await startApp(() => NOW_MS, ['--trust-proxy', '127.0.0.1', ...flags], logger);
  const lines = () =>
    text
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Line);
  try {
    await f(a, lines);
  } finally {
    a.stop();
  }
}

/** requests that could put an address, a query or a UUID in a line */
async function traffic(a: RunningApp) {
  const h = { 'x-forwarded-for': CLIENT };
  await httpGet(`${a.base}/v1/aircraft?bbox=45.8,5.9,47.9,10.5`, { headers: h });
  await httpGet(`${a.base}/v1/stations/${UUID}`, { headers: h });
  // a mistyped station URL: no route, so its path (with the UUID) is not logged
  await httpGet(`${a.base}/v1/station/${UUID}`, { headers: h });
  await httpGet(`${a.base}/v1/trace/zzzzzz`, { headers: h });
  await httpGet(`${a.base}/healthz`, { method: 'HEAD' });
  await httpGet(`${a.base}/v1/now`, { method: 'POST', headers: h });
}

const requests = (lines: Line[]) => lines.filter((l) => l.msg === 'request');

test('every line is JSON with time, level and msg; a feed failure is a warning', async () => {
  await withApp([], async (a, lines) => {
    await traffic(a);
    writeFileSync(a.feed, '{"now": 17');
    await a.app.services.feed!.pollOnce();
    const all = lines();
    assert.ok(all.length >= 2, JSON.stringify(all));
    for (const l of all) {
      assert.equal(l.time, new Date(NOW_MS).toISOString());
      assert.ok(['debug', 'info', 'warn', 'error'].includes(l.level), l.level);
      assert.equal(typeof l.msg, 'string');
    }
    assert.ok(
      all.some((l) => l.level === 'info' && l.msg.startsWith('artifacts: serving build')),
      'the build served, at info',
    );
    const bad = all.filter((l) => l.msg.startsWith('feed: invalid_json'));
    assert.deepEqual(
      bad.map((l) => l.level),
      ['warn'],
    );
    // off by default
    assert.deepEqual(requests(all), []);
  });
});

test('--access-log: one line per answer with method, route, path without the query, status, bucket, ms, bytes; no address', async () => {
  await withApp(['--access-log'], async (a, lines) => {
    const body = await httpGet(`${a.base}/v1/now`, { headers: { 'x-forwarded-for': CLIENT } });
    await traffic(a);
    const got = requests(lines());
    assert.equal(got.length, 7);
    const strip = (l: Line) => {
      const { time, level, msg, ms, ...rest } = l;
      assert.equal(typeof ms, 'number');
      assert.ok((ms as number) >= 0, '(ms as number) >= 0');
      assert.equal(level, 'info');
      return rest;
    };
    const [now, aircraft, station, unrouted, trace, head, post] = got.map(strip);
    assert.deepEqual(now, { method: 'GET', route: '/v1/now', path: '/v1/now', status: 200, bucket: 'now', bytes: Buffer.byteLength(body.text) });
    assert.deepEqual(aircraft, { method: 'GET', route: '/v1/aircraft', path: '/v1/aircraft', status: 200, bucket: 'aircraft', bytes: aircraft!.bytes });
    assert.ok((aircraft!.bytes as number) > 0, '(aircraft!.bytes as number) > 0');
    assert.deepEqual(
      { ...station, bytes: 0 },
      { method: 'GET', route: '/v1/stations/:uuid', path: '/v1/stations/:uuid', status: 404, bucket: 'station', bytes: 0 },
    );
    assert.deepEqual({ ...unrouted, bytes: 0 }, { method: 'GET', route: 'unrouted', status: 404, bucket: 'none', bytes: 0 });
    assert.deepEqual({ ...trace, bytes: 0 }, { method: 'GET', route: '/v1/trace/:hex', path: '/v1/trace/zzzzzz', status: 422, bucket: 'trace', bytes: 0 });
    assert.deepEqual(head, { method: 'HEAD', route: '/healthz', path: '/healthz', status: 200, bucket: 'health', bytes: 0 });
    assert.deepEqual({ ...post, bytes: 0 }, { method: 'POST', route: '/v1/now', path: '/v1/now', status: 405, bucket: 'now', bytes: 0 });
    const text = JSON.stringify(lines());
    for (const secret of [CLIENT, '127.0.0.1', '45.8', UUID, UUID.slice(0, 8)]) assert.ok(!text.includes(secret), `${secret} in ${text}`);
  });
});

test('--log-ips puts the client address (as the rate limits see it) in access lines, and only there', async () => {
  await withApp(['--access-log', '--log-ips'], async (a, lines) => {
    await traffic(a);
    const all = lines();
    assert.deepEqual(
      requests(all).map((l) => l.ip),
      [CLIENT, CLIENT, CLIENT, CLIENT, '127.0.0.1', CLIENT],
    );
    for (const l of all.filter((x) => x.msg !== 'request')) assert.ok(!JSON.stringify(l).includes(CLIENT), JSON.stringify(l));
  });
  // without the access log, --log-ips has nothing to add an address to
  await withApp(['--log-ips'], async (a, lines) => {
    await traffic(a);
    assert.ok(!JSON.stringify(lines()).includes(CLIENT), '!JSON.stringify(lines()).includes(CLIENT)');
  });
});

test('maskedPath hides the segments a pattern names as secret; accessEntry drops the path of unrouted requests', () => {
  assert.equal(maskedPath('/v1/stations/:uuid', `/v1/stations/${UUID}`), '/v1/stations/:uuid');
  assert.equal(maskedPath('/v1/trace/:hex', '/v1/trace/4b1814'), '/v1/trace/4b1814');
  assert.equal(maskedPath('/map/*', '/map/app.js'), '/map/app.js');
  const req = { method: 'GET', path: `/v1/station/${UUID}`, ip: CLIENT, bytes: 10 };
  assert.deepEqual(accessEntry('unrouted', 'none', 404, 0.123456, req, false), {
    method: 'GET',
    route: 'unrouted',
    status: 404,
    bucket: 'none',
    ms: 0.12,
    bytes: 10,
  });
  assert.deepEqual(accessEntry('/v1/now', 'now', 422, 1, { ...req, path: null }, true), {
    method: 'GET',
    route: '/v1/now',
    status: 422,
    bucket: 'now',
    ms: 1,
    bytes: 10,
    ip: CLIENT,
  });
});

test('--access-log: a station UUID is masked whatever the spelling of its path, on both serving threads', async () => {
  // the real server process with two serving threads: a connection per request lands on either
  // (the worker forwards a station URL to the main thread; it answers and logs /v2 itself)
  const dir = mkdtempSync(join(tmpdir(), 'contrail-access-uuid-'));
  const feed = join(dir, 'aircraft.json');
  const stations = join(dir, 'feeders.json');
  writeFileSync(feed, readFileSync(join(ROOT, 'test/fixtures/feed/readsb_sample.json')));
  writeFileSync(stations, JSON.stringify({ generated_at: Math.floor(Date.now() / 1000), feeders: [{ uuid: UUID, lat: 47.45, lon: 8.55, connected: true }] }));
  const s = await startServerProcess([
    '--feed',
    feed,
    '--max-age',
    '2000000000',
    '--stations',
    stations,
    '--state',
    join(dir, 'state'),
    '--serve-threads',
    '2',
    '--access-log',
    '--no-rate-limits',
    '--log-format',
    'json',
  ]);
  try {
    for (let i = 0; i < 100 && (await httpGet(`${s.base}/v1/stations/${UUID}`)).status !== 200; i++) await new Promise((r) => setTimeout(r, 100));
    const spellings = uuidSpellings(UUID);
    const statuses = new Map<string, number[]>();
    for (let round = 0; round < 4; round++) {
      for (const sp of spellings) {
        statuses.set(sp.path, [...(statuses.get(sp.path) ?? []), await getAsSpelled(s.port, sp.path)]);
      }
    }
    for (const sp of spellings) {
      const st = statuses.get(sp.path)!;
      if (sp.routed) assert.deepEqual(st, [200, 200, 200, 200], `${sp.path} reaches the station's record`);
      // answered (without --artifacts the airframe is a 503 artifact_unavailable), never a fault
      else
        assert.ok(
          st.every((x) => x > 0 && x !== 500),
          `${sp.path}: ${st}`,
        );
    }
    // the observations of the worker reach the main thread's log in batches (every 100 ms)
    await new Promise((r) => setTimeout(r, 500));
    const lines = s
      .output()
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as Line);
    const access = requests(lines);
    assert.ok(access.length >= spellings.length * 4, `an access line per answer: ${access.length}`);
    assert.ok(
      access.filter((l) => l.route === '/v1/stations/:uuid').every((l) => l.path === '/v1/stations/:uuid'),
      JSON.stringify(access.filter((l) => l.route === '/v1/stations/:uuid')),
    );
    assert.ok(
      access.some((l) => l.route === '/v1/trace/:hex' && l.path === '/v1/trace/:uuid'),
      "a UUID in another route's path is masked too",
    );
    assert.ok(
      access.some((l) => l.route === '/v2/hex/:hex'),
      'the worker answered and logged some',
    );
    const text = s.output();
    for (const leak of uuidLeaks(UUID)) assert.ok(!text.toLowerCase().includes(leak.toLowerCase()), `${leak} in the log:\n${text}`);
  } finally {
    await s.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('maskedPath masks the station segment as the router finds it, and anything UUID-shaped in any path', () => {
  for (const sp of uuidSpellings(UUID).filter((x) => x.routed)) {
    const decoded = decodeURIComponent(sp.path.split('?')[0]!);
    assert.equal(maskedPath('/v1/stations/:uuid', decoded), '/v1/stations/:uuid', sp.path);
  }
  assert.equal(maskedPath('/v1/stations/:uuid', `/v1/stations/%32${UUID.slice(1)}`), '/v1/stations/:uuid');
  assert.equal(maskedPath('/v1/trace/:hex', `/v1/trace/${UUID.toUpperCase()}`), '/v1/trace/:uuid');
  assert.equal(maskedPath('/v2/hex/:hex', `/v2/hex/${UUID.replace(/-/g, '')}x`), '/v2/hex/:uuidx');
  assert.equal(maskedPath('/v1/trace/:hex', `/v1/trace/%32${UUID.slice(1)}`), '/v1/trace/:uuid', 'a digit percent-encoded (the path was encoded twice)');
  assert.equal(maskedPath('/map/*', '/map/0123456789abcdef'), '/map/0123456789abcdef', 'shorter hex runs are kept');
});
