// the live accuracy replay's own scoring (bench/accuracy/score.ts): ranges, truth, medians, agreement.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { agreement, byRange, median, rangeOf, straightLine, truthAt, weightedMedian, type LiveSample } from '../../../bench/accuracy/score.ts';
import { distanceKm } from '../../../lib/geo.ts';

const T = 1_533_100_000;

test('ages fall in the spec 2.3 ranges, [from, to) minutes; past 120 in none', () => {
  assert.equal(rangeOf(1.5), '0-5');
  assert.equal(rangeOf(4.99), '0-5');
  assert.equal(rangeOf(5), '5-15');
  assert.equal(rangeOf(15), '15-30');
  assert.equal(rangeOf(59.9), '30-60');
  assert.equal(rangeOf(119.9), '60-120');
  assert.equal(rangeOf(120), null);
});

test('the truth is interpolated between the two points around a time, and unknown across a silence or outside the track', () => {
  const pts = [
    { t: T, lat: 46, lon: 7 },
    { t: T + 10, lat: 46.1, lon: 7.2 },
    { t: T + 200, lat: 47, lon: 8 },
  ];
  assert.deepEqual(truthAt(pts, T + 10), { lat: 46.1, lon: 7.2 });
  const mid = truthAt(pts, T + 5)!;
  assert.ok(Math.abs(mid.lat - 46.05) < 1e-9 && Math.abs(mid.lon - 7.1) < 1e-9, 'Math.abs(mid.lat - 46.05) < 1e-9 && Math.abs(mid.lon - 7.1) < 1e-9');
  assert.equal(truthAt(pts, T + 100), null, '190 s between the points: not heard there');
  assert.equal(truthAt(pts, T - 1), null);
  assert.equal(truthAt(pts, T + 201), null);
});

test('straight-line dead reckoning flies the last track at the last speed', () => {
  const p = straightLine({ t: T, lat: 46, lon: 7, track: 90, gs: 480 }, T + 600);
  assert.ok(Math.abs(distanceKm(46, 7, p.lat, p.lon) - 80 * 1.852) < 0.01, '80 nm in 10 minutes');
  assert.ok(p.lon > 7 && Math.abs(p.lat - 46) < 0.05, 'p.lon > 7 && Math.abs(p.lat - 46) < 0.05');
  const before = straightLine({ t: T, lat: 46, lon: 7, track: 90, gs: 480 }, T - 5);
  assert.ok(distanceKm(46, 7, before.lat, before.lon) < 1e-6, 'never flown backwards');
});

test('medians: the middle value, the mean of the middle two, and by weight', () => {
  assert.equal(median([3, 1, 2]), 2);
  assert.equal(median([4, 1, 3, 2]), 2.5);
  assert.ok(Number.isNaN(median([])), 'Number.isNaN(median([]))');
  assert.equal(
    weightedMedian([
      { value: 1, weight: 1 },
      { value: 10, weight: 3 },
    ]),
    10,
  );
  assert.equal(
    weightedMedian([
      { value: 1, weight: 3 },
      { value: 10, weight: 1 },
    ]),
    1,
  );
  assert.equal(
    weightedMedian([
      { value: 1, weight: 2 },
      { value: 10, weight: 2 },
    ]),
    5.5,
  );
});

test('samples are grouped by range with `all` over every range, weighed and per gap', () => {
  const s = (ageMin: number, methodKm: number, straightKm: number, weight = 1): LiveSample => ({ ageMin, methodKm, straightKm, weight });
  const r = byRange([s(2, 0.5, 0.5), s(3, 0.7, 0.7), s(4, 0.9, 0.9, 5), s(20, 10, 30), s(130, 99, 99)]);
  assert.deepEqual(Object.keys(r), ['0-5', '15-30', 'all']);
  assert.equal(r['0-5']!.n, 3);
  assert.equal(r['0-5']!.perGapMethodKm, 0.7);
  assert.equal(r['0-5']!.methodKm, 0.9, 'the sample picked among 5 points weighs 5');
  assert.deepEqual(r['15-30'], { n: 1, methodKm: 10, straightKm: 30, perGapMethodKm: 10 });
  assert.equal(r.all!.n, 4, 'past 120 minutes is in no range');
});

test('a published median agrees within 10 %, and the rounding of published figures is said apart', () => {
  assert.deepEqual(agreement(7.5, 7.0), { ratio: 7.5 / 7, within: true, sameRounded: false });
  assert.equal(agreement(8, 7).within, false);
  assert.equal(agreement(6.2, 7).within, false);
  assert.deepEqual(agreement(0.5, 0.54), { ratio: 0.5 / 0.54, within: true, sameRounded: true });
  assert.deepEqual(agreement(0.5, 0.57), { ratio: 0.5 / 0.57, within: false, sameRounded: false });
});
