// the airframes builder works through the log in hex ranges sized from the data, so a skewed
// address distribution (most of a log in one country's block) never puts it all in one batch.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { packRanges } from '../../../../build/steps/airframes/sql.ts';

test('ranges hold at most the batch size, cover every address, and do not overlap', () => {
  const counts: [string, number][] = [
    ['3c4', 5],
    ['400', 3],
    ['a00', 9],
    ['a01', 2],
    ['a02', 2],
    ['ac6', 1],
  ];
  const r = packRanges(counts, 5);
  assert.deepEqual(r, [
    ['000000', '400000'],
    ['400000', 'a00000'],
    ['a00000', 'a01000'],
    ['a01000', null],
  ]);
  // every counted prefix falls in exactly one range
  for (const [p] of counts) assert.equal(r.filter(([lo, hi]) => `${p}000` >= lo && (hi === null || `${p}000` < hi)).length, 1, p);
});

test('a prefix larger than the batch is a batch of its own; an empty log is one range', () => {
  assert.deepEqual(packRanges([['a00', 50]], 10), [['000000', null]]);
  assert.deepEqual(packRanges([], 10), [['000000', null]]);
});
