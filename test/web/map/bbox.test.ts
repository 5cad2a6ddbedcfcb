// the box the map follows: padded, rounded outward, the antimeridian crossed as the API expects
// (west > east), null for a view as wide as the world; and `covers`, which decides box changes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bboxParam, covers, viewBox } from '../../../web/map/bbox.ts';
import { parseBbox } from '../../../server/live/params.ts';

test('a view padded by half its size on each side, rounded outward to 0.01°', () => {
  assert.deepEqual(viewBox({ west: 8.001, south: 47, east: 9, north: 48 }, 0.5), [7.5, 46.5, 9.5, 48.5]);
  assert.deepEqual(viewBox({ west: 8.123, south: 47.456, east: 8.2, north: 47.5 }, 0), [8.12, 47.45, 8.2, 47.5]);
});

test('across the antimeridian the west edge lies east of the east edge; latitudes clamp; the world is null', () => {
  assert.deepEqual(viewBox({ west: 170, south: 50, east: 190, north: 60 }, 0), [170, 50, -170, 60]);
  assert.deepEqual(viewBox({ west: -200, south: -89, east: -170, north: 89 }, 0.5), [145, -90, -155, 90]);
  assert.equal(viewBox({ west: -100, south: 0, east: 100, north: 10 }, 0.5), null);
});

test('every box the map can ask for is one the server accepts', () => {
  for (const v of [
    { west: -179.999, south: -85, east: 179.5, north: 85 },
    { west: 179, south: 0, east: 181, north: 1 },
    { west: -0.001, south: -0.001, east: 0.001, north: 0.001 },
  ]) {
    const b = viewBox(v, 0);
    assert.ok(b, 'b');
    assert.ok(bboxParam(b).length <= 80, 'bboxParam(b).length <= 80');
    assert.doesNotThrow(() => parseBbox(bboxParam(b)), bboxParam(b));
  }
});

test('covers: inside, outside, across the antimeridian and for any copy of the world', () => {
  const box = viewBox({ west: 8, south: 47, east: 9, north: 48 }, 0.5);
  assert.equal(covers(box, { west: 8.2, south: 47.1, east: 8.8, north: 47.9 }), true);
  assert.equal(covers(box, { west: 9.2, south: 47.1, east: 9.8, north: 47.9 }), false);
  assert.equal(covers(box, { west: 8.2 + 360, south: 47.1, east: 8.8 + 360, north: 47.9 }), true);
  assert.equal(covers([170, 50, -170, 60], { west: 175, south: 51, east: 185, north: 59 }), true);
  assert.equal(covers(null, { west: -500, south: -90, east: 500, north: 90 }), true);
});
