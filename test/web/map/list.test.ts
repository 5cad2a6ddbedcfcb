// the list's order: each column both ways, missing values last either way, ties by hex; distance
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { nmBetween, sortRows, type SortKey } from '../../../web/map/list.ts';
import type { Aircraft } from '../../../web/map/types.ts';

const row = (hex: string, nm: number, a: Partial<Aircraft>) => ({ a: { hex, ...a }, nm });
const rows = [
  row('000001', 30, { flight: 'SWR100', t: 'A320', alt_baro: 3800, gs: 180 }),
  row('000002', 5, { flight: 'DLH4AB', t: 'A321', alt_baro: 36000, gs: 450 }),
  row('000003', 12, { r: 'HB-ABC', alt_baro: 'ground', gs: 12 }),
  row('000004', 50, { flight: 'AFR1', t: 'A320' }),
];
const order = (k: SortKey, d = false) => sortRows(rows, k, d).map((r) => r.a.hex);

test('each column sorts both ways; a missing value goes last either way; ties by hex', () => {
  assert.deepEqual(order('callsign'), ['000004', '000002', '000003', '000001']);
  assert.deepEqual(order('type'), ['000001', '000004', '000002', '000003']);
  assert.deepEqual(order('type', true), ['000002', '000001', '000004', '000003']);
  assert.deepEqual(order('altitude'), ['000003', '000001', '000002', '000004']);
  assert.deepEqual(order('altitude', true), ['000002', '000001', '000003', '000004']);
  assert.deepEqual(order('speed', true), ['000002', '000001', '000003', '000004']);
  assert.deepEqual(order('distance'), ['000002', '000003', '000001', '000004']);
});

test('distance in nautical miles: a degree of latitude is 60 nm', () => {
  assert.ok(Math.abs(nmBetween(47, 8, 48, 8) - 60.04) < 0.1, `${nmBetween(47, 8, 48, 8)} nm`);
  assert.equal(nmBetween(47, 8, 47, 8), 0);
});
