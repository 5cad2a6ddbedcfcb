// the feed parser: whole-file rejection, per-record and per-field drops, the 2.1 wire fields only.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { parseFeed } from '../../../server/feed/parse.ts';
import type { FeedCounters } from '../../../server/feed/normalize.ts';
import { WIRE_FIELDS } from '../../../server/feed/record.ts';
import { problems } from '../../../schemas/index.ts';

const fixture = (name: string) => readFileSync(new URL(`../../fixtures/feed/${name}`, import.meta.url));

function ok(name: string) {
  const r = parseFeed(fixture(name));
  assert.ok(r.ok, `${name} should parse: ${r.ok ? '' : r.detail}`);
  return r;
}

test('a real readsb snapshot parses into schema-valid 2.1 records with no internal field', () => {
  const r = ok('readsb_sample.json');
  const raw = JSON.parse(fixture('readsb_sample.json').toString()) as { aircraft: unknown[] };
  assert.equal(r.snapshot.now, 1795312389);
  assert.equal(r.snapshot.messages, 742727);
  assert.equal(r.snapshot.aircraft.length, raw.aircraft.length);
  assert.deepEqual(r.dropped, {});
  const allowed = new Set<string>(WIRE_FIELDS);
  for (const a of r.snapshot.aircraft) {
    assert.deepEqual(problems('aircraft-record', a), [], JSON.stringify(a));
    for (const k of Object.keys(a)) assert.ok(allowed.has(k), `internal field ${k} leaked`);
    // key order is the spec's order, so serialised bytes are stable
    const order = Object.keys(a).map((k) => WIRE_FIELDS.indexOf(k as (typeof WIRE_FIELDS)[number]));
    assert.deepEqual(
      order,
      [...order].sort((x, y) => x - y),
    );
  }
  const json = JSON.stringify(r.snapshot.aircraft);
  for (const leak of ['nav_modes', 'mlat', 'rssi', 'tisb', 'alt_geom', 'nic', '"type"', 'messages']) assert.ok(!json.includes(leak), leak);
});

test('flight loses its trailing spaces; a position comes with lat, lon and seen_pos together', () => {
  const r = ok('readsb_sample.json');
  const first = r.snapshot.aircraft[0]!;
  assert.deepEqual(first, {
    hex: 'c1aade',
    flight: 'VOI712',
    t: 'A359',
    r: 'C-TOBM',
    lat: 77.288818,
    lon: -179.431229,
    alt_baro: 37000,
    gs: 493.1,
    track: 246.45,
    category: 'A5',
    squawk: '7732',
    seen: 5.3,
    seen_pos: 5.328,
    baro_rate: 0,
    emergency: 'none',
  });
  const noPos = r.snapshot.aircraft.filter((a) => a.lat === undefined);
  assert.ok(noPos.length >= 20, 'noPos.length >= 20');
  for (const a of noPos) assert.ok(a.lon === undefined && a.seen_pos === undefined, 'a.lon === undefined && a.seen_pos === undefined');
  assert.ok(
    r.snapshot.aircraft.some((a) => a.alt_baro === 'ground'),
    "r.snapshot.aircraft.some((a) => a.alt_baro === 'ground')",
  );
});

test('whole-file problems reject the snapshot with a typed reason', () => {
  const cases: [string, string][] = [
    ['truncated.json', 'invalid_json'],
    ['nan-literal.json', 'invalid_json'],
    ['not-object.json', 'not_object'],
    ['no-aircraft.json', 'missing_aircraft'],
    ['aircraft-not-array.json', 'missing_aircraft'],
    ['bad-now.json', 'bad_now'],
  ];
  for (const [file, reason] of cases) {
    const r = parseFeed(fixture(file));
    assert.equal(r.ok, false, file);
    if (!r.ok) {
      assert.equal(r.reason, reason, file);
      assert.ok(r.detail.length > 0, 'r.detail.length > 0');
    }
  }
  for (const [text, reason] of [
    ['', 'invalid_json'],
    ['null', 'not_object'],
    ['42', 'not_object'],
    ['{"aircraft": []}', 'bad_now'],
    ['{"now": -5, "aircraft": []}', 'bad_now'],
    ['{"now": 1795312389000, "aircraft": []}', 'bad_now'],
    ['{"now": 1e999, "aircraft": []}', 'bad_now'],
    ['{"now": 1795312389, "aircraft": null}', 'missing_aircraft'],
  ] as const) {
    const r = parseFeed(text);
    assert.equal(r.ok ? 'ok' : r.reason, reason, text);
  }
});

test('per-record problems drop the bad field or the record and are counted by kind', () => {
  const counters: FeedCounters = { bad_hex: 1 };
  const r = parseFeed(fixture('bad-records.json'), counters);
  assert.ok(r.ok, 'r.ok');
  const byHex = new Map(r.snapshot.aircraft.map((a) => [a.hex, a]));
  assert.deepEqual([...byHex.keys()], ['3c6444', '4b1801', '4b1802', '4b1803', '4b1804', '4b1805']);
  // upper-case hex is lower-cased; geom_rate is not a fallback for baro_rate; the duplicate is dropped
  assert.deepEqual(byHex.get('3c6444'), {
    hex: '3c6444',
    flight: 'DLH4AB',
    t: 'A319',
    r: 'D-AIBA',
    lat: 50.1,
    lon: 8.6,
    alt_baro: 12000,
    gs: 310.5,
    track: 90,
    category: 'A3',
    squawk: '1000',
    seen: 0.1,
    seen_pos: 0.5,
    baro_rate: -640,
    emergency: 'none',
  });
  // lat 91: the position goes (with seen_pos), the aircraft stays; a blank flight is absent
  assert.deepEqual(byHex.get('4b1801'), { hex: '4b1801', alt_baro: 'ground', seen: 1 });
  assert.deepEqual(byHex.get('4b1802'), { hex: '4b1802', alt_baro: 35000 });
  assert.deepEqual(byHex.get('4b1803'), { hex: '4b1803' });
  // null is "unknown": absent, not a fault
  assert.deepEqual(byHex.get('4b1804'), { hex: '4b1804', seen: 2.5 });
  // edges are inside; a non-ASCII callsign is dropped; a quote in a registration is kept (escaped on output)
  assert.deepEqual(byHex.get('4b1805'), { hex: '4b1805', r: 'D-"QUOTE', lat: -90, lon: -180, alt_baro: -1200, gs: 0, track: 360, baro_rate: 0 });
  assert.deepEqual(r.dropped, {
    non_icao_hex: 1,
    bad_position: 3,
    bad_alt_baro: 1,
    bad_gs: 1,
    bad_track: 1,
    bad_squawk: 1,
    bad_category: 1,
    bad_emergency: 1,
    bad_seen: 1,
    bad_baro_rate: 1,
    bad_flight: 2,
    bad_hex: 3,
    bad_record: 3,
    duplicate_hex: 1,
  });
  // the caller's counters accumulate
  assert.equal(counters.bad_hex, 4);
  assert.equal(counters.non_icao_hex, 1);
  for (const a of r.snapshot.aircraft) assert.deepEqual(problems('aircraft-record', a), [], JSON.stringify(a));
});

test('readsb ~ addresses (TIS-B / MLAT anonymous) are neither served nor counted', () => {
  const r = parseFeed('{"now": 1795312389, "aircraft": [{"hex": "~abc123", "lat": 1, "lon": 2}, {"hex": "abc123", "lat": 1, "lon": 2}]}');
  assert.ok(r.ok, 'r.ok');
  assert.deepEqual(r.snapshot.aircraft, [{ hex: 'abc123', lat: 1, lon: 2 }]);
  assert.deepEqual(r.dropped, { non_icao_hex: 1 });
});

test("dump1090-mutability's altitude, speed and vert_rate are normalised; the new names win when both exist", () => {
  const r = ok('mutability.json');
  assert.equal(r.snapshot.now, 1795312389.5);
  assert.deepEqual(r.snapshot.aircraft, [
    {
      hex: '4ca7b5',
      flight: 'RYR12AB',
      lat: 50.01,
      lon: 8.52,
      alt_baro: 24975,
      gs: 412,
      track: 271,
      category: 'A3',
      squawk: '2000',
      seen: 0.1,
      seen_pos: 0.3,
      baro_rate: -1472,
    },
    { hex: '3c4b26', lat: 50.033, lon: 8.571, alt_baro: 'ground', gs: 12, track: 45, squawk: '1000', seen: 0.9, seen_pos: 1.1 },
    { hex: '3c6586', alt_baro: 36000, gs: 455.5, seen: 4.2, baro_rate: 0 },
  ]);
  assert.deepEqual(r.dropped, {});
});

test('a string and a Buffer of the same text parse the same; messages is optional', () => {
  const text = '{"now": 1795312389.25, "aircraft": [{"hex": "ABCDEF", "flight": "X1 "}]}';
  const a = parseFeed(text);
  const b = parseFeed(Buffer.from(text));
  assert.ok(a.ok && b.ok, 'a.ok && b.ok');
  // the Buffer went through the byte scanner, which also hands over each record's wire JSON
  const { wire, ...scanned } = b.snapshot;
  assert.equal(wire?.bytes.toString('latin1'), '{"hex":"abcdef","flight":"X1"}');
  assert.deepEqual({ ...b, snapshot: scanned }, a);
  assert.deepEqual(a.snapshot, { now: 1795312389.25, aircraft: [{ hex: 'abcdef', flight: 'X1' }] });
});
