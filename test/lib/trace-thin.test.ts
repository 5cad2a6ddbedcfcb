import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { TrackPoint } from '../../lib/detector.ts';
import { thinIndexes } from '../../lib/trace-thin.ts';

// one point a second, moving east, from t0
const t0 = 1_700_000_000;
function path(n: number, f: (i: number) => Partial<TrackPoint>): TrackPoint[] {
  return Array.from({ length: n }, (_, i) => ({ t: t0 + i, lat: 47, lon: 8 + i * 0.002, alt: 35000, gs: 450, track: 90, ...f(i) }));
}

describe('thinIndexes: the live trace rule over a leg', () => {
  it('keeps straight level flight every 30 s, and the first and last point', () => {
    const kept = thinIndexes(
      path(301, () => ({})),
      0,
      300,
    );
    assert.deepEqual(kept, [0, 30, 60, 90, 120, 150, 180, 210, 240, 270, 300]);
  });

  it('keeps a turn every 2 degrees (at 2 s spacing at most)', () => {
    // 1 deg/s turn from i = 100 on
    const kept = thinIndexes(
      path(200, (i) => ({ track: i < 100 ? 90 : 90 + (i - 100) })),
      0,
      199,
    );
    const inTurn = kept.filter((i) => i > 100);
    assert.ok(inTurn.length >= 45, `kept ${inTurn.length} points in a 99 deg turn`);
    for (let k = 1; k < inTurn.length; k++)
      assert.ok(inTurn[k]! - inTurn[k - 1]! <= 2, `kept points in the turn ${inTurn[k - 1]} and ${inTurn[k]} are at most two apart`);
  });

  it('keeps the step between ground and air at once, and where a climb leaves its line', () => {
    const pts = path(120, (i) => ({ alt: i < 10 ? 'ground' : 1000 + (i < 60 ? 0 : (i - 60) * 50), gs: 150 }));
    // ground to air at 10; level, then 100 ft off the level line at 62; the steady climb after it
    // stays on the line through the last two kept points, so only the 30 s spacing keeps more
    assert.deepEqual(thinIndexes(pts, 0, 119), [0, 10, 40, 62, 65, 95, 119]);
  });

  it('never keeps a point that is not newer or did not move, and takes only from..to', () => {
    const pts = path(40, () => ({}));
    pts[5] = { ...pts[3]!, t: pts[4]!.t }; // back at the kept position: not a new point
    const kept = thinIndexes(pts, 3, 39);
    assert.equal(kept[0], 3);
    assert.ok(!kept.includes(5), 'point 5, back at the kept position, is not kept');
    assert.equal(kept.at(-1), 39);
    assert.deepEqual(thinIndexes(pts, 5, 4), []);
  });
});
