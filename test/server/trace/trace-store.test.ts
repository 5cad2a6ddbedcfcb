import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TraceStore } from '../../../server/trace/trace-store.ts';
import type { AircraftRecord, FeedSnapshot } from '../../../server/feed/record.ts';
import { assertValid } from '../../../schemas/index.ts';
import { sampleTrace } from '../../helpers/traffic.ts';

const T0 = 1_700_000_000;
const snap = (now: number, aircraft: AircraftRecord[]): FeedSnapshot => ({ now, aircraft });
const rec = (hex: string, lat: number, lon: number, extra: Partial<AircraftRecord> = {}): AircraftRecord => ({ hex, lat, lon, seen_pos: 0, ...extra });

test('points come back oldest first as [t, lat, lon, alt_baro, track], valid against the trace schema', () => {
  const s = new TraceStore({ minutes: 30 });
  s.update(snap(T0, [rec('abc123', 47.1, 8.1, { alt_baro: 'ground', track: 90.25, seen_pos: 0.4 })]));
  s.update(snap(T0 + 5, [rec('abc123', 47.2, 8.2, { alt_baro: 1200 })]));
  const doc = s.get('abc123', T0 + 5)!;
  assert.deepEqual(doc.points, [
    [T0 - 0.4, 47.1, 8.1, 'ground', 90.3],
    [T0 + 5, 47.2, 8.2, 1200, null],
  ]);
  assertValid('trace', doc);
});

test('only fresh, changed positions add points: no lat/lon, stale seen_pos, same position or older time add nothing', () => {
  const s = new TraceStore({ minutes: 30 });
  s.update(snap(T0, [rec('abc123', 47, 8)]));
  s.update(snap(T0 + 5, [rec('abc123', 47, 8)])); // did not move
  s.update(snap(T0 + 10, [{ hex: 'abc123', seen_pos: 0 }])); // no position
  s.update(snap(T0 + 15, [rec('abc123', 47.5, 8, { seen_pos: 60 })])); // a held position, 60 s old
  s.update(snap(T0 + 20, [rec('abc123', 47.5, 8, { seen_pos: 25 })])); // older than the last point
  s.update(snap(T0 + 21, [rec('abc123', 47.6, 8, { seen_pos: Number.NaN })]));
  assert.equal(s.get('abc123', T0 + 20)!.points.length, 1);
  assert.equal(s.get('ffffff', T0), null);
});

test('the window: points older than 30 minutes are not served, and an aircraft silent that long is forgotten', () => {
  const s = new TraceStore({ minutes: 30 });
  s.update(snap(T0, [rec('aaaaaa', 1, 1), rec('bbbbbb', 2, 2)]));
  s.update(snap(T0 + 600, [rec('aaaaaa', 1.1, 1)]));
  s.update(snap(T0 + 1700, [rec('aaaaaa', 1.2, 1)]));
  assert.equal(s.size, 2);
  assert.deepEqual(
    s.get('aaaaaa', T0 + 1801)!.points.map((p) => p[0]),
    [T0 + 600, T0 + 1700],
  );
  assert.equal(s.get('bbbbbb', T0 + 1801), null); // held but entirely outside the window
  s.update(snap(T0 + 1801, [rec('aaaaaa', 1.3, 1)]));
  assert.equal(s.size, 1); // bbbbbb forgotten
});

test('hex lookups are case-insensitive', () => {
  const s = new TraceStore({ minutes: 30 });
  s.update(snap(T0, [rec('4b1814', 47, 8)]));
  assert.equal(s.get('4B1814', T0)!.hex, '4b1814');
});

test('memory is bounded: beyond maxAircraft the stalest aircraft goes, beyond maxPoints the oldest points go', () => {
  const s = new TraceStore({ minutes: 30, maxAircraft: 3, maxPoints: 20, minSpacingS: 0, levelSpacingS: 0 });
  for (let i = 0; i < 5; i++) s.update(snap(T0 + i, [rec(`00000${i}`, 10, i)]));
  assert.equal(s.size, 3);
  assert.equal(s.get('000000', T0 + 5), null);
  assert.notEqual(s.get('000004', T0 + 5), null);
  for (let i = 0; i < 100; i++) s.update(snap(T0 + 10 + i, [rec('000004', 10 + i / 100, 4)]));
  const pts = s.get('000004', T0 + 110)!.points;
  assert.equal(pts.length, 20);
  assert.equal(pts[pts.length - 1]![0], T0 + 109);
  assert.equal(pts[0]![0], T0 + 90);
});

test('thinning keeps the shape: every turn, profile change and speed change, and one point per 30 s of straight, level flight', () => {
  const s = new TraceStore({ minutes: 30 });
  const at = (dt: number, lat: number, extra: Partial<AircraftRecord>) =>
    s.update(snap(T0 + dt, [rec('abc123', lat, 8, { gs: 450, alt_baro: 35000, track: 0, ...extra })]));
  // 120 s straight and level, one report a second
  for (let i = 0; i <= 120; i++) at(i, 47 + i * 0.002, {});
  // then a 3 deg/s turn for 20 s, reported every second
  for (let i = 1; i <= 20; i++) at(120 + i, 47.3 + i * 0.001, { track: i * 3 });
  // then a descent starting: level until 160, then 2,000 ft/min
  for (let i = 1; i <= 60; i++) at(140 + i, 47.4 + i * 0.002, { track: 60, alt_baro: i <= 20 ? 35000 : 35000 - (i - 20) * 33 });
  const t = s.get('abc123', T0 + 200)!.points.map((p) => p[0] - T0);
  assert.deepEqual(
    t.filter((x) => x <= 120),
    [0, 30, 60, 90, 120],
    'straight and level: one per 30 s',
  );
  const turn = t.filter((x) => x > 120 && x <= 140);
  assert.deepEqual(turn, [122, 124, 126, 128, 130, 132, 134, 136, 138, 140], 'the turn: a point every 2 s (6 deg)');
  const descent = t.filter((x) => x > 160);
  assert.ok(descent.length >= 1 && descent[0]! <= 165, `the descent's start is kept promptly: ${descent}`);
  // a speed change alone (a take-off roll) keeps points too
  const g = new TraceStore({ minutes: 30 });
  for (let i = 0; i <= 10; i++) g.update(snap(T0 + i * 3, [rec('def456', 47 + i * 0.001, 8, { alt_baro: 'ground', gs: i * 15, track: 90 })]));
  assert.equal(g.get('def456', T0 + 30)!.points.length, 11);
});

test('the take-off is remembered after its points leave the 30-minute window, until the aircraft lands or the UTC day ends', () => {
  const D = 1_700_006_400; // 2023-11-15T00:00:00Z
  const s = new TraceStore({ minutes: 30 });
  const at = (t: number, a: Partial<AircraftRecord>) => s.update(snap(t, [rec('4b1814', a.lat ?? 47, 8, { seen_pos: 0, ...a })]));
  const t0 = D + 6 * 3600;
  at(t0, { lat: 47.45, alt_baro: 'ground', gs: 5, track: 160 });
  at(t0 + 30, { lat: 47.451, alt_baro: 'ground', gs: 140, track: 160 });
  // airborne, then two hours of climb and cruise
  for (let i = 1; i <= 240; i++) at(t0 + 30 + i * 30, { lat: 47.46 + i * 0.02, alt_baro: Math.min(36000, 500 + i * 900), gs: 450, track: 0 });
  const two = s.get('4b1814', t0 + 30 + 240 * 30)!;
  assert.ok(two.points[0]![0] > t0 + 3600, 'the take-off itself left the window long ago');
  assert.deepEqual(two.departure, { at: t0 + 30, lat: 47.451, lon: 8, alt_ft: 0 });
  // the next UTC day: the day's trace no longer holds that take-off
  assert.equal(s.get('4b1814', D + 86400 + 60)?.departure ?? null, null);
});

test('a remembered take-off is shown with its landing, and forgotten once the landing has left the window', () => {
  const s = new TraceStore({ minutes: 30 });
  const at = (t: number, a: Partial<AircraftRecord>) => s.update(snap(t, [rec('4b1815', a.lat ?? 47, 8, { seen_pos: 0, ...a })]));
  const t0 = 1_700_006_400 + 3600;
  at(t0, { lat: 47.45, alt_baro: 'ground', gs: 140, track: 0 });
  for (let i = 1; i <= 80; i++) at(t0 + i * 30, { lat: 47.46 + i * 0.02, alt_baro: Math.min(20000, i * 1000), gs: 300, track: 0 });
  for (let i = 1; i <= 25; i++) at(t0 + 2400 + i * 30, { lat: 49.1 + i * 0.01, alt_baro: Math.max(1000, 20000 - i * 1000), gs: 200, track: 0 });
  const landing = t0 + 2400 + 26 * 30;
  at(landing, { lat: 49.4, alt_baro: 'ground', gs: 120, track: 0 });
  const taxi = (from: number, to: number) => {
    for (let i = from; i <= to; i++) at(landing + i * 30, { lat: 49.4 + i * 0.0001, alt_baro: 'ground', gs: 5, track: (i * 7) % 360 });
  };
  taxi(1, 20);
  // ten minutes after landing: the whole flight, its take-off 53 minutes ago included
  const after = s.get('4b1815', landing + 600)!;
  assert.equal(after.departure?.at, t0 + 30);
  assert.ok(after.arrival, 'after.arrival');
  taxi(21, 70);
  // 35 minutes after: the landing left the window too, and the take-off is forgotten with it
  const later = s.get('4b1815', landing + 35 * 60)!;
  assert.deepEqual([later.departure, later.arrival], [null, null]);
});

test('points closer than minSpacingS are skipped unless they change ground/air state', () => {
  const s = new TraceStore({ minutes: 30, minSpacingS: 4 });
  s.update(snap(T0, [rec('abc123', 47, 8, { alt_baro: 'ground' })]));
  s.update(snap(T0 + 1, [rec('abc123', 47.001, 8, { alt_baro: 'ground' })]));
  s.update(snap(T0 + 2, [rec('abc123', 47.002, 8, { alt_baro: 200 })]));
  s.update(snap(T0 + 3, [rec('abc123', 47.003, 8, { alt_baro: 300 })]));
  assert.deepEqual(
    s.get('abc123', T0 + 3)!.points.map((p) => p[3]),
    ['ground', 200],
  );
});

/** replays a real trace_full as 1 s snapshots: each point arrives when it was heard */
function replay(s: TraceStore, hex: string, from: number, to: number): void {
  const tr = sampleTrace(hex);
  for (const p of tr.points) {
    if (p.t < from || p.t > to) continue;
    const alt_baro = p.alt === null ? undefined : p.alt;
    s.update(
      snap(p.t, [
        rec(hex, p.lat, p.lon, { ...(alt_baro !== undefined && { alt_baro }), ...(p.gs != null && { gs: p.gs }), ...(p.track != null && { track: p.track }) }),
      ]),
    );
  }
}

test('replayed C172 aa178d: after its take-off the trace has a departure; after its landing an arrival', () => {
  const s = new TraceStore({ minutes: 30 });
  const tr = sampleTrace('aa178d');
  const t = (iso: string) => Date.parse(iso) / 1000;
  // first flight: taxi from 17:39, take-off ~17:40:37, landing 17:52:37 (thinned to one point per 4 s)
  replay(s, 'aa178d', tr.points[0]!.t, t('2023-08-30T17:45:00Z'));
  const climbing = s.get('aa178d', t('2023-08-30T17:45:00Z'))!;
  assert.ok(
    climbing.departure && climbing.departure.alt_ft === 0 && Math.abs(climbing.departure.at - t('2023-08-30T17:40:37Z')) <= 4,
    "climbing.departure && climbing.departure.alt_ft === 0 && Math.abs(climbing.departure.at - t('2023-08-30T17:40:37Z')) <= 4",
  );
  assert.equal(climbing.arrival, null);
  replay(s, 'aa178d', t('2023-08-30T17:45:00Z') + 0.001, t('2023-08-30T17:54:00Z'));
  const landed = s.get('aa178d', t('2023-08-30T17:54:00Z'))!;
  assert.ok(
    landed.arrival && Math.abs(landed.arrival.at - t('2023-08-30T17:52:37Z')) <= 4,
    "landed.arrival && Math.abs(landed.arrival.at - t('2023-08-30T17:52:37Z')) <= 4",
  );
  assert.deepEqual(landed.departure, climbing.departure);
  assertValid('trace', landed);
});

test('replayed airliner first heard in cruise: departure and arrival are null', () => {
  const s = new TraceStore({ minutes: 30 });
  replay(s, 'ac6f8a', 0, Infinity);
  const tr = sampleTrace('ac6f8a');
  const doc = s.get('ac6f8a', tr.points[tr.points.length - 1]!.t)!;
  // 106 points heard in 30 minutes of cruise, thinned to the ones that change the shape
  assert.ok(doc.points.length > 40 && doc.points.length < 60, `${doc.points.length}`);
  assert.equal(doc.departure, null);
  assert.equal(doc.arrival, null);
});

test('a store needs a positive window', () => {
  assert.throws(() => new TraceStore({ minutes: 0 }), /minutes must be > 0/);
});

test('a take-off first heard low over a field above 5,000 ft (La Paz, 13,300 ft) is found and remembered when the store knows the field', () => {
  const LPB = { lat: -16.5133, lon: -68.1923, elev: 13325 };
  const fields = (lat: number, lon: number) => (Math.abs(lat - LPB.lat) < 0.05 && Math.abs(lon - LPB.lon) < 0.05 ? { elevation_ft: LPB.elev, km: 1 } : null);
  for (const [known, expect] of [
    [true, true],
    [false, false],
  ] as const) {
    const s = new TraceStore({ minutes: 30, fields: known ? fields : null });
    const at = (t: number, a: Partial<AircraftRecord>) => s.update(snap(t, [rec('e80001', a.lat ?? LPB.lat, LPB.lon, { seen_pos: 0, ...a })]));
    const t0 = 1_700_006_400 + 12 * 3600;
    // no ground flag: first heard 175 ft over the field, climbing away
    for (let i = 1; i <= 120; i++) at(t0 + 30 + i * 30, { lat: LPB.lat + 0.01 + i * 0.02, alt_baro: Math.min(37000, 13500 + i * 500), gs: 450, track: 0 });
    const later = s.get('e80001', t0 + 30 + 120 * 30)!;
    assert.ok(later.points[0]![0] > t0 + 1800, 'the take-off has left the window');
    assert.equal(later.departure !== null, expect, known ? 'remembered with the field known' : 'without it, 13,500 ft looks like cruise');
  }
});

test('the packed point layout gives back exactly what was heard: tenths of seconds at epoch scale, signed lat/lon, sentinels, track and gs at their extremes', () => {
  const s = new TraceStore({ minutes: 30, minSpacingS: 0, levelSpacingS: 0 });
  const base = 1_764_072_000.7; // a start with tenths: the trail's base is its floor
  const heard: [number, number, number, AircraftRecord['alt_baro'], number | undefined, number | undefined][] = [
    [base, -33.946111, 151.177222, 'ground', 0, 0],
    [base + 0.1, -89.999999, -179.999999, -1200, 359.9, 3276.7],
    [base + 12.3, 89.999999, 179.999999, undefined, undefined, undefined],
    [base + 1799.9, 0.000001, -0.000001, 60_000, 180, 0.1],
  ];
  for (const [t, lat, lon, alt, track, gs] of heard) {
    const r = rec('c0ffee', lat, lon, { alt_baro: alt, track, gs, seen_pos: 0 });
    if (alt === undefined) delete r.alt_baro;
    s.update(snap(Math.round(t * 10) / 10, [r]));
  }
  const doc = s.get('c0ffee', base + 1799.9)!;
  assert.deepEqual(
    doc.points,
    heard.map(([t, lat, lon, alt, track]) => [Math.round(t * 10) / 10, lat, lon, alt ?? null, track ?? null]),
  );
});

test('the default point cap never cuts a full window: 30 minutes of constant turning at one point per 2 s are all kept, and nothing older', () => {
  const s = new TraceStore({ minutes: 30 });
  for (let i = 0; i <= 1200; i++) s.update(snap(T0 + i * 2, [rec('abcdef', 45 + i / 1000, 7, { track: (i * 5) % 360, alt_baro: 30_000 })]));
  const pts = s.get('abcdef', T0 + 2400)!.points;
  assert.equal(pts.length, 901);
  assert.equal(pts[0]![0], T0 + 2400 - 1800);
});
