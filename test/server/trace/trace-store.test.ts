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
  assert.deepEqual(s.get('aaaaaa', T0 + 1801)!.points.map((p) => p[0]), [T0 + 600, T0 + 1700]);
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
  const s = new TraceStore({ minutes: 30, maxAircraft: 3, maxPoints: 20, minSpacingS: 0 });
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

test('points closer than minSpacingS are skipped unless they change ground/air state', () => {
  const s = new TraceStore({ minutes: 30, minSpacingS: 4 });
  s.update(snap(T0, [rec('abc123', 47, 8, { alt_baro: 'ground' })]));
  s.update(snap(T0 + 1, [rec('abc123', 47.001, 8, { alt_baro: 'ground' })]));
  s.update(snap(T0 + 2, [rec('abc123', 47.002, 8, { alt_baro: 200 })]));
  s.update(snap(T0 + 3, [rec('abc123', 47.003, 8, { alt_baro: 300 })]));
  assert.deepEqual(s.get('abc123', T0 + 3)!.points.map((p) => p[3]), ['ground', 200]);
});

/** replays a real trace_full as 1 s snapshots: each point arrives when it was heard */
function replay(s: TraceStore, hex: string, from: number, to: number): void {
  const tr = sampleTrace(hex);
  for (const p of tr.points) {
    if (p.t < from || p.t > to) continue;
    const alt_baro = p.alt === null ? undefined : p.alt;
    s.update(snap(p.t, [rec(hex, p.lat, p.lon, { ...(alt_baro !== undefined && { alt_baro }), ...(p.gs != null && { gs: p.gs }), ...(p.track != null && { track: p.track }) })]));
  }
}

test('replayed C172 aa178d: after its take-off the trace has a departure; after its landing an arrival', () => {
  const s = new TraceStore({ minutes: 30 });
  const tr = sampleTrace('aa178d');
  const t = (iso: string) => Date.parse(iso) / 1000;
  // first flight: taxi from 17:39, take-off ~17:40:37, landing 17:52:37 (thinned to one point per 4 s)
  replay(s, 'aa178d', tr.points[0]!.t, t('2023-08-30T17:45:00Z'));
  const climbing = s.get('aa178d', t('2023-08-30T17:45:00Z'))!;
  assert.ok(climbing.departure && climbing.departure.alt_ft === 0 && Math.abs(climbing.departure.at - t('2023-08-30T17:40:37Z')) <= 4);
  assert.equal(climbing.arrival, null);
  replay(s, 'aa178d', t('2023-08-30T17:45:00Z') + 0.001, t('2023-08-30T17:54:00Z'));
  const landed = s.get('aa178d', t('2023-08-30T17:54:00Z'))!;
  assert.ok(landed.arrival && Math.abs(landed.arrival.at - t('2023-08-30T17:52:37Z')) <= 4);
  assert.deepEqual(landed.departure, climbing.departure);
  assertValid('trace', landed);
});

test('replayed airliner first heard in cruise: departure and arrival are null', () => {
  const s = new TraceStore({ minutes: 30 });
  replay(s, 'ac6f8a', 0, Infinity);
  const tr = sampleTrace('ac6f8a');
  const doc = s.get('ac6f8a', tr.points[tr.points.length - 1]!.t)!;
  assert.ok(doc.points.length > 50);
  assert.equal(doc.departure, null);
  assert.equal(doc.arrival, null);
});

test('a store needs a positive window', () => {
  assert.throws(() => new TraceStore({ minutes: 0 }), /minutes must be > 0/);
});
