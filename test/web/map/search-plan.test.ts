// which /v2 searches a text asks: every key whose syntax it fits, by the routes' own rules
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { searchPlan } from '../../../web/map/search-plan.ts';

const keys = (t: string) => searchPlan(t).map(([k]) => k);

test('each kind of key asks its route, and every other route whose syntax it fits', () => {
  assert.deepEqual(searchPlan('4B1814'), [
    ['hex', '/v2/hex/4b1814'],
    ['callsign', '/v2/callsign/4B1814'],
    ['reg', '/v2/reg/4B1814'],
  ]);
  assert.deepEqual(keys('swr100'), ['callsign', 'reg']);
  assert.deepEqual(keys('HB-JLT'), ['reg']);
  assert.deepEqual(keys('7700'), ['squawk', 'callsign', 'reg', 'type']);
  assert.deepEqual(keys('a320'), ['callsign', 'reg', 'type']);
  assert.deepEqual(keys(' 7 7 0 0 '), ['squawk', 'callsign', 'reg', 'type']);
});

test('text no key could be asks nothing, and nothing reaches a path unescaped', () => {
  assert.deepEqual(searchPlan(''), []);
  assert.deepEqual(searchPlan('../../etc'), []);
  assert.deepEqual(searchPlan('A/B'), []);
  assert.deepEqual(searchPlan('TOOLONGCALLSIGN1'), []);
});
