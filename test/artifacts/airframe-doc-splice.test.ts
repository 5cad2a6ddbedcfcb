// spliceLegs (artifacts/airframe-doc-splice.ts): the new legs on top, the dropped ones off the end, the
// cap; null (never a wrong document) when the previous legs are not what the caller says they are.
// airframeLegsOf: the legs of a document only when its head is the identity's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { airframeBytes, airframeDoc, airframeFrame, airframeIdentity, airframeLegsOf, type AirframeLeg } from '../../artifacts/airframe-doc.ts';
import { legStarts, spliceLegs } from '../../artifacts/airframe-doc-splice.ts';
import { makeRef } from '../helpers/ref-fixture.ts';

const T0 = 1_717_200_000; // pinned
const ref = makeRef();
// legs as DuckDB writes them (AirframeLeg's field order); a callsign with the characters a naive
// split would cut at, to show the boundary is only ever between legs
const leg = (i: number, callsign = 'SWR1'): AirframeLeg => ({
  date: new Date((T0 + i * 3600) * 1000).toISOString().slice(0, 10),
  org: 'ZRH',
  dst: null,
  org_ident: 'LSZH',
  dst_ident: null,
  callsign,
  dep: T0 + i * 3600,
  arr: null,
  first_seen: T0 + i * 3600,
  last_seen: T0 + i * 3600 + 60,
  route_source: null,
  table_source: null,
  flights_date: new Date((T0 + i * 3600) * 1000).toISOString().slice(0, 10),
});
/** legs i = hi..lo, newest first */
const range = (hi: number, lo: number) => Array.from({ length: hi - lo + 1 }, (_, k) => leg(hi - k, (hi - k) % 3 === 0 ? '},{"date":"x' : 'SWR1'));
const inner = (legs: AirframeLeg[]) => Buffer.from(JSON.stringify(legs).slice(1, -1));
const arr = (legs: AirframeLeg[]) => Buffer.from(JSON.stringify(legs));
const splice = (prev: AirframeLeg[], added: AirframeLeg[], dropped: AirframeLeg[], max = 5, count = prev.length) =>
  spliceLegs(arr(prev), count, { added: inner(added), addedCount: added.length, dropped: inner(dropped), droppedCount: dropped.length }, max);
const parsed = (b: Uint8Array | null) => (b === null ? null : (JSON.parse(Buffer.from(b).toString('utf8')) as AirframeLeg[]));

test('legStarts finds every leg and nothing inside a string', () => {
  assert.deepEqual(legStarts(arr([])), []);
  const legs = range(9, 0);
  const starts = legStarts(arr(legs));
  assert.equal(starts.length, 10);
  starts.forEach((s, i) =>
    assert.equal(
      arr(legs)
        .subarray(s, s + 9)
        .toString(),
      '{"date":"',
      `leg ${i}`,
    ),
  );
});

test('new legs on top, dropped ones off the end, the cap applied', () => {
  // under the cap: 3 kept + 1 dropped, 1 added
  assert.deepEqual(parsed(splice(range(3, 0), range(4, 4), range(0, 0))), range(4, 1));
  // at the cap: the oldest fall off; the dropped ones were outside it
  assert.deepEqual(parsed(splice(range(9, 5), range(11, 10), [])), range(11, 7));
  // the new legs alone fill the cap
  assert.deepEqual(parsed(splice(range(9, 5), range(20, 16), [])), range(20, 16));
  // every leg dropped, none added: an empty array
  assert.deepEqual(parsed(splice(range(1, 0), [], range(1, 0))), []);
  // nothing before: the new legs
  assert.deepEqual(parsed(splice([], range(2, 1), [])), range(2, 1));
  // nothing at all changes: the same bytes
  assert.deepEqual(Buffer.from(splice(range(4, 0), [], [])!), arr(range(4, 0)));
});

test("with the frame of an identity, the splice is that identity's whole document, in a buffer of its own", () => {
  const id = airframeIdentity('4b1814', { reg: 'HB-JVL', type: 'A320', operator_icao: 'SWR' }, ref);
  const made = spliceLegs(
    arr(range(3, 0)),
    4,
    { added: inner(range(5, 4)), addedCount: 2, dropped: inner(range(0, 0)), droppedCount: 1 },
    5,
    airframeFrame(id),
  )!;
  assert.deepEqual(Buffer.from(made), Buffer.from(JSON.stringify(airframeDoc(id, range(5, 1)))));
  assert.equal(made.buffer.byteLength, made.byteLength, 'a buffer of its own (movable to a worker)');
});

test('previous legs that are not what the log says give null, not a document', () => {
  // the dropped legs are not its last ones
  assert.equal(splice(range(3, 0), [], range(1, 1)), null);
  assert.equal(splice(range(3, 0), [], [{ ...leg(0), callsign: 'OTHER' }]), null);
  // more dropped than it holds; a count other than its legs; more added than the cap
  assert.equal(splice(range(0, 0), [], range(1, 0)), null);
  assert.equal(splice(range(3, 0), range(4, 4), [], 5, 3), null);
  assert.equal(splice(range(3, 0), range(10, 4), [], 5), null);
  // dropped bytes given with a count of 0
  assert.equal(spliceLegs(arr(range(3, 0)), 4, { added: inner([]), addedCount: 0, dropped: inner(range(0, 0)), droppedCount: 0 }), null);
});

test("airframeLegsOf gives the legs of the identity's document, and null for another's or a torn one", () => {
  const log = { reg: 'HB-JVL', type: 'A320', operator_icao: 'SWR' };
  const id = airframeIdentity('4b1814', log, ref);
  const legs = arr(range(3, 0));
  const doc = airframeBytes(id, legs);
  assert.deepEqual(Buffer.from(airframeLegsOf(doc, airframeFrame(id))!), legs);
  assert.deepEqual(Buffer.from(airframeLegsOf(Buffer.from(JSON.stringify(airframeDoc(id, []))), airframeFrame(id))!), Buffer.from('[]'));
  assert.equal(airframeLegsOf(doc, airframeFrame(airframeIdentity('4b1814', { ...log, operator_icao: 'DLH' }, ref))), null, 'another operator');
  assert.equal(airframeLegsOf(doc.subarray(0, doc.length - 2), airframeFrame(id)), null, 'torn');
  assert.equal(airframeLegsOf(Buffer.from(JSON.stringify(airframeDoc(id, null))), airframeFrame(id)), null, 'legs null');
});
