// /v1/now, /v1/aircraft, /v2/point on the real uWebSockets.js server with a pinned clock;
// every response is checked against its schema by the helper.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { serve, type TestServer } from '../../helpers/http.ts';
import { parseFeed } from '../../../server/feed/parse.ts';
import type { AircraftRecord, FeedSnapshot } from '../../../server/feed/record.ts';
import { LiveState } from '../../../server/live/state.ts';
import { nowRoutes } from '../../../server/handlers/now.ts';
import { aircraftRoutes } from '../../../server/handlers/aircraft.ts';
import { pointRoutes } from '../../../server/handlers/point.ts';
import { destinationPoint, distanceNm } from '../../../lib/geo.ts';

process.env.TZ = 'UTC';
const parsed = parseFeed(readFileSync(new URL('../../fixtures/feed/readsb_sample.json', import.meta.url)));
if (!parsed.ok) throw new Error(parsed.detail);
const SAMPLE = parsed.snapshot;
const SNAP_MS = SAMPLE.now * 1000;

function routesFor(live: LiveState, stations: number | null = null, archive: string | null = null) {
  return [...nowRoutes({ live, stationCount: () => stations, archiveThrough: () => archive }), ...aircraftRoutes(live), ...pointRoutes(live, () => 7)];
}

async function withServer(live: LiveState, clock: () => number, f: (s: TestServer) => Promise<void>, extra: [number | null, string | null] = [null, null]) {
  const s = await serve(routesFor(live, ...extra), { clock, rateLimits: false });
  try {
    await f(s);
  } finally {
    s.close();
  }
}

const LIVE_PATHS = ['/v1/now', '/v1/aircraft', '/v1/aircraft?bbox=5,45,15,55', '/v2/point/50/8.5/25'];

test('before the first snapshot every live route answers 503 stale_snapshot with Retry-After', async () => {
  await withServer(
    new LiveState(),
    () => SNAP_MS,
    async (s) => {
      for (const p of LIVE_PATHS) {
        const r = await s.get(p);
        assert.equal(r.status, 503, p);
        assert.equal(r.json.error, 'stale_snapshot');
        assert.equal(r.headers['retry-after'], '5');
        assert.match(r.json.detail, /no live snapshot/);
      }
    },
  );
});

test('a snapshot is served up to 60 s old and answers 503 past that, never an empty sky', async () => {
  const live = new LiveState({ maxAgeS: 60 });
  live.accept(SAMPLE, SAMPLE.now);
  let now = SNAP_MS + 60_000;
  await withServer(
    live,
    () => now,
    async (s) => {
      for (const p of LIVE_PATHS) assert.equal((await s.get(p)).status, 200, p);
      now = SNAP_MS + 61_000;
      for (const p of LIVE_PATHS) {
        const r = await s.get(p);
        assert.equal(r.status, 503, p);
        assert.equal(r.json.error, 'stale_snapshot');
        assert.match(r.json.detail, /61 s old \(limit 60 s\)/);
        assert.ok(Number(r.headers['retry-after']) >= 1, "Number(r.headers['retry-after']) >= 1");
      }
      // a fresh snapshot heals it
      live.accept({ ...SAMPLE, now: now / 1000 }, now / 1000);
      assert.equal((await s.get('/v1/now', { schema: 'now' })).status, 200);
    },
  );
});

test('/v1/now counts the snapshot; station_count and archive_through come from their sources', async () => {
  const live = new LiveState();
  live.accept(SAMPLE, SAMPLE.now);
  const withPos = SAMPLE.aircraft.filter((a) => a.lat !== undefined).length;
  await withServer(
    live,
    () => SNAP_MS + 5000,
    async (s) => {
      const r = await s.get('/v1/now', { schema: 'now' });
      assert.deepEqual(r.json, {
        aircraft_count: SAMPLE.aircraft.length,
        aircraft_with_pos: withPos,
        station_count: null,
        generated_at: SAMPLE.now,
        archive_through: null,
      });
      assert.equal(r.headers['cache-control'], 'public, max-age=5, s-maxage=10');
    },
  );
  await withServer(
    live,
    () => SNAP_MS,
    async (s) => {
      const r = await s.get('/v1/now', { schema: 'now' });
      assert.equal(r.json.station_count, 12);
      assert.equal(r.json.archive_through, '2026-11-21');
    },
    [12, '2026-11-21'],
  );
});

test('/v1/aircraft without bbox is the whole snapshot, identical raw and gzipped', async () => {
  const live = new LiveState();
  live.accept(SAMPLE, SAMPLE.now);
  await withServer(
    live,
    () => SNAP_MS,
    async (s) => {
      const plain = await s.get('/v1/aircraft', { schema: 'aircraft-list' });
      assert.equal(plain.headers['content-encoding'], undefined);
      assert.equal(plain.json.generated_at, SAMPLE.now);
      assert.equal(plain.json.total, SAMPLE.aircraft.length);
      assert.equal(plain.json.with_position, SAMPLE.aircraft.filter((a) => a.lat !== undefined).length);
      assert.deepEqual(plain.json.aircraft, SAMPLE.aircraft);
      const gz = await s.get('/v1/aircraft', { schema: 'aircraft-list', headers: { 'accept-encoding': 'gzip' } });
      assert.equal(gz.headers['content-encoding'], 'gzip');
      assert.ok(gz.wireBytes < plain.wireBytes / 3, 'gz.wireBytes < plain.wireBytes / 3');
      assert.equal(gz.text, plain.text);
      assert.equal(plain.headers['cache-control'], 'public, max-age=5, s-maxage=10');
    },
  );
});

test('/v1/aircraft in brotli: made with the snapshots while clients ask for it, gzip for the first asker, a quick brotli made once for a br-only one', async () => {
  const live = new LiveState();
  await live.acceptWhenReady(SAMPLE, SAMPLE.now);
  await withServer(
    live,
    () => SNAP_MS,
    async (s) => {
      const plain = await s.get('/v1/aircraft');
      const first = await s.get('/v1/aircraft', { schema: 'aircraft-list', headers: { 'accept-encoding': 'gzip, deflate, br' } });
      assert.equal(first.headers['content-encoding'], 'gzip', 'no brotli made yet: the gzip prepared with the snapshot');
      const onlyBr = await s.get('/v1/aircraft', { schema: 'aircraft-list', headers: { 'accept-encoding': 'br' } });
      // issue 47: a client that takes brotli alone no longer gets the whole body as it is
      assert.equal(onlyBr.headers['content-encoding'], 'br', 'a client that takes brotli alone gets brotli, made here once for the snapshot');
      assert.ok(onlyBr.wireBytes < plain.wireBytes / 3, 'onlyBr.wireBytes < plain.wireBytes / 3');
      assert.deepEqual(onlyBr.json.aircraft, plain.json.aircraft);
      // the next snapshot is made with its brotli, since clients asked
      await live.acceptWhenReady({ ...SAMPLE, now: SAMPLE.now + 1 }, SAMPLE.now + 1);
      const br = await s.get('/v1/aircraft', { schema: 'aircraft-list', headers: { 'accept-encoding': 'gzip, deflate, br' } });
      assert.equal(br.headers['content-encoding'], 'br');
      assert.equal(br.headers.vary, 'Accept-Encoding');
      assert.ok(br.wireBytes < plain.wireBytes / 3, 'br.wireBytes < plain.wireBytes / 3');
      assert.deepEqual(br.json.aircraft, plain.json.aircraft);
      const gz = await s.get('/v1/aircraft', { headers: { 'accept-encoding': 'gzip, br;q=0' } });
      assert.equal(gz.headers['content-encoding'], 'gzip', 'br refused with q=0');
    },
  );
  // nobody asked for a while: snapshots come without it again
  const later = SAMPLE.now + 1000;
  await live.acceptWhenReady({ ...SAMPLE, now: later }, later);
  assert.equal(live.current(later * 1000).brotliReady(), undefined);
});

test('/v1/aircraft bbox lists only aircraft with a position inside, across the antimeridian; total stays whole', async () => {
  const live = new LiveState();
  live.accept(SAMPLE, SAMPLE.now);
  const inside = (a: AircraftRecord, w: number, s: number, e: number, n: number) =>
    a.lat !== undefined && a.lon !== undefined && a.lat >= s && a.lat <= n && (w <= e ? a.lon >= w && a.lon <= e : a.lon >= w || a.lon <= e);
  await withServer(
    live,
    () => SNAP_MS,
    async (s) => {
      for (const [w, so, e, n] of [
        [175, -90, -175, 90],
        [5, 45, 15, 55],
        [-10, -10, -5, -5],
      ] as const) {
        const r = await s.get(`/v1/aircraft?bbox=${w},${so},${e},${n}&unknown=1`, { schema: 'aircraft-list' });
        const expect = SAMPLE.aircraft.filter((a) => inside(a, w, so, e, n));
        assert.deepEqual(r.json.aircraft, expect, `${w},${so},${e},${n}`);
        assert.equal(r.json.total, SAMPLE.aircraft.length);
        if (w > e) assert.ok(expect.some((a) => a.lon! > 0) && expect.some((a) => a.lon! < 0), 'both sides of the antimeridian');
      }
      const bad = await s.get('/v1/aircraft?bbox=5,55,15,45');
      assert.equal(bad.status, 422);
      assert.equal(bad.json.error, 'invalid_request');
      assert.match(bad.json.detail, /swap them/);
      assert.equal((await s.get('/v1/aircraft?bbox=1,2,3')).status, 422);
      assert.equal((await s.get(`/v1/aircraft?bbox=${'1'.repeat(81)}`)).status, 422);
    },
  );
});

test('/v2/point: nearest first with great-circle dst, radius capped at 250 nm, times in seconds', async () => {
  // synthetic aircraft at known distances from 50,8.5, in scrambled order
  const at = (hex: string, brg: number, d: number): AircraftRecord => ({ hex, ...destinationPoint(50, 8.5, brg, d), alt_baro: 1000 });
  const snap: FeedSnapshot = {
    now: 1795312389.5,
    aircraft: [at('aaaaa5', 10, 900), at('aaaaa2', 200, 100), at('aaaaa4', 0, 251), at('aaaaa1', 90, 0.5), at('aaaaa3', 300, 249.9), { hex: 'aaaaa6' }],
  };
  const live = new LiveState();
  live.accept(snap, snap.now);
  await withServer(
    live,
    () => 1795312390_000,
    async (s) => {
      const r = await s.get('/v2/point/50.0/8.5/1000', { schema: 'point' });
      assert.deepEqual(
        r.json.ac.map((a: AircraftRecord) => a.hex),
        ['aaaaa1', 'aaaaa2', 'aaaaa3'],
      );
      for (const a of r.json.ac)
        assert.ok(Math.abs(a.dst - distanceNm(50, 8.5, a.lat, a.lon)) <= 0.0005, 'Math.abs(a.dst - distanceNm(50, 8.5, a.lat, a.lon)) <= 0.0005');
      assert.equal(r.json.ac[1].dst, 100);
      assert.equal(r.json.msg, 'No error');
      assert.equal(r.json.now, 1795312389.5);
      assert.equal(r.json.ctime, 1795312389.5);
      assert.equal(r.json.total, 3);
      assert.equal(r.json.ptime, 0);
      assert.equal(r.headers['cache-control'], 'public, max-age=5, s-maxage=5');
      const small = await s.get('/v2/point/50/8.5/50', { schema: 'point' });
      assert.deepEqual(
        small.json.ac.map((a: AircraftRecord) => a.hex),
        ['aaaaa1'],
      );
      const none = await s.get('/v2/point/-33.9/151.2/250', { schema: 'point' });
      assert.deepEqual(none.json.ac, []);
      assert.equal(none.json.total, 0);
      for (const bad of ['/v2/point/abc/8.5/25', '/v2/point/50/8.5/-5', '/v2/point/91/8.5/25', '/v2/point/50/181/25', '/v2/point/50/8.5/Infinity']) {
        const b = await s.get(bad);
        assert.equal(b.status, 422, bad);
        assert.equal(b.json.error, 'invalid_request');
      }
    },
  );
});

test('/v2/point over the real sample matches brute force, including across the antimeridian', async () => {
  const live = new LiveState();
  live.accept(SAMPLE, SAMPLE.now);
  await withServer(
    live,
    () => SNAP_MS,
    async (s) => {
      for (const [lat, lon, rad] of [
        [50, 8.5, 25],
        [50, 8.5, 250],
        [70, 179.9, 250],
        [60, -179.5, 200],
      ] as const) {
        const r = await s.get(`/v2/point/${lat}/${lon}/${rad}`, { schema: 'point' });
        const expect = SAMPLE.aircraft
          .filter((a) => a.lat !== undefined && distanceNm(lat, lon, a.lat, a.lon!) <= rad)
          .sort((a, b) => distanceNm(lat, lon, a.lat!, a.lon!) - distanceNm(lat, lon, b.lat!, b.lon!));
        assert.deepEqual(
          r.json.ac.map((a: AircraftRecord) => a.hex),
          expect.map((a) => a.hex),
          `${lat},${lon},${rad}`,
        );
        assert.ok(expect.length > 0, 'the query finds something');
        // each record is the 2.1 record plus dst
        for (let i = 0; i < expect.length; i++) {
          const { dst, ...rest } = r.json.ac[i];
          assert.deepEqual(rest, expect[i]);
          assert.equal(typeof dst, 'number');
        }
      }
    },
  );
});
