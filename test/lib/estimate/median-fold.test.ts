// the bounded median of the accuracy replay must be the sort's median to the bit: the published
// figures may not move a digit when a day is folded instead of held (lib/estimate/median-fold.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MedianFold } from '../../../lib/estimate/median-fold.ts';
import { medianKm } from '../../../lib/estimate/accuracy.ts';
import { mulberry32 } from '../../../lib/random.ts';

const foldOf = (values: number[]) => {
  const f = new MedianFold();
  for (const v of values) f.add(v);
  return f;
};

test('an empty fold has n 0 and median 0, as medianKm of no values', () => {
  const f = new MedianFold();
  assert.equal(f.n, 0);
  assert.equal(f.medianKm(), medianKm([]));
});

test('the two middle values in different bins: their mean, rounded as medianKm rounds it', () => {
  // 1.04 rounds to 1.0 and 1.16 to 1.2; their mean 1.1 is in neither bin
  assert.equal(foldOf([1.16, 1.04]).medianKm(), 1.1);
  assert.equal(foldOf([1.16, 1.04]).medianKm(), medianKm([1.16, 1.04]));
  // the middle pair's mean lands on a rounding edge: 0.14 and 0.16 -> 0.15 -> 0.2 (Math.round rounds half up)
  assert.equal(foldOf([0.16, 9, 0.14, 0]).medianKm(), medianKm([0.16, 9, 0.14, 0]));
});

test('on seeded values of many shapes the fold equals medianKm exactly, and n is the count', () => {
  const rnd = mulberry32(45);
  const shapes: ((i: number) => number)[] = [
    () => rnd() * 50, // spread over many bins
    () => rnd() * 0.3, // a few bins, many values each
    () => Math.round(rnd() * 40) / 20 + 0.05, // on the rounding edges x.x5
    () => -Math.log(rnd() + 1e-12) * 3, // a long tail, like the errors of long gaps
    (i) => (i % 3) * 0.1, // ties
  ];
  for (const [s, shape] of shapes.entries()) {
    for (const n of [1, 2, 3, 4, 7, 10, 101, 1000, 1001]) {
      const values = Array.from({ length: n }, (_, i) => shape(i));
      const f = foldOf(values);
      assert.equal(f.n, n);
      assert.ok(Object.is(f.medianKm(), medianKm(values)), `shape ${s}, n ${n}: fold ${f.medianKm()} against sort ${medianKm(values)}`);
    }
  }
});

test('merged folds are the fold of all their values', () => {
  const rnd = mulberry32(7);
  const a = Array.from({ length: 333 }, () => rnd() * 20);
  const b = Array.from({ length: 258 }, () => rnd() * 5);
  const m = foldOf(a);
  m.merge(foldOf(b));
  assert.equal(m.n, a.length + b.length);
  assert.ok(Object.is(m.medianKm(), medianKm([...a, ...b])), `${m.medianKm()} against ${medianKm([...a, ...b])}`);
});
