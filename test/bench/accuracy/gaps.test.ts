// the live accuracy replay's gaps and feed (bench/accuracy/gaps.ts): seeded, cruising starts, readsb's 60 s.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chooseGaps, FeedPlayer, GAPS, startable } from '../../../bench/accuracy/gaps.ts';
import type { ObservedTrack, TrackPoint } from '../../../lib/estimate/accuracy.ts';

const T = 1_533_100_000;

/** a track with a point every 10 s for `minutes`, climbing at 2,000 ft/min for the first `climbMin` */
function track(hex: string, minutes: number, climbMin = 0): ObservedTrack {
  const points: TrackPoint[] = [];
  for (let s = 0; s <= minutes * 60; s += 10) {
    const climbing = s < climbMin * 60;
    points.push({
      t: T + s,
      lat: 46 + s / 10000,
      lon: 7,
      alt: climbing ? 8000 + s * 33 : 36000,
      gs: 450,
      track: 0,
      rate: climbing ? 2000 : 0,
      callsign: 'SWR1',
    });
  }
  return { hex, points };
}

test('the cruising rule of the replay is spec section 3, written apart from the server', () => {
  const p: TrackPoint = { t: T, lat: 46, lon: 7, alt: 36000, gs: 450, track: 10, rate: 0 };
  assert.equal(startable(p), true);
  assert.equal(startable({ ...p, rate: null }), true, 'an unknown rate is accepted');
  assert.equal(startable({ ...p, alt: 9999 }), false);
  assert.equal(startable({ ...p, gs: 149 }), false);
  assert.equal(startable({ ...p, gs: 1001 }), false);
  assert.equal(startable({ ...p, rate: -1000 }), false);
  assert.equal(startable({ ...p, track: null }), false);
});

test('one seeded gap per aircraft, at a cruising point with 2 minutes of track after it', () => {
  const tracks = [track('aaaaaa', 40, 10), track('bbbbbb', 40), track('cccccc', 20, 20)];
  const a = chooseGaps(tracks, 1, 0);
  assert.deepEqual(a, chooseGaps(tracks, 1, 0), 'the same seed and pass pick the same');
  assert.notDeepEqual(
    [...chooseGaps(tracks, 1, 1).values()].map((g) => g.from),
    [...a.values()].map((g) => g.from),
    'another pass picks again',
  );
  assert.deepEqual([...a.keys()], ['aaaaaa', 'bbbbbb'], 'the aircraft that only climbs has no gap');
  for (const g of a.values()) {
    assert.ok(g.from >= (g.hex === 'aaaaaa' ? T + 600 : T), 'not while climbing');
    assert.ok(g.from <= T + 40 * 60 - GAPS.tailS, 'g.from <= T + 40 * 60 - GAPS.tailS');
    assert.equal(g.to - g.from, GAPS.maxS);
  }
  assert.equal(a.get('aaaaaa')!.among, 30 * 6 + 1 - GAPS.tailS / 10);
});

test('the feed hides a gap, keeps the silent aircraft 60 s with seen counting up, and hears it again after', () => {
  const tr = track('aaaaaa', 60);
  const gap = { hex: 'aaaaaa', from: T + 300, to: T + 300 + 1800, among: 1 };
  const feed = new FeedPlayer([tr], new Map([['aaaaaa', gap]]));
  assert.deepEqual(
    feed.at(T + 300).map((r) => r.seen),
    [0],
  );
  const quiet = feed.at(T + 330);
  assert.equal(quiet.length, 1);
  assert.equal(quiet[0]!.seen, 30);
  assert.equal(quiet[0]!.seen_pos, 30);
  assert.equal(quiet[0]!.lat, tr.points[30]!.lat, 'the last position is kept');
  assert.deepEqual(quiet[0]!.flight, 'SWR1');
  assert.equal(quiet[0]!.baro_rate, 0);
  assert.equal(feed.at(T + 360).length, 1);
  assert.equal(feed.at(T + 370).length, 0, 'gone after 60 s');
  assert.equal(feed.lastHeard('aaaaaa')!.t, T + 300);
  const back = feed.at(T + 2100);
  assert.equal(back[0]!.seen, 0);
  assert.equal(feed.lastHeard('aaaaaa')!.t, T + 2100);
  assert.throws(() => feed.at(T), /forward only/);
  assert.equal(feed.lastHeard('ffffff'), null);
});
