// the /v2 search tables of a snapshot: every key found, case as normalised, in feed order, keys
// that are prefixes of others and keys beyond ASCII included; and the tables cross threads as
// transferred bytes, not strings on the receiving thread's heap.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { AircraftRecord } from '../../../server/feed/record.ts';
import { SearchIndex, searchParts } from '../../../server/parts/search-index.ts';
import { prepareParts, transferList } from '../../../server/parts/prepare.ts';

const list: AircraftRecord[] = [
  { hex: '4b1814', flight: 'SWR12', r: 'HB-JCA', t: 'A20N', squawk: '1000' },
  { hex: '4b1815', flight: 'SWR1', r: 'HB-JCB', t: 'A20N', squawk: '7700' },
  { hex: '~2a0001', flight: 'SWR123', t: 'BCS3' },
  // a registration beyond ASCII (a simulator's record may carry one; the feed's are printable ASCII)
  { hex: 'a00001', flight: 'ÄB1', r: 'D-ÉFGH', t: 'C172', squawk: '1000' },
  { hex: 'a00002', flight: 'AB1', r: 'D-EFGH' },
];

test('every key is found, in feed order, prefixes and non-ASCII keys included; a missing key finds nothing', () => {
  const s = new SearchIndex(searchParts(list));
  assert.equal(s.size, 5);
  assert.deepEqual(
    [0, 1, 2, 3, 4].map((i) => s.hexOf(i)),
    list.map((a) => a.hex),
  );
  assert.deepEqual(s.find('callsign', 'SWR1'), [1]);
  assert.deepEqual(s.find('callsign', 'SWR12'), [0]);
  assert.deepEqual(s.find('callsign', 'SWR123'), [2]);
  assert.deepEqual(s.find('callsign', 'SWR'), []);
  assert.deepEqual(s.find('callsign', 'ÄB1'), [3]);
  assert.deepEqual(s.find('callsign', 'AB1'), [4]);
  assert.deepEqual(s.find('reg', 'D-ÉFGH'), [3]);
  assert.deepEqual(s.find('reg', 'D-EFGH'), [4]);
  assert.deepEqual(s.find('type', 'A20N'), [0, 1]);
  assert.deepEqual(s.find('squawk', '1000'), [0, 3]);
  assert.deepEqual(s.find('hex', '~2a0001'), [2]);
  assert.deepEqual(s.find('hex', 'zzzzzz'), []);
});

test('the search tables are bytes that move with the snapshot (transferred), not strings', () => {
  const p = prepareParts({ now: 1, aircraft: list });
  const moved = new Set(transferList(p));
  const views = [p.search.hexes, ...Object.values(p.search.tables).flatMap((t) => [t.keys, t.off, t.ids])];
  for (const v of views) {
    assert.ok(ArrayBuffer.isView(v), 'a typed array, not a string');
    assert.ok(moved.has(v.buffer as ArrayBuffer), 'in the transfer list');
    assert.equal(v.byteLength, v.buffer.byteLength, 'owning its whole buffer, so moving it moves nothing else');
  }
});
