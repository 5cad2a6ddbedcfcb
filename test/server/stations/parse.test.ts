// the feeder-list input boundary: malformed files are refused whole, malformed entries one by one.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { base32, canonicalUuid, PUBLIC_ID, StationKeys } from '../../../server/stations/ids.ts';
import { MAX_FEEDERS, parseFeederList } from '../../../server/stations/parse.ts';

const keys = new StationKeys(Buffer.alloc(32, 7));
const U1 = '5b0c3f2e-9a41-4d7e-8c55-0e6f1a2b3c4d';
const U2 = 'e2d1c0b9-a8f7-4e6d-9c5b-4a3928170615';
const GEN = 1795435200;
const feeder = (o: Record<string, unknown> = {}) => ({ uuid: U1, lat: 47.4581, lon: 8.5555, connected: true, ...o });
const list = (feeders: unknown[], extra: Record<string, unknown> = {}) => JSON.stringify({ generated_at: GEN, feeders, ...extra });

test('canonicalUuid accepts any case with or without dashes and refuses everything else', () => {
  assert.equal(canonicalUuid(U1.toUpperCase()), U1);
  assert.equal(canonicalUuid(U1.replace(/-/g, '')), U1);
  assert.equal(canonicalUuid(U1.replace(/-/g, '').toUpperCase()), U1);
  for (const bad of [
    '',
    'x',
    U1 + '0',
    U1.slice(1),
    `{${U1}}`,
    U1.replace('5', 'g'),
    U1.replace(/-/g, '_'),
    `${U1.slice(0, 8)}${U1.slice(9)}-`,
    ' ' + U1.slice(1),
    '00000000-0000-0000-0000-000000000000',
    'FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF',
    'urn:uuid:' + U1,
  ]) {
    assert.equal(canonicalUuid(bad), null, JSON.stringify(bad));
  }
});

test('keys and public ids: deterministic per secret, different across secrets, id shape st_ + 10 base32', () => {
  const k = keys.key(U1);
  assert.equal(k.length, 32);
  assert.deepEqual(keys.key(U1), k);
  assert.notDeepEqual(keys.key(U2), k);
  assert.notDeepEqual(new StationKeys(Buffer.alloc(32, 8)).key(U1), k);
  assert.match(keys.publicId(k), PUBLIC_ID);
  assert.notEqual(keys.publicId(k), keys.publicId(keys.key(U2)));
  assert.equal(base32(Buffer.from('foobar'), 10), 'mzxw6ytboi', 'RFC 4648 test vector, lower case');
  assert.throws(() => new StationKeys(Buffer.alloc(16)), /at least 32 bytes/);
});

test('a well-formed list with and without IP fields parses; IPs and UUIDs appear in no returned value', () => {
  const text = list(
    [
      feeder({ ip: '192.0.2.55', software: 'readsb 3.14', messages: 100, positions: 10, aircraft: 3, connected_since: GEN - 60, extra: { any: 1 } }),
      feeder({ uuid: U2.toUpperCase(), lat: -33.9, lon: 151.2, connected: false }),
    ],
    { aggregator: 'x', version: 3 },
  );
  const r = parseFeederList(text, keys);
  assert.ok(r.ok, 'r.ok');
  assert.equal(r.list.generatedAt, GEN);
  assert.equal(r.list.feeders.length, 2);
  const [a, b] = r.list.feeders;
  assert.deepEqual(a!.key, keys.key(U1));
  assert.deepEqual(b!.key, keys.key(U2), 'upper-case UUID normalised before hashing');
  assert.deepEqual(
    { ...a, key: null },
    {
      key: null,
      lat: 47.4581,
      lon: 8.5555,
      positionSource: 'reported',
      connected: true,
      software: 'readsb 3.14',
      messages: 100,
      positions: 10,
      aircraft: 3,
      connectedSince: GEN - 60,
    },
  );
  assert.equal(b!.software, null);
  assert.deepEqual(r.list.skipped, {});
  const dump = JSON.stringify(r, (_k, v) => (Buffer.isBuffer(v) || v?.type === 'Buffer' ? 'buf' : v));
  for (const needle of ['192.0.2.55', U1, U2, U2.toUpperCase(), U1.replace(/-/g, '')]) assert.ok(!dump.includes(needle), needle);
  assert.ok(!('ip' in a!) && !('uuid' in a!), "!('ip' in a!) && !('uuid' in a!)");
});

test('malformed files are rejected whole with a typed reason', () => {
  const cases: [string, string][] = [
    ['', 'not_json'],
    ['{', 'not_json'],
    ['null', 'not_object'],
    ['[]', 'not_object'],
    ['"x"', 'not_object'],
    [JSON.stringify({ feeders: [] }), 'bad_generated_at'],
    [JSON.stringify({ generated_at: '1795435200', feeders: [] }), 'bad_generated_at'],
    [JSON.stringify({ generated_at: -1, feeders: [] }), 'bad_generated_at'],
    [JSON.stringify({ generated_at: GEN * 1000, feeders: [] }), 'bad_generated_at'],
    [JSON.stringify({ generated_at: null, feeders: [] }), 'bad_generated_at'],
    [JSON.stringify({ generated_at: GEN }), 'bad_feeders'],
    [JSON.stringify({ generated_at: GEN, feeders: {} }), 'bad_feeders'],
    [JSON.stringify({ generated_at: GEN, feeders: new Array(MAX_FEEDERS + 1).fill(0) }), 'too_many_feeders'],
  ];
  for (const [text, reason] of cases) {
    const r = parseFeederList(text, keys);
    assert.equal(r.ok, false, text.slice(0, 40));
    if (!r.ok) assert.equal(r.reason, reason, text.slice(0, 40));
  }
  const empty = parseFeederList(list([]), keys);
  assert.ok(empty.ok && empty.list.feeders.length === 0, 'an empty feeder array is a valid list: nobody connected');
});

test('malformed entries are skipped and counted by reason; the rest of the list is kept', () => {
  const r = parseFeederList(
    list([
      feeder(),
      null,
      7,
      [1],
      feeder({ uuid: 'not-a-uuid' }),
      feeder({ uuid: 42 }),
      feeder({ uuid: undefined }),
      feeder({ uuid: '00000000-0000-0000-0000-000000000000' }),
      feeder({ uuid: U2, lat: 90.1 }),
      feeder({ uuid: U2, lat: -91 }),
      feeder({ uuid: U2, lon: 180.5 }),
      feeder({ uuid: U2, lon: '8.5' }),
      feeder({ uuid: U2, lat: null }),
      feeder({ uuid: U2, lat: 0, lon: 0 }),
      feeder({ uuid: U2, connected: 'yes' }),
      feeder({ uuid: U2, connected: undefined }),
      feeder({ uuid: U1.toUpperCase() }),
    ]),
    keys,
  );
  assert.ok(r.ok, 'r.ok');
  assert.equal(r.list.feeders.length, 1);
  assert.deepEqual(r.list.skipped, { not_object: 3, bad_uuid: 4, bad_position: 6, bad_connected: 2, duplicate_uuid: 1 });
});

test('edge positions are accepted: the poles and the antimeridian', () => {
  const r = parseFeederList(list([feeder({ lat: 90, lon: -180 }), feeder({ uuid: U2, lat: -90, lon: 180 })]), keys);
  assert.ok(r.ok, 'r.ok');
  assert.equal(r.list.feeders.length, 2);
});

test('malformed optional fields are read as absent and counted; the feeder is kept', () => {
  const r = parseFeederList(
    list([
      feeder({
        software: 'x'.repeat(65),
        messages: -1,
        positions: 1.5,
        aircraft: '3',
        connected_since: GEN + 10,
      }),
      feeder({ uuid: U2, software: 'readsb from 10.1.2.3', messages: null }),
    ]),
    keys,
  );
  assert.ok(r.ok, 'r.ok');
  const [a, b] = r.list.feeders;
  assert.deepEqual([a!.software, a!.messages, a!.positions, a!.aircraft, a!.connectedSince], [null, null, null, null, null]);
  assert.equal(b!.software, null, 'a software string carrying an address is dropped');
  assert.equal(r.list.ignoredFields, 6, 'null counts as absent, not malformed');
  const v6 = parseFeederList(list([feeder({ software: 'fw 2001:db8::1' }), feeder({ uuid: U2, software: 'ctl\u0007' })]), keys);
  assert.ok(v6.ok && v6.list.feeders.every((f) => f.software === null), 'v6.ok && v6.list.feeders.every((f) => f.software === null)');
});

test('a feeder listed twice keeps the connected entry', () => {
  const r = parseFeederList(
    list([feeder({ connected: false, aircraft: 1 }), feeder({ connected: true, aircraft: 2 }), feeder({ connected: false, aircraft: 3 })]),
    keys,
  );
  assert.ok(r.ok, 'r.ok');
  assert.equal(r.list.feeders.length, 1);
  assert.equal(r.list.feeders[0]!.aircraft, 2);
  assert.equal(r.list.skipped.duplicate_uuid, 2);
});

test('the shipped demo list parses whole: six connected sample stations, one disconnected, nothing skipped', () => {
  const r = parseFeederList(readFileSync(new URL('../../../data/demo/feeders.json', import.meta.url), 'utf8'), keys);
  assert.ok(r.ok, 'r.ok');
  assert.deepEqual(r.list.skipped, {});
  assert.equal(r.list.ignoredFields, 0);
  assert.deepEqual([r.list.feeders.filter((f) => f.connected).length, r.list.feeders.filter((f) => !f.connected).length], [6, 1]);
});
