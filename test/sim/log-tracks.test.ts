import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fastTrack, type TrackLeg } from '../../sim/log-tracks.ts';
import { distanceNm } from '../../lib/geo.ts';

process.env.TZ = 'UTC';
const SEED = 7;
// zurich to london heathrow, 2 h in the air at FL370, on 2025-06-01
const OFF = Date.parse('2025-06-01T08:00:00Z') / 1000;
const leg = (o: Partial<TrackLeg> = {}): TrackLeg => ({
  hex: '4b1805',
  first_ts: OFF - 600,
  last_ts: OFF + 7200 + 300,
  off: OFF,
  on: OFF + 7200,
  depHeard: true,
  arrHeard: true,
  olat: 47.4647,
  olon: 8.5492,
  dlat: 51.4706,
  dlon: -0.4619,
  cruiseFt: 37000,
  ...o,
});

describe('sim fast-log tracks', () => {
  it('taxis, climbs to the leg level, cruises and lands at the far end, inside the leg, oldest first', () => {
    const tr = fastTrack(leg(), SEED);
    assert.ok(tr.length > 50 && tr.length < 400, `${tr.length} points`);
    for (let i = 1; i < tr.length; i++) assert.ok(tr[i]![0] > tr[i - 1]![0], `point ${i} newer than the one before`);
    const [first, last] = [tr[0]!, tr[tr.length - 1]!];
    assert.ok(first[0] >= OFF - 600 && first[0] < OFF - 590, 'the first point within a sample of first_ts');
    assert.equal(last[0], OFF + 7500, 'the last point at last_ts');
    assert.equal(first[3], 'ground');
    assert.equal(last[3], 'ground');
    assert.ok(distanceNm(first[1], first[2], 47.4647, 8.5492) < 3, 'taxi starts near the origin');
    assert.ok(distanceNm(last[1], last[2], 51.4706, -0.4619) < 3, 'taxi ends near the destination');
    const alts = tr.map((p) => p[3]).filter((a): a is number => typeof a === 'number');
    assert.equal(Math.max(...alts), 37000);
    // the lift-off: the first point aloft is just after `off`, near the origin
    const up = tr.find((p) => typeof p[3] === 'number')!;
    assert.ok(up[0] > OFF && up[0] <= OFF + 20 && distanceNm(up[1], up[2], 47.4647, 8.5492) < 1, `lift-off at ${up[0] - OFF} s`);
    // cruise: the thinning keeps about one point a 90 s sample (the trace path's level rate), not one a second
    const level = tr.filter((p) => p[3] === 37000);
    assert.ok(level.length > 30 && level.length < 70, `${level.length} level points`);
  });

  it('leaves an unheard end out below 6,000 ft', () => {
    const noDep = fastTrack(leg({ depHeard: false }), SEED);
    assert.ok(typeof noDep[0]![3] === 'number' && noDep[0]![3] >= 5900, `first point at ${String(noDep[0]![3])} ft`);
    assert.ok(!noDep.some((p) => p[3] === 'ground' && p[0] < OFF), 'no taxi-out heard');
    const noArr = fastTrack(leg({ arrHeard: false }), SEED);
    const end = noArr[noArr.length - 1]!;
    assert.ok(typeof end[3] === 'number' && end[3] >= 5900 && end[0] < OFF + 7200, `last point at ${String(end[3])} ft`);
    const aloft = fastTrack(leg({ depHeard: false, arrHeard: false }), SEED);
    assert.ok(aloft.length > 20 && aloft.every((p) => typeof p[3] === 'number' && p[3] >= 5900), 'heard aloft only: every point above the floor');
  });

  it('climbs and descends faster on a leg too short for the jet profile, still reaching its level', () => {
    const tr = fastTrack(leg({ on: OFF + 1500, last_ts: OFF + 1800, dlat: 47.0, dlon: 9.5, cruiseFt: 24000 }), SEED);
    const alts = tr.map((p) => p[3]).filter((a): a is number => typeof a === 'number');
    assert.equal(Math.max(...alts), 24000);
    assert.equal(tr[tr.length - 1]![3], 'ground');
  });

  it('is the same for the same seed and leg, and moves its sample phase with the seed', () => {
    assert.deepEqual(fastTrack(leg(), SEED), fastTrack(leg(), SEED));
    const phases = new Set([1, 2, 3, 4, 5, 6].map((s) => fastTrack(leg(), s)[0]![0]));
    assert.ok(phases.size > 1, 'the first sample moves with the seed');
  });
});
