// GET /v1/estimated on the real HTTP boundary: every response checked against schemas/estimated.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serve } from '../../helpers/http.ts';
import { staleSnapshot } from '../../../lib/errors.ts';
import type { Accuracy } from '../../../lib/estimate/accuracy.ts';
import { METHOD_ID } from '../../../lib/estimate/fly.ts';
import { Tracker } from '../../../server/estimate/tracker.ts';
import type { AircraftRecord } from '../../../server/feed/record.ts';
import { estimatedRoutes } from '../../../server/handlers/estimated.ts';

const T = 1_790_000_000;
const BAW: AircraftRecord = { hex: '400abc', flight: 'BAW117', t: 'B772', lat: 52, lon: -20, alt_baro: 37000, gs: 480, track: 265, seen: 0, seen_pos: 0 };
const QUIET: AircraftRecord = { hex: '3c4b26', lat: 48, lon: 5, alt_baro: 35000, gs: 430, track: 120, seen: 0 };
const CLIMBING: AircraftRecord = { hex: '4ca123', flight: 'RYR1', lat: 53, lon: -6, alt_baro: 20000, gs: 380, track: 90, baro_rate: 2500, seen: 0 };
const ACC: Accuracy = { day: '2026-09-19', n: 12, median_km: 8.4, by_gap_min: { '0-5': { n: 5, median_km: 0.4 }, '15-30': { n: 7, median_km: 12.1 } } };

function setup(accuracy: Accuracy | null) {
  const tracker = new Tracker({ destinationOf: (cs) => (cs === 'BAW117' ? { code: 'JFK', lat: 40.6398, lon: -73.7789 } : null) });
  tracker.ingest({ now: T, aircraft: [BAW, QUIET, CLIMBING] });
  let clock = (T + 120) * 1000;
  const routes = estimatedRoutes({
    tracker,
    accuracy: () => accuracy,
    assertFresh: (nowMs) => {
      const age = nowMs / 1000 - (tracker.lastSnapshotS ?? -Infinity);
      if (age > 60) throw staleSnapshot(`the live snapshot is ${Math.floor(age)} s old`, 5);
    },
  });
  return { tracker, routes, setClock: (s: number) => (clock = s * 1000), clock: () => clock };
}

test('lists cruising aircraft that went quiet 90 s ago, with and without a known destination', async () => {
  const { tracker, routes, clock } = setup(ACC);
  tracker.ingest({ now: T + 100, aircraft: [{ ...CLIMBING, seen: 0 }] });
  const s = await serve(routes, { clock });
  try {
    const r = await s.get('/v1/estimated', { schema: 'estimated' });
    assert.equal(r.status, 200);
    assert.equal(r.headers['cache-control'], 'public, max-age=10, s-maxage=15');
    assert.equal(r.json.generated_at, T + 100);
    assert.equal(r.json.method, METHOD_ID);
    assert.ok(r.json.method_note.includes('10 minutes'), "r.json.method_note.includes('10 minutes')");
    assert.deepEqual(r.json.accuracy, ACC);
    assert.deepEqual(
      r.json.aircraft.map((a: { hex: string }) => a.hex),
      ['3c4b26', '400abc'],
      'sorted by hex; the climbing one is absent',
    );
    const [quiet, baw] = r.json.aircraft;
    assert.equal(baw.destination, 'JFK');
    assert.equal(typeof baw.eta, 'number');
    assert.equal(quiet.destination, undefined);
    assert.equal(quiet.eta, undefined);
    assert.equal(quiet.flight, undefined, 'unknown fields are absent, never null');
    assert.ok(
      r.json.aircraft.every((a: { estimated: boolean }) => a.estimated === true),
      'r.json.aircraft.every((a: { estimated: boolean }) => a.estimated === true)',
    );
  } finally {
    s.close();
  }
});

test('accuracy is null before the first night, and an empty list is still a 200', async () => {
  const { tracker, routes, clock } = setup(null);
  tracker.ingest({
    now: T + 100,
    aircraft: [
      { ...BAW, seen: 0 },
      { ...QUIET, seen: 0 },
    ],
  });
  const s = await serve(routes, { clock });
  try {
    const r = await s.get('/v1/estimated', { schema: 'estimated' });
    assert.equal(r.status, 200);
    assert.equal(r.json.accuracy, null);
    assert.deepEqual(r.json.aircraft, []);
  } finally {
    s.close();
  }
});

test('a stale live snapshot is a 503 stale_snapshot, never an estimate of the whole sky', async () => {
  const { routes, setClock, clock } = setup(ACC);
  setClock(T + 61);
  const s = await serve(routes, { clock });
  try {
    const r = await s.get('/v1/estimated');
    assert.equal(r.status, 503);
    assert.equal(r.json.error, 'stale_snapshot');
    assert.equal(r.headers['retry-after'], '5');
  } finally {
    s.close();
  }
});

test('before the first snapshot the route answers 503 stale_snapshot', async () => {
  const tracker = new Tracker({ destinationOf: () => null });
  const routes = estimatedRoutes({ tracker, accuracy: () => null, assertFresh: () => {} });
  const s = await serve(routes, { clock: () => T * 1000 });
  try {
    const r = await s.get('/v1/estimated');
    assert.equal(r.status, 503);
    assert.equal(r.json.error, 'stale_snapshot');
  } finally {
    s.close();
  }
});

test('the body is built once per snapshot and follows the next snapshot and a new accuracy', async () => {
  let acc: Accuracy | null = null;
  const tracker = new Tracker({ destinationOf: () => null });
  tracker.ingest({ now: T, aircraft: [QUIET] });
  tracker.ingest({ now: T + 100, aircraft: [] });
  const [route] = estimatedRoutes({ tracker, accuracy: () => acc, assertFresh: () => {} });
  const req = { method: 'GET', path: '/v1/estimated', query: '', params: {}, ip: '127.0.0.1', nowMs: (T + 100) * 1000, headers: {} };
  const a = await route!.handler(req);
  const b = await route!.handler(req);
  assert.equal(a.body.raw, b.body.raw, 'the same prepared bytes');
  tracker.ingest({ now: T + 101, aircraft: [] });
  const c = await route!.handler(req);
  assert.equal(JSON.parse(c.body.raw!.toString()).generated_at, T + 101);
  acc = ACC;
  const d = await route!.handler(req);
  assert.deepEqual(JSON.parse(d.body.raw!.toString()).accuracy, ACC);
});
