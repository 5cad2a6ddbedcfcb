// the stream's area cells: a box maps to the finest grid that covers it in at most MAX_CELLS cells,
// and every position inside the box lies in one of those cells (brute force over seeded boxes,
// across the antimeridian and up to the poles).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mulberry32 } from '../../../lib/random.ts';
import { LEVELS, MAX_CELLS, SKY, cellBox, cellName, cellOf, cellsFor, levelOf, topicOf } from '../../../server/stream/cells.ts';
import type { Bbox } from '../../../server/parts/spatial.ts';

const box = (minLon: number, minLat: number, maxLon: number, maxLat: number): Bbox => ({ minLon, minLat, maxLon, maxLat });

test('a cell is named by its size and south-west corner, and its box holds the positions it was made from', () => {
  const c = cellOf(0, 47.45, 8.56);
  assert.equal(cellName(c), '2/8/46');
  assert.deepEqual(cellBox(c), [8, 46, 10, 48]);
  assert.equal(topicOf(c), 'cell/2/8/46');
  assert.equal(cellName(cellOf(1, 47.45, 8.56)), '10/0/40');
  assert.equal(cellName(cellOf(0, -33.9, 151.2)), '2/150/-34');
  // the edges of the world fall in the last row and column, never outside the grid
  assert.equal(cellName(cellOf(0, 90, 180)), '2/178/88');
  assert.equal(cellName(cellOf(1, -90, -180)), '10/-180/-90');
  assert.equal(cellName(SKY), 'sky');
  assert.equal(cellBox(SKY), null);
});

test('no box is the whole sky; a small box takes 2-degree cells, a region 10-degree ones, a continent-sized one the sky', () => {
  assert.deepEqual(cellsFor(null), [SKY]);
  const zurich = cellsFor(box(8.2, 47.2, 8.9, 47.7));
  assert.deepEqual(zurich.map(cellName), ['2/8/46']);
  const alps = cellsFor(box(5, 45, 15, 47.5));
  assert.ok(
    alps.every((c) => levelOf(c) === 0),
    'alps.every((c) => levelOf(c) === 0)',
  );
  assert.equal(alps.length, 6 * 2, '5..15 E is 6 columns (4..16), 45..47.5 N 2 rows (44..48)');
  // edges are inside the box, as in /v1/aircraft: an edge on a cell boundary takes the next cell too
  assert.equal(cellsFor(box(5, 45, 15, 48)).length, 6 * 3);
  const europe = cellsFor(box(-10, 35, 30, 60));
  assert.ok(
    europe.every((c) => levelOf(c) === 1),
    'too many 2-degree cells: the 10-degree grid',
  );
  assert.equal(europe.length, 5 * 4, '-10..30 E touches 5 columns, 35..60 N 4 rows (30..70)');
  assert.deepEqual(cellsFor(box(-180, -90, 180, 90)), [SKY]);
  assert.deepEqual(cellsFor(box(-120, -50, 60, 70)), [SKY]);
});

test('a box across the antimeridian takes the cells on both sides, and a wrap-around box the whole ring', () => {
  const pacific = cellsFor(box(177, -17.5, -177, -16.5)).map(cellName);
  assert.deepEqual(pacific.sort(), ['2/-180/-18', '2/-178/-18', '2/176/-18', '2/178/-18'].sort());
  // west edge east of the east edge in the same cell: all the way round (36 x 1 on the 10-degree grid)
  const ring = cellsFor(box(5, 1, 3, 2));
  assert.equal(ring.length, 36);
  assert.ok(
    ring.every((c) => levelOf(c) === 1),
    'ring.every((c) => levelOf(c) === 1)',
  );
});

test('every position inside a box lies in one of its cells (seeded brute force)', () => {
  const r = mulberry32(1729);
  const near = (edge: number, span: number) => edge + (r() - 0.5) * span;
  for (let n = 0; n < 400; n++) {
    const w = r() < 0.3 ? near(179, 4) : r() * 360 - 180;
    const width = r() < 0.5 ? r() * 6 : r() * 80;
    const minLon = Math.max(-180, Math.min(180, w));
    let maxLon = minLon + width;
    if (maxLon > 180) maxLon -= 360;
    const minLat = Math.max(-90, r() * 200 - 100);
    const maxLat = Math.min(90, minLat + (r() < 0.5 ? r() * 6 : r() * 60));
    const b = box(minLon, minLat, maxLon, maxLat);
    const cells = new Set(cellsFor(b));
    assert.ok(cells.size <= MAX_CELLS, `${JSON.stringify(b)}: ${cells.size} cells`);
    if (cells.has(SKY)) continue;
    const level = levelOf([...cells][0]!);
    for (let k = 0; k < 50; k++) {
      const lat = minLat + r() * (maxLat - minLat);
      const span = minLon <= maxLon ? maxLon - minLon : maxLon + 360 - minLon;
      let lon = minLon + r() * span;
      if (lon > 180) lon -= 360;
      assert.ok(cells.has(cellOf(level, lat, lon)), `${lat},${lon} in ${JSON.stringify(b)} is in no cell of ${[...cells].map(cellName)}`);
    }
    // and the corners themselves
    for (const [lat, lon] of [
      [minLat, minLon],
      [maxLat, maxLon],
      [minLat, maxLon],
      [maxLat, minLon],
    ] as const) {
      assert.ok(cells.has(cellOf(level, lat, lon)), `corner ${lat},${lon} of ${JSON.stringify(b)}`);
    }
  }
  assert.equal(LEVELS.length, 2);
});
