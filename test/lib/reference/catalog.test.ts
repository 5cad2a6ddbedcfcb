import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readRefFile } from '../../../lib/reference/index.ts';
import { parseCatalog, buildCatalog } from '../../../lib/reference/catalog.ts';
import { parseAlliances } from '../../../lib/reference/alliances.ts';
import { RefdataError } from '../../../lib/reference/csv.ts';

const parsed = parseCatalog(await readRefFile('data/ref', 'vrs-standing-data/routes.csv.gz'));
const catalog = buildCatalog(parsed.rows);

test('the shipped catalog parses whole and answers by normalised callsign', () => {
  assert.equal(parsed.count.skipped, 0);
  assert.ok(catalog.size > 600_000, 'catalog.size > 600_000');
  assert.deepEqual(catalog.route('AAC710'), ['KONT', 'KGSO']);
  assert.deepEqual(catalog.route('aac0710'), ['KONT', 'KGSO']);
  assert.deepEqual(catalog.route('AAE124'), ['VHHH', 'UACC', 'EBLG']); // multi-stop kept in order
  assert.equal(catalog.route('N12345'), null);
  assert.equal(catalog.route(''), null);
});

test('every catalog row can be iterated', () => {
  let n = 0;
  for (const r of catalog.rows()) {
    n++;
    assert.ok(r.airports.length >= 2, 'r.airports.length >= 2');
  }
  assert.equal(n, catalog.size);
});

test('a returned route is a copy: callers cannot change the catalog', () => {
  catalog.route('AAC710')!.push('XXXX');
  assert.deepEqual(catalog.route('AAC710'), ['KONT', 'KGSO']);
});

test('malformed catalog rows are skipped and counted', () => {
  const { rows, count } = parseCatalog(
    'Callsign,Code,Number,AirlineCode,AirportCodes\nABC1,ABC,1,ABC,KJFK-EGLL\nABC2,ABC,2,ABC,KJFK\nABC3,ABC,3,ABC,KJFK-EG!L\n,ABC,4,ABC,KJFK-EGLL\nABC5,ABC\n',
  );
  assert.equal(rows.length, 1);
  assert.deepEqual(count.reasons, { 'bad airport codes': 2, 'bad callsign': 1, 'column count': 1 });
});

test('the shipped alliances file has sourced memberships', async () => {
  const doc = parseAlliances(await readRefFile('data/ref', 'alliances.json'));
  assert.deepEqual(
    doc.alliances.map((a) => a.slug),
    ['star-alliance', 'oneworld', 'skyteam'],
  );
  for (const a of doc.alliances) assert.match(a.source, /^https:\/\//);
  assert.ok(
    doc.alliances.find((a) => a.slug === 'skyteam')!.members.some((m) => m.icao === 'DAL' && m.iata === 'DL'),
    "doc.alliances.find((a) => a.slug === 'skyteam')!.members.some((m) => m.icao === 'DAL' && m.iata === 'DL')",
  );
});

test('a malformed alliances file is refused with the path of the problem', () => {
  const good = {
    as_of: '2025-06-30',
    alliances: [{ slug: 'a-b', name: 'A', source: 'https://x.example/m', members: [{ icao: 'ABC', iata: 'AB', name: 'Abc' }] }],
  };
  const bad = (mutate: (d: any) => void) => {
    const d = structuredClone(good);
    mutate(d);
    return JSON.stringify(d);
  };
  const cases: [string, RegExp][] = [
    ['{not json', /not valid JSON/],
    ['[]', /top level must be an object/],
    [bad((d) => (d.as_of = 'mid-2025')), /as_of must be a date/],
    [bad((d) => (d.alliances = [])), /alliances must be a non-empty array/],
    [bad((d) => (d.alliances[0].slug = 'A B')), /alliances\[0\]\.slug/],
    [bad((d) => d.alliances.push(structuredClone(d.alliances[0]))), /alliances\[1\]\.slug duplicates "a-b"/],
    [bad((d) => (d.alliances[0].source = 'http://x')), /alliances\[0\]\.source must be an https URL/],
    [bad((d) => (d.alliances[0].members[0].icao = 'AB')), /alliances\[0\]\.members\[0\]\.icao/],
    [bad((d) => (d.alliances[0].members[0].iata = 'ABC')), /members\[0\]\.iata/],
    [bad((d) => delete d.alliances[0].members[0].name), /members\[0\]\.name/],
  ];
  for (const [text, re] of cases)
    assert.throws(
      () => parseAlliances(text),
      (e: Error) => e instanceof RefdataError && re.test(e.message),
      text,
    );
  assert.equal(parseAlliances(JSON.stringify(good)).alliances[0]!.members[0]!.iata, 'AB');
});
