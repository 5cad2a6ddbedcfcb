// the byte scanner against the JSON.parse reference: same snapshot, same counters, same served
// /v1/aircraft bytes, on every feed fixture, the real 12k file and seeded random mutations of
// real records; and whatever the scanner declines goes to the reference unchanged.
import { mulberry32 } from '../../../lib/random.ts';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { scanFeed } from '../../../server/feed/scan.ts';
import { parseFeed, parseFeedJson, SCANNER_FALLBACK, type ParseResult } from '../../../server/feed/parse.ts';
import type { FeedCounters, ParseOk } from '../../../server/feed/normalize.ts';
import { wireOf } from '../../../server/feed/wire.ts';
import { PreparedSnapshot } from '../../../server/live/snapshot.ts';

const fixtures = new URL('../../fixtures/feed/', import.meta.url);
const BENCH = new URL('../../../bench/data/readsb_aircraft_12k.json.gz', import.meta.url);

/** a parse result without the scanner's wire JSON (which only the scanner makes) */
function withoutWire<T extends ParseResult | ParseOk | null>(r: T): T {
  if (!r || !r.ok) return r;
  const { wire: _wire, ...snapshot } = r.snapshot;
  return { ...r, snapshot } as T;
}

/** The scanner's answer equals the reference's; returns whether the scanner answered at all. */
function same(bytes: Buffer, label: string): boolean {
  const refCounters: FeedCounters = { bad_hex: 2 };
  const gotCounters: FeedCounters = { bad_hex: 2 };
  const ref = parseFeedJson(bytes, refCounters);
  const got = scanFeed(bytes, gotCounters);
  // the dispatcher gives the reference's answer either way
  assert.deepStrictEqual(withoutWire(parseFeed(bytes)), parseFeedJson(bytes), label);
  if (got === null) return false;
  assert.ok(ref.ok, `${label}: the scanner accepted what JSON.parse rejects: ${ref.ok ? '' : ref.detail}`);
  assert.deepStrictEqual(withoutWire(got), ref, label);
  assert.deepStrictEqual(gotCounters, refCounters, label);
  assert.ok(wireOf(got.snapshot), `${label}: no wire JSON attached`);
  // served bytes: prepared from the scanner's wire vs from JSON.stringify of the reference records
  const fast = PreparedSnapshot.of(got.snapshot, { eagerGzip: false });
  const slow = PreparedSnapshot.of(ref.snapshot, { eagerGzip: false });
  assert.equal(fast.body.toString('latin1'), slow.body.toString('latin1'), label);
  for (let i = 0; i < fast.total; i++) assert.ok(fast.record(i).equals(slow.record(i)), `${label}: record ${i}`);
  assert.equal(fast.withPosition, slow.withPosition, label);
  return true;
}

test('every feed fixture reads the same through the scanner as through JSON.parse', () => {
  const scanned: string[] = [];
  for (const name of readdirSync(fixtures)
    .filter((f) => f.endsWith('.json'))
    .sort()) {
    if (same(readFileSync(new URL(name, fixtures)), name)) scanned.push(name);
  }
  // the good files are scanned; the whole-file faults are left to the reference
  assert.deepEqual(scanned, ['bad-records.json', 'mutability.json', 'readsb_sample.json']);
});

test('the real 12,400-aircraft readsb file is scanned, with the same records and served bytes', () => {
  const bytes = gunzipSync(readFileSync(BENCH));
  assert.equal(same(bytes, '12k'), true);
  const r = scanFeed(bytes);
  assert.equal(r?.snapshot.aircraft.length, 12400);
});

test('whole-file faults are declined by the scanner and classified by the reference', () => {
  const cases: [string, string][] = [
    ['', 'invalid_json'],
    ['\ufeff{"now": 1795312389, "aircraft": []}', 'invalid_json'],
    ['{"now": 1795312389, "aircraft": []} x', 'invalid_json'],
    ['{"now": 1795312389, "aircraft": [}', 'invalid_json'],
    ['{"now": 1795312389, "aircraft": [{"hex":"abcdef","x":[1,2,}]}', 'invalid_json'],
    ['{"now": 1795312389, "aircraft": [{"hex":"abcdef","x":"a\u0001b"}]}', 'invalid_json'],
    ['{"now": 1795312389, "aircraft": [{"hex":"abcdef","x":"\\q"}]}', 'invalid_json'],
    ['{"now": 1795312389, "aircraft": [{"hex":"abcdef","lat":01}]}', 'invalid_json'],
    ['{"now": 1795312389, "aircraft": [{"hex":"abcdef","lat":1.}]}', 'invalid_json'],
    ['{"now": 1795312389, "aircraft": [{"hex":"abcdef","lat":-}]}', 'invalid_json'],
    ['{"now": 1795312389, "aircraft": [{"hex":"abcdef","lat":NaN}]}', 'invalid_json'],
    ['{"now": 1795312389, "aircraft": [{"hex":"abcdef",}]}', 'invalid_json'],
    ['[1]', 'not_object'],
    ['{"now": "1795312389", "aircraft": []}', 'bad_now'],
    ['{"now": 0, "aircraft": []}', 'bad_now'],
    ['{"now": 1795312389, "aircraft": {}}', 'missing_aircraft'],
    ['{"now": 1795312389}', 'missing_aircraft'],
  ];
  for (const [text, reason] of cases) {
    const bytes = Buffer.from(text);
    assert.equal(scanFeed(bytes), null, text);
    const r = parseFeed(bytes);
    assert.equal(r.ok ? 'ok' : r.reason, reason, text);
  }
  // a repeated `aircraft`: JSON.parse keeps the last one; the scanner declines rather than guess
  const twice = Buffer.from('{"now": 1795312389, "aircraft": [{"hex":"aaaaaa"}], "aircraft": [{"hex":"bbbbbb"}]}');
  assert.equal(scanFeed(twice), null);
  const counters: FeedCounters = {};
  const r = parseFeed(twice, counters);
  assert.ok(r.ok, 'r.ok');
  assert.deepEqual(r.snapshot.aircraft, [{ hex: 'bbbbbb' }]);
  assert.equal(r.snapshot.wire, undefined, 'the reference reader makes no wire JSON');
  // a snapshot the scanner left to JSON.parse is counted, so a feed that always misses the fast path shows
  assert.equal(counters[SCANNER_FALLBACK], 1);
  const scanned: FeedCounters = {};
  parseFeed(Buffer.from('{"now": 1795312389, "aircraft": [{"hex":"aaaaaa"}]}'), scanned);
  assert.equal(scanned[SCANNER_FALLBACK], undefined, 'the fast path is not counted');
});

// seeded mutations of real records ------------------------------------------------------

const sample = readFileSync(new URL('readsb_sample.json', fixtures), 'latin1');
// one record per line in readsb's own formatting (numbers like 245.00 and 7.0 kept as written)
const lines = sample
  .split('\n')
  .filter((l) => l.startsWith('{"hex"'))
  .map((l) => l.replace(/,$/, ''));
const FIELDS = [
  'hex',
  'flight',
  't',
  'r',
  'lat',
  'lon',
  'alt_baro',
  'gs',
  'track',
  'category',
  'squawk',
  'seen',
  'seen_pos',
  'baro_rate',
  'emergency',
  'nav_modes',
  'rssi',
  'type',
];
const VALUES = [
  '"str"',
  'true',
  'false',
  'null',
  '[1,[2,{"a":[]}]]',
  '{"a":{"b":[1,"x"]}}',
  '-0',
  '-0.0',
  '0',
  '0.000001',
  '0.0000001',
  '1e5',
  '1E-2',
  '2.5e+3',
  '123456789012345678',
  '1234567890.12345',
  '0.1234567890123456789',
  '1.50',
  '7.0',
  '-3.10',
  '1e999',
  '-1e999',
  '90',
  '-90.0000',
  '180.000001',
  '-180',
  '360',
  '4000.0',
  '4000.01',
  '-60000',
  '60000.4',
  '-2000',
  '100000',
  '37000.5',
  '-0.4',
  '"NaN"',
  '"Infinity"',
  '"ground"',
  '"GROUND"',
  '"A5"',
  '"E9"',
  '"7700"',
  '"7780"',
  '"none"',
  '"panic"',
  '"\\u0041BC"',
  '"A\\"B"',
  '"A\\\\B"',
  '"\u00e9"',
  '"ABC\\u00a0"',
  '"ABC\u00a0"',
  '"\\ud800X"',
  '"\\ud83d\\ude00"',
  '"  DLH12 "',
  '"        "',
  '""',
  '"TOOLONGCALLSIGN"',
  '"\\/\\b\\f\\n\\r\\t"',
  '"~abc123"',
  '"ABCDEF"',
  '"abc12"',
  '"3c6444"',
  '"\\u0033c6444"',
];
const SPACES = [' ', '\n', '\t', '\r\n', '  '];

function setField(rec: string, key: string, value: string | null): string {
  const re = new RegExp(`"${key}":("(?:[^"\\\\]|\\\\.)*"|\\[[^\\]]*\\]|[^,}\\]]+)`);
  if (value === null) return re.test(rec) ? rec.replace(re, '"_gone":0') : rec;
  return re.test(rec) ? rec.replace(re, () => `"${key}":${value}`) : rec.replace(/}$/, () => `,"${key}":${value}}`);
}

function mutate(rec: string, rnd: () => number, pick: <T>(xs: readonly T[]) => T): string {
  const kind = Math.floor(rnd() * 9);
  switch (kind) {
    case 0:
      return setField(rec, pick(FIELDS), null);
    case 1:
    case 2:
      return setField(rec, pick(FIELDS), pick(VALUES));
    case 3: // mutability names stand in for the new ones
      return rec.replace('"alt_baro"', '"altitude"').replace('"gs"', '"speed"').replace('"baro_rate"', '"vert_rate"');
    case 4: // both names, in either order
      return rec.replace(/}$/, () => `,"${pick(['altitude', 'speed', 'vert_rate'])}":${pick(VALUES)}}`);
    case 5: // unknown fields with nested containers, and a repeated key (the last one counts)
      return rec.replace(/^{/, () => `{"zz":[[],{},{"q":[null,true,-1.5e-3]}],"${pick(FIELDS)}":${pick(VALUES)},`);
    case 6: // whitespace anywhere JSON allows it
      return rec.replace(/([,:{}[\]])/g, (m) => (rnd() < 0.3 ? `${pick(SPACES)}${m}${pick(SPACES)}` : m));
    case 7: // a key spelled with an escape
      return rec.replace(`"${pick(['hex', 'lat', 'flight', 'gs'])}"`, (m) => `"\\u00${m.charCodeAt(1).toString(16)}${m.slice(2)}`);
    default: // a record that is not an object
      return pick(['null', '"abc123"', '[1,2]', '42', 'true']);
  }
}

test('a few hundred seeded random mutations of real records read the same both ways', () => {
  const rnd = mulberry32(20261122);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
  let scanned = 0;
  const DOCS = 400;
  for (let d = 0; d < DOCS; d++) {
    const recs: string[] = [];
    const count = 1 + Math.floor(rnd() * 6);
    for (let i = 0; i < count; i++) {
      let rec = pick(lines);
      const times = 1 + Math.floor(rnd() * 3);
      for (let k = 0; k < times; k++) rec = mutate(rec, rnd, pick);
      recs.push(rec);
    }
    // a repeated hex now and then
    if (rnd() < 0.1) recs.push(recs[0]!);
    const now = pick(['1795312389.000', '1795312389', '1795312389.25', '1.7953123895e9']);
    const messages = pick(['742727', '-1', '12.7', '"many"', 'null', '1e3']);
    const top = [`"now" : ${now}`, `"messages" : ${messages}`, `"aircraft" : [\n${recs.join(',\n')}\n  ]`];
    if (rnd() < 0.3) top.reverse();
    if (rnd() < 0.2) top.splice(1, 0, '"extra": {"a": [1, 2, {"b": null}]}');
    let text = `{ ${top.join(',\n  ')}\n}\n`;
    if (rnd() < 0.03) text = text.slice(0, Math.floor(rnd() * text.length)); // a truncated write
    if (same(Buffer.from(text, 'utf8'), `doc ${d}: ${text}`)) scanned++;
  }
  // the scanner must have done the work, not left it all to the reference
  assert.ok(scanned > DOCS * 0.9, `only ${scanned} of ${DOCS} scanned`);
});

test('invalid UTF-8 inside a string decodes as JSON.parse decodes it', () => {
  const base = '{"now":1795312389,"aircraft":[{"hex":"abcdef","flight":"AB\u00ff\u00feC","r":"X\u00c3"},{"hex":"abcde0","t":"\u00e2\u0082"}]}';
  // latin1 bytes >= 0x80 that are not valid UTF-8 sequences
  assert.equal(same(Buffer.from(base, 'latin1'), 'bad utf-8'), true);
});
