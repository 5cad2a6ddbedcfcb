// the silhouettes: the class by type first, then by ADS-B category, then by a military address;
// each outline closed, inside its box, turned by the track (a balloon stays upright)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { addShape, OUTLINES, shapeOf, SHAPE_IDS } from '../../../web/map/shapes.ts';

const types: Record<string, string> = { A320: 'airliner', B744: 'heavy', EC35: 'helicopter' };
const byType = (t: string) => (types[t] as never) ?? null;

test("the class: the type's, else the category's, else a military jet for a military address, else the arrowhead", () => {
  assert.equal(shapeOf('A320', 'A3', false, byType), 'airliner');
  assert.equal(shapeOf('B744', undefined, false, byType), 'heavy');
  // the type outranks the category, but a ground vehicle's category outranks everything
  assert.equal(shapeOf('EC35', 'A1', false, byType), 'helicopter');
  assert.equal(shapeOf('A320', 'C2', false, byType), 'ground');
  for (const [cat, want] of [
    ['A1', 'light'],
    ['A2', 'turboprop'],
    ['A3', 'airliner'],
    ['A5', 'heavy'],
    ['A6', 'military'],
    ['A7', 'helicopter'],
    ['B1', 'glider'],
    ['B2', 'balloon'],
    ['C1', 'ground'],
  ] as const) {
    assert.equal(shapeOf('ZZZZ', cat, false, byType), want, cat);
  }
  assert.equal(shapeOf(undefined, undefined, true, byType), 'military');
  assert.equal(shapeOf(undefined, 'A0', false, byType), 'unknown');
  assert.equal(shapeOf(undefined, undefined, false, byType), 'unknown');
});

function points(shape: (typeof SHAPE_IDS)[number], track: number): { pts: [number, number][]; closed: number; moves: number } {
  const pts: [number, number][] = [];
  let closed = 0;
  let moves = 0;
  addShape({ moveTo: (x, y) => (moves++, pts.push([x, y])), lineTo: (x, y) => pts.push([x, y]), closePath: () => closed++ }, shape, 100, 100, track);
  return { pts, closed, moves };
}

test('every outline is closed and lies within its size of the centre; the nose follows the track', () => {
  for (const s of SHAPE_IDS) {
    const { pts, closed, moves } = points(s, 30);
    assert.ok(pts.length >= 4, s);
    assert.equal(closed, moves, `${s}: every part closed`);
    const r = s === 'unknown' ? 7 : OUTLINES[s].px;
    for (const [x, y] of pts) assert.ok(Math.hypot(x - 100, y - 100) <= r * 1.5 + 1e-9, `${s} ${x},${y}`);
  }
  const nose = (track: number) => points('airliner', track).pts[0]!.map((v) => Math.round(v));
  assert.deepEqual(nose(0), [100, 91]);
  assert.deepEqual(nose(90), [109, 100]);
  assert.deepEqual(nose(180), [100, 109]);
  // a balloon has no nose: drawn the same whatever the track
  assert.deepEqual(points('balloon', 0).pts, points('balloon', 123).pts);
});
