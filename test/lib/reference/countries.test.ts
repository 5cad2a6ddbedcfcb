// country names to alpha-2 codes from the shipped tables, as FlightGazer spells them
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readRefFile } from '../../../lib/reference/index.ts';
import { parseOperators } from '../../../lib/reference/airlines.ts';
import { countryCodes, parseCountries, parseVrsCountries } from '../../../lib/reference/countries.ts';

const countries = parseCountries(await readRefFile('data/ref', 'ourairports/countries.csv'));
const vrsCountries = parseVrsCountries(await readRefFile('data/ref', 'vrs-standing-data/countries.csv'));
const codeOf = countryCodes([...countries.rows, ...vrsCountries.rows]);

test('the shipped OurAirports countries parse whole', () => {
  assert.equal(countries.count.skipped, 0);
  assert.ok(countries.rows.length > 240, `${countries.rows.length} rows`);
});

test("FlightGazer's upper-case names get their alpha-2 code, official long forms too", () => {
  const cases: [string, string][] = [
    ['HUNGARY', 'HU'],
    ['UNITED KINGDOM', 'GB'],
    ['UNITED STATES', 'US'],
    ['RUSSIAN FEDERATION', 'RU'], // not OurAirports' name (Russia): i18n-iso-countries' long form
    ['CZECHIA', 'CZ'],
    ['REPUBLIC OF KOREA', 'KR'],
    ["COTE D'IVOIRE", 'CI'], // accents and punctuation do not count
    ['VIET NAM', 'VN'],
    ['Switzerland', 'CH'],
  ];
  for (const [name, code] of cases) assert.equal(codeOf(name), code, name);
});

test('a name no table knows has no code: null, never a guess', () => {
  for (const name of ['', '   ', 'ATLANTIS', 'S.A. DE C.V.', 'UNITED']) assert.equal(codeOf(name), null, JSON.stringify(name));
});

test('almost every country FlightGazer names maps to a code, and each one to a real alpha-2', async () => {
  const ops = parseOperators(await readRefFile('data/ref', 'flightgazer/operators.csv')).rows;
  const names = new Set(ops.map((o) => o.country).filter((c): c is string => c !== null));
  const known = new Set(countries.rows.map((r) => r.code));
  const missed = [...names].filter((n) => codeOf(n) === null);
  for (const n of names) {
    const c = codeOf(n);
    if (c) assert.ok(known.has(c), `${n} -> ${c} is not an OurAirports country`);
  }
  // measured 2026-12-02: 183 names, 4 without a code (REPUBLIC OF MOLDOVA, IRAN (ISLAMIC REPUBLIC OF), CABO VERDE, DPRK)
  assert.ok(missed.length <= 5, `no code for: ${missed.join(', ')}`);
});

test('malformed country rows are skipped and counted', () => {
  const c = parseCountries(
    '"id","code","name","continent","wikipedia_link","keywords"\n1,"XX1","Bad","EU","",""\n2,"QQ","","EU","",""\n3,"ZZ","Zed","EU","","Zedland, Zeta"\n',
  );
  assert.deepEqual(c.count.reasons, { 'bad country code': 1, 'missing name': 1 });
  assert.deepEqual(c.rows, [{ code: 'ZZ', name: 'Zed', keywords: ['Zedland', 'Zeta'] }]);
  assert.equal(countryCodes(c.rows)('ZEDLAND'), 'ZZ');
});
