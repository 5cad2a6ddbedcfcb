// the cruising rule: only level flight at altitude, with a position, track and speed, is estimated.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CRUISE, isCruising, notCruisingBecause } from '../../../lib/estimate/cruise.ts';

const cruise = { lat: 47.1, lon: 8.2, alt_baro: 36000, gs: 450, track: 270, baro_rate: 64 };

test('level flight at altitude with position, track and speed is cruising', () => {
  assert.equal(notCruisingBecause(cruise), null);
  assert.equal(isCruising({ ...cruise, baro_rate: undefined }), true, 'unknown vertical rate is accepted');
  assert.equal(isCruising({ ...cruise, emergency: 'none' }), true);
  assert.equal(isCruising({ ...cruise, alt_baro: CRUISE.minAltFt, gs: CRUISE.minGsKt, baro_rate: CRUISE.maxRateFpm - 1 }), true, 'limits are inclusive');
});

test('climbing, descending, slow, low or on the ground is not cruising', () => {
  assert.equal(notCruisingBecause({ ...cruise, baro_rate: 1000 }), 'climbing or descending');
  assert.equal(notCruisingBecause({ ...cruise, baro_rate: -2500 }), 'climbing or descending');
  assert.equal(notCruisingBecause({ ...cruise, alt_baro: 9999 }), 'below cruise altitude');
  assert.equal(notCruisingBecause({ ...cruise, alt_baro: 'ground' }), 'no altitude or on the ground');
  assert.equal(notCruisingBecause({ ...cruise, gs: 149 }), 'ground speed outside cruise');
  assert.equal(notCruisingBecause({ ...cruise, gs: 1200 }), 'ground speed outside cruise');
  assert.equal(notCruisingBecause({ ...cruise, emergency: 'minfuel' }), 'emergency declared');
});

test('malformed or missing position, track, speed or altitude is never cruising', () => {
  const { lat: _lat, ...noLat } = cruise;
  const { gs: _gs, ...noGs } = cruise;
  const { track: _track, ...noTrack } = cruise;
  const { alt_baro: _alt, ...noAlt } = cruise;
  assert.equal(notCruisingBecause(noLat), 'no position');
  assert.equal(notCruisingBecause(noGs), 'no ground speed');
  assert.equal(notCruisingBecause(noTrack), 'no track');
  assert.equal(notCruisingBecause(noAlt), 'no altitude or on the ground');
  assert.equal(notCruisingBecause({ ...cruise, lat: 91 }), 'no position');
  assert.equal(notCruisingBecause({ ...cruise, lon: Number.NaN }), 'no position');
  assert.equal(notCruisingBecause({ ...cruise, track: -1 }), 'no track');
  assert.equal(notCruisingBecause({ ...cruise, track: Number.POSITIVE_INFINITY }), 'no track');
  assert.equal(notCruisingBecause({ ...cruise, gs: Number.NaN }), 'no ground speed');
  assert.equal(notCruisingBecause({ ...cruise, alt_baro: Number.NaN }), 'no altitude or on the ground');
  assert.equal(notCruisingBecause({ ...cruise, baro_rate: Number.NaN }), 'climbing or descending');
  assert.equal(notCruisingBecause({ ...cruise, gs: '450' as unknown as number }), 'no ground speed', 'a string is not a speed');
});
