import { test } from 'node:test';
import assert from 'node:assert/strict';
import { airframeBytes, airframeDoc, airframeIdentity, airframeJson, MAX_LEGS, type AirframeLeg } from '../../artifacts/airframe-doc.ts';
import { problems } from '../../schemas/index.ts';
import { makeRef } from '../helpers/ref-fixture.ts';

const T0 = 1_717_200_000; // pinned
const ref = makeRef();
const leg = (i: number): AirframeLeg => ({
  date: new Date((T0 + i * 3600) * 1000).toISOString().slice(0, 10),
  org: 'ZRH',
  dst: null,
  org_ident: 'LSZH',
  dst_ident: null,
  callsign: 'SWR1',
  dep: T0 + i * 3600,
  arr: null,
  first_seen: T0 + i * 3600,
  last_seen: T0 + i * 3600 + 60,
  route_source: null,
  table_source: null,
  flights_date: new Date((T0 + i * 3600) * 1000).toISOString().slice(0, 10),
});

test('legs come out newest first and at most 200, whatever order they arrive in', () => {
  const shuffled = Array.from({ length: 230 }, (_, i) => leg((i * 7919) % 230));
  const doc = airframeDoc(airframeIdentity('4b1814', null, ref), shuffled);
  assert.equal(doc.legs!.length, MAX_LEGS);
  assert.equal(doc.legs![0]!.first_seen, T0 + 229 * 3600);
  assert.equal(doc.legs![199]!.first_seen, T0 + 30 * 3600);
  assert.deepEqual(problems('airframe', doc), []);
});

test('the document made from the legs as text is byte for byte the one made from the parsed legs', () => {
  const newest = Array.from({ length: MAX_LEGS }, (_, i) => ({ ...leg(MAX_LEGS - i), callsign: i % 2 ? 'SWR1' : null, dst: i % 3 ? 'LHR' : null }));
  const cases: [string, AirframeLeg[]][] = [
    ['4b1814', newest],
    ['4b1814', newest.slice(0, 1)],
    ['3c6444', []],
  ];
  for (const [hex, legs] of cases) {
    const id = airframeIdentity(hex, { reg: 'HB-JVL', type: 'A320', operator_icao: 'SWR' }, ref);
    const text = airframeJson(id, JSON.stringify(legs));
    assert.equal(text, JSON.stringify(airframeDoc(id, legs)), `${hex} with ${legs.length} legs`);
    assert.deepEqual(problems('airframe', JSON.parse(text)), []);
  }
});

test("the document assembled as bytes from the legs' UTF-8 bytes is the text's UTF-8, non-ASCII included", () => {
  const legs = [{ ...leg(2), callsign: 'ÄBC1' }, leg(1)];
  for (const [hex, log] of [
    ['4b1814', null],
    ['a00001', { reg: 'HB-ZÜRICH', type: 'C172', operator_icao: null }],
  ] as const) {
    const id = airframeIdentity(hex, log, ref);
    const bytes = airframeBytes(id, Buffer.from(JSON.stringify(legs)));
    assert.equal(bytes.buffer.byteLength, bytes.byteLength, 'a buffer of its own (movable to a worker)');
    assert.equal(Buffer.from(bytes).toString('utf8'), airframeJson(id, JSON.stringify(legs)), hex);
    assert.deepEqual(Buffer.from(bytes), Buffer.from(JSON.stringify(airframeDoc(id, legs))), hex);
  }
});

test('legs null (log not loaded) and [] (not seen) stay distinct and valid', () => {
  const id = airframeIdentity('4b1814', null, ref);
  assert.equal(airframeDoc(id, null).legs, null);
  assert.deepEqual(airframeDoc(id, []).legs, []);
  assert.deepEqual(problems('airframe', airframeDoc(id, null)), []);
});

test('the log fills what the registry lacks and source names both tables', () => {
  const id = airframeIdentity('4b0001', { reg: 'HB-OLD', type: 'C172', operator_icao: null }, ref);
  assert.deepEqual([id.reg, id.type, id.category, id.source], ['HB-ABC', 'C172', 'piston', 'vrs-standing-data:aircraft.csv+flight-log']);
  const none = airframeIdentity('a00001', null, ref);
  assert.deepEqual([none.reg, none.source, none.country], [null, null, null]);
});

test('the airline is the observed operator when known, else the registry airline code', () => {
  assert.deepEqual(airframeIdentity('4b1814', { reg: null, type: null, operator_icao: 'DLH' }, ref).airline?.icao, 'DLH');
  const reg = airframeIdentity('4b1814', null, ref).airline;
  assert.deepEqual([reg?.icao, reg?.source], ['SWR', 'registry']);
  // an unknown observed prefix resolves to no airline object, operator_icao stays as heard
  const unk = airframeIdentity('a00001', { reg: null, type: null, operator_icao: 'QQQ' }, ref);
  assert.deepEqual([unk.operator_icao, unk.airline], ['QQQ', null]);
});

test('a state airframe (a hex of a military block) is given no airline, whatever it flies under or the registry says', () => {
  // ae1234 is in the US military block; it flies under SWR in this log: operator_icao says so, airline stays null
  const heard = airframeIdentity('ae1234', { reg: null, type: 'C17', operator_icao: 'SWR' }, ref);
  assert.deepEqual([heard.operator_icao, heard.airline], ['SWR', null]);
  // the registry's airline code does not give one either (the NATO C-17 477ff3, registered with BRK)
  const registered = airframeIdentity('477ff3', null, {
    ...ref,
    registry: (hex) => (hex === '477ff3' ? { ...ref.registry('4b1814')!, hex, reg: '08-0003', type: 'C17', airline: 'SWR' } : null),
  });
  assert.deepEqual([registered.reg, registered.airline], ['08-0003', null]);
  // the same rows on a civil hex do give the airline: the rule is the hex's block, not the type or the code
  assert.equal(airframeIdentity('4b1814', { reg: null, type: 'C17', operator_icao: 'SWR' }, ref).airline?.icao, 'SWR');
});

test('malformed airframe documents are refused by the schema', () => {
  const doc = airframeDoc(airframeIdentity('4b1814', null, ref), [leg(1)]);
  assert.notDeepEqual(problems('airframe', { ...doc, hex: '4B1814' }), []);
  assert.notDeepEqual(problems('airframe', { ...doc, country: 'CHE' }), []);
  assert.notDeepEqual(problems('airframe', { ...doc, legs: [{ ...leg(1), route_source: 'catalog' }] }), []);
  assert.notDeepEqual(problems('airframe', { ...doc, legs: Array.from({ length: 201 }, (_, i) => leg(i)) }), []);
});
