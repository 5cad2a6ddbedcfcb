// parsing of bbox and the /v2/point path: every malformed value is a 422 whose detail says the fix.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ApiError } from '../../../lib/errors.ts';
import { parseBbox, parseBboxQuery, parseDecimal, parsePoint, RADIUS_CAP_NM } from '../../../server/live/params.ts';

function refuses(f: () => unknown, mention: RegExp) {
  assert.throws(f, (e: unknown) => {
    assert.ok(e instanceof ApiError, 'e instanceof ApiError');
    assert.equal(e.status, 422);
    assert.equal(e.code, 'invalid_request');
    assert.match(e.detail, mention);
    return true;
  });
}

test('decimal numbers only: no hex, no Infinity, no blanks, no trailing junk', () => {
  assert.equal(parseDecimal('50.0'), 50);
  assert.equal(parseDecimal('-8.5'), -8.5);
  assert.equal(parseDecimal('+.5'), 0.5);
  assert.equal(parseDecimal('5.'), 5);
  assert.equal(parseDecimal('1e2'), 100);
  for (const bad of ['', ' ', '0x10', 'Infinity', '-Infinity', 'NaN', '1e999', '5,0', '5..0', '5abc', '--5', '.', 'e5', '1 2']) {
    assert.equal(parseDecimal(bad), null, bad);
  }
});

test('bbox parses four numbers; west east of east is kept as an antimeridian crossing', () => {
  assert.deepEqual(parseBbox('5,45,15,55'), { minLon: 5, minLat: 45, maxLon: 15, maxLat: 55 });
  assert.deepEqual(parseBbox('170, -10, -170, 10'), { minLon: 170, minLat: -10, maxLon: -170, maxLat: 10 });
  assert.deepEqual(parseBbox('-180,-90,180,90'), { minLon: -180, minLat: -90, maxLon: 180, maxLat: 90 });
});

test('malformed bbox values are 422 with a detail that says the fix', () => {
  refuses(() => parseBbox('1'.repeat(81)), /longer than 80/);
  refuses(() => parseBbox('5,45,15'), /exactly four numbers, got 3/);
  refuses(() => parseBbox('5,45,15,55,1'), /exactly four numbers, got 5/);
  refuses(() => parseBbox(''), /exactly four numbers, got 1/);
  refuses(() => parseBbox('5,45,,55'), /value 3/);
  refuses(() => parseBbox('5,NaN,15,55'), /value 2 .* not a finite number/);
  refuses(() => parseBbox('5,45,Infinity,55'), /value 3/);
  refuses(() => parseBbox('a,b,c,d'), /value 1/);
  refuses(() => parseBbox('5,-91,15,55'), /minLat -91 is outside -90..90/);
  refuses(() => parseBbox('5,45,15,90.5'), /maxLat 90.5 is outside/);
  refuses(() => parseBbox('-180.1,45,15,55'), /minLon -180.1 is outside -180..180/);
  refuses(() => parseBbox('5,45,181,55'), /maxLon 181 is outside/);
  refuses(() => parseBbox('5,55,15,45'), /minLat 55 is north of maxLat 45: swap them/);
  // exactly 80 characters is allowed
  const eighty = `5.${'0'.repeat(18)},45.${'0'.repeat(16)},15.${'0'.repeat(16)},55.${'0'.repeat(16)}`;
  assert.equal(eighty.length, 80);
  assert.deepEqual(parseBbox(eighty), { minLon: 5, minLat: 45, maxLon: 15, maxLat: 55 });
});

test('the bbox query: absent is null, unknown parameters are ignored, twice or undecodable is 422', () => {
  assert.equal(parseBboxQuery(''), null);
  assert.equal(parseBboxQuery('foo=1&_=123'), null);
  assert.deepEqual(parseBboxQuery('x=1&bbox=5%2C45%2C15%2C55'), { minLon: 5, minLat: 45, maxLon: 15, maxLat: 55 });
  refuses(() => parseBboxQuery('bbox=5,45,15,55&bbox=1,2,3,4'), /give bbox once/);
  refuses(() => parseBboxQuery('bbox='), /exactly four numbers/);
  refuses(() => parseBboxQuery(`bbox=${'9'.repeat(81)}`), /longer than 80/);
});

test('point path: numbers in range; radius over the cap is capped, not refused', () => {
  assert.deepEqual(parsePoint({ lat: '50.0', lon: '8.5', radius: '25' }), { lat: 50, lon: 8.5, radiusNm: 25 });
  assert.deepEqual(parsePoint({ lat: '-90', lon: '180', radius: '0' }), { lat: -90, lon: 180, radiusNm: 0 });
  assert.deepEqual(parsePoint({ lat: '1', lon: '2', radius: '1000' }), { lat: 1, lon: 2, radiusNm: RADIUS_CAP_NM });
  assert.equal(RADIUS_CAP_NM, 250);
});

test('malformed point path values are 422 with a detail that says the fix', () => {
  refuses(() => parsePoint({ lat: 'abc', lon: '8.5', radius: '25' }), /lat "abc" is not a finite number/);
  refuses(() => parsePoint({ lat: '50', lon: '', radius: '25' }), /lon "" is not a finite number/);
  refuses(() => parsePoint({ lat: '50', lon: '8.5', radius: 'Infinity' }), /radius "Infinity" is not a finite number/);
  refuses(() => parsePoint({ lat: '50', lon: '8.5', radius: 'NaN' }), /radius/);
  refuses(() => parsePoint({ lat: '50', lon: '8.5', radius: '-1' }), /radius -1 is negative/);
  refuses(() => parsePoint({ lat: '90.01', lon: '8.5', radius: '25' }), /lat 90.01 is outside -90..90/);
  refuses(() => parsePoint({ lat: '50', lon: '-180.5', radius: '25' }), /lon -180.5 is outside -180..180/);
  refuses(() => parsePoint({ lat: '0x10', lon: '8.5', radius: '25' }), /lat/);
  refuses(() => parsePoint({}), /lat "" is not a finite number/);
});
