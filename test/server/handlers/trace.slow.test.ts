import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serve } from '../../helpers/http.ts';
import { TraceStore } from '../../../server/trace/trace-store.ts';
import { traceRoutes } from '../../../server/handlers/trace.ts';
import { LiveState } from '../../../server/live/state.ts';
import type { AircraftRecord } from '../../../server/feed/record.ts';

process.env.TZ = 'UTC';
const T0 = 1_700_000_000;
const NOW_MS = (T0 + 1801) * 1000;

function store(): TraceStore {
  const s = new TraceStore({ minutes: 30 });
  const at = (dt: number, a: AircraftRecord[]) => s.update({ now: T0 + dt, aircraft: a });
  // 4b1814: taxi, take-off and climb; its first point falls out of the window at T0 + 1800
  at(0, [{ hex: '4b1814', lat: 47.45, lon: 8.55, alt_baro: 'ground', gs: 10, seen_pos: 0 }]);
  at(600, [{ hex: '4b1814', lat: 47.451, lon: 8.551, alt_baro: 'ground', gs: 12, seen_pos: 0 }]);
  at(620, [{ hex: '4b1814', lat: 47.46, lon: 8.56, alt_baro: 'ground', gs: 140, seen_pos: 0 }]);
  for (let i = 1; i <= 20; i++)
    at(620 + i * 10, [{ hex: '4b1814', lat: 47.46 + i * 0.01, lon: 8.56, alt_baro: 500 + i * 300, gs: 180, track: 0, seen_pos: 0 }]);
  // a0a0a0 heard once, long ago
  at(-100, [{ hex: 'a0a0a0', lat: 40, lon: -100, alt_baro: 30000, seen_pos: 0 }]);
  return s;
}

test('GET /v1/trace/{hex}: points oldest first within the 30-minute window, with the heard take-off', async () => {
  const s = await serve(traceRoutes({ traces: store() }), { clock: () => NOW_MS });
  try {
    const r = await s.get('/v1/trace/4b1814', { schema: 'trace' });
    assert.equal(r.status, 200);
    const pts = r.json.points as [number, number, number, unknown, unknown][];
    assert.equal(pts[0]![0], T0 + 600); // T0 is 30 min 1 s old: out
    // taxi and roll kept; the steady 1,800 ft/min climb thinned to one point per 30 s (trace-store.ts)
    assert.deepEqual(
      pts.map((p) => p[0] - T0),
      [600, 620, 630, 640, 670, 700, 730, 760, 790, 820],
    );
    for (let i = 1; i < pts.length; i++) assert.ok(pts[i]![0] > pts[i - 1]![0], 'pts[i]![0] > pts[i - 1]![0]');
    assert.deepEqual(r.json.departure, { at: T0 + 620, lat: 47.46, lon: 8.56, alt_ft: 0 });
    assert.equal(r.json.arrival, null);
    assert.match(r.headers['cache-control'] ?? '', /s-maxage=5/);
  } finally {
    s.close();
  }
});

test('the hex is case-insensitive and answered lower-case', async () => {
  const s = await serve(traceRoutes({ traces: store() }), { clock: () => NOW_MS });
  try {
    const r = await s.get('/v1/trace/4B1814', { schema: 'trace' });
    assert.equal(r.status, 200);
    assert.equal(r.json.hex, '4b1814');
  } finally {
    s.close();
  }
});

test('malformed hex paths are 422 invalid_request and the detail says what a hex looks like', async () => {
  const s = await serve(traceRoutes({ traces: store() }), { clock: () => NOW_MS });
  try {
    for (const p of ['xyz', '4b181', '4b18140', 'zz1814', '4b18%20', '%zz', '-1', '4b1814.json']) {
      const r = await s.get(`/v1/trace/${p}`);
      assert.equal(r.status, 422, p);
      assert.equal(r.json.error, 'invalid_request', p);
      assert.match(r.json.detail, p === '%zz' ? /percent-encoding/ : /6 hexadecimal characters/, p);
    }
  } finally {
    s.close();
  }
});

test('no points: 404 not_observed for a real ICAO address, not_found for one in no allocated block', async () => {
  const known = (hex: string) => hex !== 'ffffff';
  const s = await serve(traceRoutes({ traces: store(), isKnownHex: known }), { clock: () => NOW_MS });
  try {
    const aged = await s.get('/v1/trace/a0a0a0');
    assert.deepEqual([aged.status, aged.json.error], [404, 'not_observed']);
    assert.match(aged.json.detail, /30 minutes/);
    const never = await s.get('/v1/trace/abcdef');
    assert.deepEqual([never.status, never.json.error], [404, 'not_observed']);
    const bogus = await s.get('/v1/trace/FFFFFF');
    assert.deepEqual([bogus.status, bogus.json.error], [404, 'not_found']);
  } finally {
    s.close();
  }
});

test('without reference data every miss is not_observed', async () => {
  const s = await serve(traceRoutes({ traces: store() }), { clock: () => NOW_MS });
  try {
    const r = await s.get('/v1/trace/ffffff');
    assert.deepEqual([r.status, r.json.error], [404, 'not_observed']);
  } finally {
    s.close();
  }
});

test('a stale snapshot makes the trace 503 stale_snapshot too: a trace is live data (spec 1 rule 5)', async () => {
  const live = new LiveState({ maxAgeS: 60, eagerGzip: false });
  live.accept({ now: T0 + 800, aircraft: [] }, T0 + 800);
  const s = await serve(traceRoutes({ traces: store(), assertFresh: (ms) => void live.current(ms) }), { clock: () => NOW_MS });
  try {
    // NOW_MS is T0 + 1801: the snapshot from T0 + 800 is 1001 s old
    const r = await s.get('/v1/trace/4b1814');
    assert.equal(r.status, 503);
    assert.equal(r.json.error, 'stale_snapshot');
    assert.ok(Number(r.headers['retry-after']) > 0, "Number(r.headers['retry-after']) > 0");
    assert.equal(r.headers['cache-control'], 'no-store');
  } finally {
    s.close();
  }
});
