// the filters: altitude range (ground is 0 ft, unknown altitude fails a range), types by designator
// or class, military only; no filter passes everything
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { matcher, NO_FILTERS, parseFeet, parseTypes } from '../../../web/map/filters.ts';
import type { Aircraft } from '../../../web/map/types.ts';

const a = (hex: string, alt: Aircraft['alt_baro'], t?: string): Aircraft => ({ hex, alt_baro: alt, t });
const sky = [a('000001', 'ground', 'A320'), a('000002', 5000, 'B738'), a('000003', 35000, 'EC35'), a('000004', undefined, 'A320'), a('000005', 20000)];
const shape = (x: Aircraft) => (x.t === 'EC35' ? 'helicopter' : x.t ? 'airliner' : 'unknown') as never;
const mil = (h: string) => h === '000003';
const pass = (f: Partial<typeof NO_FILTERS>) => sky.filter(matcher({ ...NO_FILTERS, ...f }, shape, mil)).map((x) => x.hex);

test('each filter keeps exactly what it says; together they all must hold', () => {
  assert.deepEqual(
    pass({}),
    sky.map((x) => x.hex),
  );
  assert.deepEqual(pass({ altMin: 0, altMax: 10_000 }), ['000001', '000002']);
  assert.deepEqual(pass({ altMin: 20_000 }), ['000003', '000005']);
  assert.deepEqual(pass({ types: ['A320'] }), ['000001', '000004']);
  assert.deepEqual(pass({ types: ['HELICOPTER', 'B738'] }), ['000002', '000003']);
  assert.deepEqual(pass({ military: true }), ['000003']);
  assert.deepEqual(pass({ military: true, altMax: 30_000 }), []);
});

test("the boxes' text: feet with separators, types split on commas and spaces; junk ignored", () => {
  assert.equal(parseFeet('10,000'), 10000);
  assert.equal(parseFeet(' 500 '), 500);
  assert.equal(parseFeet(''), null);
  assert.equal(parseFeet('ten'), null);
  assert.equal(parseFeet('1e5'), null);
  assert.deepEqual(parseTypes('a320, b738 a320 <script>'), ['A320', 'B738']);
  assert.deepEqual(parseTypes('helicopter'), ['HELICOPTER']);
});
