// callsign labels never overlap: a label whose cells are taken is skipped, one clear of them is placed
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LabelGrid } from '../../../web/map/labels.ts';

test('an overlapping label is refused, labels on other rows or further along are placed', () => {
  const g = new LabelGrid();
  assert.equal(g.place(100, 100, 40), true);
  assert.equal(g.place(110, 102, 40), false, 'same row, overlapping');
  assert.equal(g.place(100, 130, 40), true, 'the next row');
  assert.equal(g.place(200, 100, 40), true, 'clear along the row');
  assert.equal(g.place(60, 100, 45), false, 'reaches into the first label');
  assert.equal(g.place(20, 100, 20), true, 'ends before it');
});
