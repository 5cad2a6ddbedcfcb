import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { HASH_START, hash32, hashOn, rng, unit, unitOf } from '../../lib/random.ts';

describe('sim random', () => {
  it('gives the same stream for the same seed and a different one for another seed', () => {
    const a = rng(7, 'x');
    const b = rng(7, 'x');
    const c = rng(8, 'x');
    const sa = Array.from({ length: 20 }, () => a.next());
    assert.deepEqual(
      sa,
      Array.from({ length: 20 }, () => b.next()),
    );
    assert.notDeepEqual(
      sa,
      Array.from({ length: 20 }, () => c.next()),
    );
    assert.ok(
      sa.every((x) => x >= 0 && x < 1),
      'sa.every((x) => x >= 0 && x < 1)',
    );
  });

  it('hashes keys independently of call order, and mixes both halves of large numbers', () => {
    const k1 = hash32(1, 'abc', 1748872800);
    unit(99, 'other');
    assert.equal(hash32(1, 'abc', 1748872800), k1);
    assert.notEqual(hash32(1, 'abc', 1748872800 + 2 ** 32), k1);
  });

  it('continues a hash part by part: hashOn(hash32(a, b), c) is hash32(a, b, c), and unitOf(h) is unit()', () => {
    const keys: (number | string)[][] = [[], [1], ['abc'], [1, 'abc', 1748872800], [7, 'a036b1', 17960832005, 'lat', 'n1'], [-3, '', 2 ** 40 + 5, 'x']];
    for (const key of keys) {
      const h = key.reduce<number>((acc, p) => hashOn(acc, p), HASH_START);
      assert.equal(h >>> 0, hash32(...key), `hash of ${JSON.stringify(key)}`);
      assert.equal(unitOf(h), unit(...key), `unit of ${JSON.stringify(key)}`);
    }
    // a prefix hashed once serves every suffix
    const prefix = hashOn(hashOn(HASH_START, 1), 'a036b1');
    assert.equal(hashOn(prefix, 'outlier'), hash32(1, 'a036b1', 'outlier'));
    assert.notEqual(hashOn(prefix, 'outlier'), hashOn(prefix, 'spike'));
  });

  it('spreads unit() over [0,1) roughly evenly (10 buckets, 10,000 keys)', () => {
    const buckets = new Array<number>(10).fill(0);
    for (let i = 0; i < 10000; i++) buckets[Math.floor(unit(3, i) * 10)]!++;
    for (const n of buckets) assert.ok(n > 850 && n < 1150, `bucket ${n}`);
  });

  it('int(n) stays inside [0, n)', () => {
    const r = rng(1);
    for (let i = 0; i < 1000; i++) {
      const v = r.int(7);
      assert.ok(Number.isInteger(v) && v >= 0 && v < 7, 'Number.isInteger(v) && v >= 0 && v < 7');
    }
  });
});
