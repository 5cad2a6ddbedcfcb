// /v1/stations and /v1/stations/{uuid} on the real server: schemas, caching headers, 422/404, and a lookup whose work does not depend on existence.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { timingSafeEqual } from 'node:crypto';
import { serve } from '../../helpers/http.ts';
import { stationRoutes } from '../../../server/handlers/stations.ts';
import { StationKeys } from '../../../server/stations/ids.ts';
import { parseFeederList } from '../../../server/stations/parse.ts';
import { Roster } from '../../../server/stations/roster.ts';

const T0 = 1795435200;
const U1 = '5b0c3f2e-9a41-4d7e-8c55-0e6f1a2b3c4d';
const U2 = 'e2d1c0b9-a8f7-4e6d-9c5b-4a3928170615';
const UNKNOWN = '0d6e3a51-7c2b-4f19-a8e4-93b1c5d7e2f0';
const keys = new StationKeys(Buffer.alloc(32, 7));

function rosterWith(gen: number, feeders: Record<string, unknown>[], r = new Roster()): Roster {
  const p = parseFeederList(JSON.stringify({ generated_at: gen, feeders }), keys);
  assert.ok(p.ok, 'p.ok');
  r.apply(p.list, gen * 1000, (k) => keys.publicId(k));
  return r;
}

test('GET /v1/stations: the public roster, schema-valid, cached 30 s, updated when the roster changes', async () => {
  let now = T0 * 1000;
  const roster = rosterWith(T0, [{ uuid: U1, lat: 47.4581, lon: 8.5555, connected: true, ip: '192.0.2.9' }]);
  const s = await serve(stationRoutes({ roster, keys }), { clock: () => now });
  try {
    const a = await s.get('/v1/stations', { schema: 'stations' });
    assert.equal(a.status, 200);
    assert.equal(a.headers['cache-control'], 'public, max-age=30, s-maxage=30');
    assert.deepEqual(a.json, {
      stations: [
        {
          id: keys.publicId(keys.key(U1)),
          coarse_lat: 47.5,
          coarse_lon: 8.6,
          position_source: 'reported',
          first_seen: '2026-11-23T12:00:00Z',
          last_seen: '2026-11-23T12:00:00Z',
          online: true,
        },
      ],
    });
    rosterWith(T0 + 10, [{ uuid: U2, lat: 50.0379, lon: 8.5622, connected: true }], roster);
    now = (T0 + 10) * 1000;
    const b = await s.get('/v1/stations', { schema: 'stations' });
    assert.deepEqual(b.json.stations.map((e: { online: boolean }) => e.online).sort(), [false, true]);
    now = (T0 + 500) * 1000;
    const c = await s.get('/v1/stations', { schema: 'stations', headers: { 'accept-encoding': 'gzip' } });
    assert.ok(
      c.json.stations.every((e: { online: boolean }) => !e.online),
      'stale presence: the prepared body is rebuilt, everyone offline',
    );
  } finally {
    s.close();
  }
});

test('GET /v1/stations/{uuid}: the private status for any spelling of a known UUID, never cached', async () => {
  const roster = rosterWith(T0, [
    { uuid: U1, lat: 47.4581, lon: 8.5555, connected: true, software: 'readsb 3.14', messages: 10, positions: 2, aircraft: 1, connected_since: T0 - 5 },
  ]);
  const s = await serve(stationRoutes({ roster, keys }), { clock: () => (T0 + 1) * 1000 });
  try {
    for (const spelling of [U1, U1.toUpperCase(), U1.replace(/-/g, '')]) {
      const r = await s.get(`/v1/stations/${spelling}`, { schema: 'station-status' });
      assert.equal(r.status, 200, spelling);
      assert.equal(r.headers['cache-control'], 'private, no-store');
      assert.equal(r.json.id, keys.publicId(keys.key(U1)));
      assert.deepEqual(
        [r.json.lat, r.json.lon, r.json.online, r.json.software, r.json.connected_since],
        [47.4581, 8.5555, true, 'readsb 3.14', '2026-11-23T11:59:55Z'],
      );
      assert.ok(!r.text.includes(U1) && !r.text.includes(U1.replace(/-/g, '')), 'the UUID is not echoed');
    }
  } finally {
    s.close();
  }
});

test('a malformed UUID answers 422 without echoing it; an unknown one 404', async () => {
  const roster = rosterWith(T0, [{ uuid: U1, lat: 47.4581, lon: 8.5555, connected: true }]);
  const s = await serve(stationRoutes({ roster, keys }), { clock: () => T0 * 1000 });
  try {
    for (const bad of [
      'x',
      U1.slice(0, 35),
      U1 + 'a',
      U1.replace('5', 'z'),
      '00000000-0000-0000-0000-000000000000',
      '%7B' + U1 + '%7D',
      'g'.repeat(32),
      '-'.repeat(36),
    ]) {
      const r = await s.get(`/v1/stations/${bad}`);
      assert.equal(r.status, 422, bad);
      assert.equal(r.json.error, 'invalid_request');
      if (bad.length > 8) assert.ok(!r.text.includes(bad), 'input not echoed');
    }
    const nf = await s.get(`/v1/stations/${UNKNOWN}`);
    assert.equal(nf.status, 404);
    assert.equal(nf.json.error, 'not_found');
    assert.equal((await s.get(`/v1/stations/${U2}`)).status, 404);
  } finally {
    s.close();
  }
});

test('the lookup does the same work whether or not the UUID exists, whatever the roster size: one constant-time compare', () => {
  const feeders = (n: number) =>
    Array.from({ length: n }, (_, i) => ({
      uuid: `${(i + 1).toString(16).padStart(8, '0')}-1111-4222-8333-444455556666`,
      lat: 10 + i / 100,
      lon: 20,
      connected: true,
    }));
  const counting = () => {
    const c = { n: 0 };
    return { c, eq: (a: Buffer, b: Buffer) => (c.n++, timingSafeEqual(a, b)) };
  };
  for (const size of [50, 5000]) {
    const list = feeders(size);
    const roster = rosterWith(T0, list);
    const first = counting();
    const last = counting();
    const none = counting();
    assert.equal(roster.status(keys.key(list[0]!.uuid), T0 * 1000, first.eq)!.id, keys.publicId(keys.key(list[0]!.uuid)));
    assert.equal(roster.status(keys.key(list[size - 1]!.uuid), T0 * 1000, last.eq)!.id, keys.publicId(keys.key(list[size - 1]!.uuid)));
    assert.equal(roster.status(keys.key(UNKNOWN), T0 * 1000, none.eq), null);
    assert.deepEqual([first.c.n, last.c.n, none.c.n], [1, 1, 1], `${size} stations`);
  }
  // an empty roster, and a key that is not stored, find nothing
  assert.equal(new Roster().status(keys.key(U1), T0 * 1000), null);
  assert.equal(rosterWith(T0, feeders(3)).status(Buffer.alloc(32, 9), T0 * 1000), null);
});

test('station_count is prepared once per roster change: the same answer as counting, and it follows the next list', () => {
  const list = Array.from({ length: 40 }, (_, i) => ({
    uuid: `${(i + 1).toString(16).padStart(8, '0')}-1111-4222-8333-444455556666`,
    lat: 10,
    lon: 20,
    connected: i % 4 !== 0,
  }));
  const roster = rosterWith(T0, list);
  assert.equal(roster.stationCount(T0 * 1000), 30);
  assert.equal(roster.stationCount(T0 * 1000 + 5000), 30, 'asked again: the same');
  rosterWith(
    T0 + 10,
    list.slice(0, 10).map((f) => ({ ...f, connected: true })),
    roster,
  );
  assert.equal(roster.stationCount((T0 + 10) * 1000), 10, 'the next list: only those it lists as connected');
  assert.equal(roster.stationCount((T0 + 500) * 1000), null, 'presence stale: null, never 0');
});
