// what a stream client may send: a box as four numbers, as the query's text, or null for the whole
// sky; everything else is refused with a section-7 error whose detail says the fix.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ApiError } from '../../../lib/errors.ts';
import { errorMessage, parseClientMessage, staleMessage } from '../../../server/stream/protocol.ts';

test('a box as an array, as the query text, or null for the whole sky', () => {
  assert.deepEqual(parseClientMessage('{"bbox":[5,45,15,55]}'), { minLon: 5, minLat: 45, maxLon: 15, maxLat: 55 });
  assert.deepEqual(parseClientMessage(Buffer.from('{"bbox":"170,-20,-170,-10"}')), { minLon: 170, minLat: -20, maxLon: -170, maxLat: -10 });
  assert.equal(parseClientMessage('{"bbox":null}'), null);
  assert.deepEqual(
    parseClientMessage('{"bbox":[5,45,15,55],"client":"map 1.2"}'),
    { minLon: 5, minLat: 45, maxLon: 15, maxLat: 55 },
    'extra fields are tolerated',
  );
});

test('malformed messages are 422 invalid_request, each with a detail that names the fault', () => {
  const cases: [string | Buffer, boolean, RegExp][] = [
    ['', false, /not JSON/],
    ['{"bbox":[5,45,15,55]', false, /not JSON/],
    ['[5,45,15,55]', false, /no bbox/],
    ['null', false, /no bbox/],
    ['"bbox"', false, /no bbox/],
    ['{"box":[5,45,15,55]}', false, /no bbox/],
    ['{"bbox":[5,45,15]}', false, /four numbers/],
    ['{"bbox":{"minLon":5}}', false, /four numbers/],
    ['{"bbox":5}', false, /four numbers/],
    ['{"bbox":[5,45,"15",55]}', false, /value 3 \("15"\) is not a finite number/],
    ['{"bbox":[5,45,15,1e999]}', false, /value 4 .* is not a finite number/],
    ['{"bbox":[5,45,15,null]}', false, /value 4 \(null\)/],
    ['{"bbox":[190,45,200,55]}', false, /minLon 190 is outside -180\.\.180/],
    ['{"bbox":[5,55,15,45]}', false, /north of maxLat/],
    ['{"bbox":"5,45,15"}', false, /exactly four numbers/],
    ['{"bbox":"' + '1'.repeat(100) + '"}', false, /longer than 80/],
    [Buffer.from([0x7b, 0x22, 0xff, 0xfe]), false, /not JSON/],
    [Buffer.from('{"bbox":null}'), true, /binary messages/],
  ];
  for (const [data, binary, detail] of cases) {
    assert.throws(
      () => parseClientMessage(data, binary),
      (e: unknown) => e instanceof ApiError && e.status === 422 && e.code === 'invalid_request' && detail.test(e.detail),
      `${String(data).slice(0, 40)}`,
    );
  }
});

test('error and stale messages carry the section-7 fields beside their type', () => {
  const err = JSON.parse(errorMessage(new ApiError(422, 'invalid_request', 'bad box')).toString());
  assert.deepEqual(err, { type: 'error', error: 'invalid_request', detail: 'bad box' });
  const fault = JSON.parse(errorMessage(new Error('/work/secret stack')).toString());
  assert.deepEqual(
    fault,
    { type: 'error', error: 'internal_error', detail: 'an internal fault; the service logged it' },
    'an unknown fault says nothing of itself',
  );
  assert.deepEqual(JSON.parse(staleMessage('61 s old').toString()), { type: 'stale', error: 'stale_snapshot', detail: '61 s old' });
});
