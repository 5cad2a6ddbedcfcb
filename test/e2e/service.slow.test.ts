// the whole service as a person runs it: the real nightly build over the bundled sample history,
// then the real server process (npm run serve) with a real readsb feed file and that artifact tree.
// every response is validated against its schema (test/helpers/http.ts).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { httpGet } from '../helpers/http.ts';
import { ROOT, eventually, runScript, startServerProcess, type ServerProcess } from '../helpers/processes.ts';

const tmp = mkdtempSync(join(tmpdir(), 'contrail-e2e-'));
const feed = join(tmp, 'aircraft.json');
const sample = JSON.parse(readFileSync(join(ROOT, 'test/fixtures/feed/readsb_sample.json'), 'utf8'));
// the feed must be fresh for the live routes: stamp it with the current time (only freshness depends on it)
const writeFeed = (now: number) => {
  writeFileSync(`${feed}.tmp`, JSON.stringify({ ...sample, now }));
  renameSync(`${feed}.tmp`, feed);
};
let server: ServerProcess;
let nightlyLog = '';

before(async () => {
  nightlyLog = runScript('build/nightly.ts', [
    '--ref',
    'test/fixtures/ref-small',
    '--log',
    join(tmp, 'log'),
    '--artifacts',
    join(tmp, 'artifacts'),
    '--bundles',
    join(tmp, 'bundles'),
  ]).stderr;
  writeFeed(Date.now() / 1000);
  server = await startServerProcess([
    '--feed',
    feed,
    '--artifacts',
    join(tmp, 'artifacts'),
    '--bundles',
    join(tmp, 'bundles'),
    '--state',
    join(tmp, 'state'),
    '--stations',
    join(ROOT, 'data/demo/feeders.json'),
  ]);
});
after(async () => {
  await server?.stop();
  // the built tree is about 100k files: a run must not leave it behind in /tmp
  rmSync(tmp, { recursive: true, force: true });
});

const get = (path: string, schema?: string, headers?: Record<string, string>) => httpGet(server.base + path, { schema, headers });

test('the nightly build publishes a version and says what it did', () => {
  assert.match(nightlyLog, /published build \d{8}T\d{6}Z: \d+ objects/);
  assert.match(nightlyLog, /archive through 2023-08-30/);
});

test('live routes answer from the feed file, with the archive date from the published build', async () => {
  const now = await eventually(async () => {
    const r = await get('/v1/now', 'now');
    assert.equal(r.status, 200);
    return r;
  });
  assert.equal(now.json.aircraft_count, sample.aircraft.filter((a: { hex: string }) => !a.hex.startsWith('~')).length);
  assert.equal(now.json.archive_through, '2023-08-30');
  const all = await get('/v1/aircraft', 'aircraft-list', { 'accept-encoding': 'gzip' });
  assert.equal(all.status, 200);
  assert.equal(all.json.total, now.json.aircraft_count);
  const withPos = all.json.aircraft.find((a: { lat?: number }) => a.lat !== undefined);
  const pt = await get(`/v2/point/${withPos.lat}/${withPos.lon}/50`, 'point');
  assert.equal(pt.json.ac[0].hex, withPos.hex, 'the aircraft at the query point comes first');
  const trace = await get(`/v1/trace/${withPos.hex.toUpperCase()}`, 'trace');
  assert.equal(trace.status, 200);
  assert.equal(trace.json.hex, withPos.hex);
  assert.equal((await get('/v1/estimated', 'estimated')).status, 200);
});

test('every history route answers from the published build, gzip passed through when accepted', async () => {
  const airframe = await get('/v1/airframes/A3C78C', 'airframe', { 'accept-encoding': 'gzip' });
  assert.equal(airframe.status, 200);
  assert.equal(airframe.headers['content-encoding'], 'gzip');
  assert.equal(airframe.headers['cache-control'], 'public, max-age=3600, s-maxage=3600');
  assert.ok(airframe.json.legs.length >= 2, 'the PA-28 of the sample flew at least two legs');
  const singular = await get('/v1/airframe/a3c78c', 'airframe');
  assert.deepEqual(singular.json, airframe.json, 'the singular spelling serves the same document');
  assert.equal(singular.headers['content-encoding'], undefined, 'decompressed for a client without gzip');

  const byIata = await get('/v1/airports/msp', 'airport');
  const byIcao = await get('/v1/airports/KMSP', 'airport');
  assert.equal(byIata.json.ident, 'KMSP');
  assert.deepEqual(byIata.json, byIcao.json);
  assert.equal(byIata.json.times, 'local');
  assert.equal(byIata.json.coverage, 'observed');

  assert.equal((await get('/v1/alliances/star-alliance', 'alliance')).status, 200);
  assert.equal((await get('/v1/alliances/star-alliance/routes', 'alliance-routes')).status, 200);
  const routes = await get('/v1/routes?callsigns=UAL1,ZZZ999', 'routes');
  assert.deepEqual(Object.keys(routes.json.routes), ['UAL1', 'ZZZ999']);
  assert.equal(routes.json.routes.ZZZ999, null);
  const ual1 = routes.json.routes.UAL1;
  if (ual1) {
    const one = await get('/v1/route/UAL1', 'route');
    assert.deepEqual([one.json.org, one.json.dst], ual1);
  }
  assert.equal((await get('/v1/refdata/types/a320', 'refdata-type')).json.designator, 'A320');
  assert.equal((await get('/v1/refdata/airports/kmsp', 'refdata-airport')).status, 200);
  assert.equal((await get('/v1/refdata/airlines', 'refdata-airlines')).status, 200);
  assert.equal((await get('/v1/refdata/airlines/DAL', 'refdata-airline')).status, 200);
});

test("the researchers' files of the build are listed and served as they are, in byte ranges too", async () => {
  const index = await get('/v1/bundles', 'bundles-index');
  assert.equal(index.status, 200);
  assert.deepEqual(
    index.json.log.map((e: { day: string }) => e.day),
    ['2023-08-30'],
    "the sample's day",
  );
  const day = index.json.log[0];
  const file = await get(day.path, undefined, { 'accept-encoding': 'gzip' });
  assert.equal(file.status, 200);
  assert.equal(file.headers['content-type'], 'application/vnd.apache.parquet');
  assert.equal(file.headers['content-encoding'], undefined);
  assert.equal(file.wireBytes, day.bytes);
  const footer = await get(day.path, undefined, { range: 'bytes=-4' });
  assert.equal(footer.status, 206);
  assert.equal(footer.text, 'PAR1', "a remote reader's first question: the footer");
  assert.equal(footer.headers['content-range'], `bytes ${day.bytes - 4}-${day.bytes - 1}/${day.bytes}`);
  assert.deepEqual(
    index.json.tables.map((t: { name: string }) => t.name),
    ['airframes', 'airports', 'routes'],
  );
});

test('404s say not_found for unknown keys and not_observed for real but unheard ones; 422 for malformed keys', async () => {
  const unheard = await get('/v1/airframes/4b1814'); // a Swiss address (allocated block), not in the sample
  assert.equal(unheard.status, 404);
  assert.equal(unheard.json.error, 'not_observed');
  const traceUnheard = await get('/v1/trace/4b1814');
  assert.equal(traceUnheard.json.error, 'not_observed');
  assert.equal((await get('/v1/airports/XQX')).json.error, 'not_found');
  for (const bad of [
    '/v1/airframes/zzzzzz',
    '/v1/airframes/4b18',
    '/v1/airports/A',
    '/v1/alliances/Star_Alliance',
    '/v1/routes',
    '/v1/route/!!',
    '/v1/trace/12345g',
  ]) {
    const r = await get(bad);
    assert.equal(r.status, 422, `${bad} must be 422`);
    assert.equal(r.json.error, 'invalid_request');
  }
  const tooMany = Array.from({ length: 81 }, (_, i) => `UAL${i + 1}`).join(',');
  assert.equal((await get(`/v1/routes?callsigns=${tooMany}`)).status, 422);
});

test('a stale feed is a 503 stale_snapshot with Retry-After, never an empty sky', async () => {
  // a server of its own whose decoder last wrote an hour ago: the shared server would refuse an
  // older \`now\` than the one it holds (a clock going backwards, docs/api.md) and serve its own
  // snapshot until that one ages out
  const staleFeed = join(tmp, 'stale-aircraft.json');
  const write = (now: number) => {
    writeFileSync(`${staleFeed}.tmp`, JSON.stringify({ ...sample, now }));
    renameSync(`${staleFeed}.tmp`, staleFeed);
  };
  write(Date.now() / 1000 - 3600);
  const stale = await startServerProcess(['--feed', staleFeed, '--artifacts', join(tmp, 'artifacts'), '--state', join(tmp, 'state3')]);
  try {
    const r = await eventually(async () => {
      const x = await httpGet(`${stale.base}/v1/aircraft`);
      assert.equal(x.status, 503);
      return x;
    });
    assert.equal(r.json.error, 'stale_snapshot');
    assert.ok(Number(r.headers['retry-after']) > 0, "Number(r.headers['retry-after']) > 0");
    assert.equal((await httpGet(`${stale.base}/v1/now`)).status, 503);
    // the decoder writes again: live at once
    write(Date.now() / 1000);
    await eventually(async () => assert.equal((await httpGet(`${stale.base}/v1/now`)).status, 200));
  } finally {
    await stale.stop();
  }
});

test('without a published tree, history routes answer 503 artifact_unavailable and /v1/now says archive_through null', async () => {
  const bare = await startServerProcess(['--feed', feed, '--artifacts', join(tmp, 'nothing-here'), '--state', join(tmp, 'state2')]);
  try {
    const r = await httpGet(`${bare.base}/v1/airframes/a3c78c`);
    assert.equal(r.status, 503);
    assert.equal(r.json.error, 'artifact_unavailable');
    assert.ok(r.headers['retry-after'], "r.headers['retry-after']");
    const now = await eventually(async () => {
      const x = await httpGet(`${bare.base}/v1/now`, { schema: 'now' });
      assert.equal(x.status, 200);
      return x;
    });
    assert.equal(now.json.archive_through, null);
    assert.equal(now.json.station_count, null, 'no feeder list configured: presence unavailable');
    const bundles = await httpGet(`${bare.base}/v1/bundles`);
    assert.equal(bundles.status, 404, 'no --bundles: nothing listed');
    assert.equal(bundles.json.error, 'not_found');
  } finally {
    await bare.stop();
  }
});
