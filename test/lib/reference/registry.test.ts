import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readRefFile } from '../../../lib/reference/index.ts';
import { parseRegistry, buildRegistry, REGISTRY_SOURCE } from '../../../lib/reference/registry.ts';
import { parseCodeBlocks, buildCodeBlocks, isoCountry } from '../../../lib/reference/codeblocks.ts';

const HEADER = 'ICAO,Registration,ModelICAO,Manufacturer,Model,ManufacturerAndModel,IsPrivateOperator,Operator,AirlineCode,SerialNumber,YearBuilt';

test('the shipped registry gives reg, type, operator, airline, serial, year and provenance by hex', async () => {
  const parsed = parseRegistry(await readRefFile('data/ref', 'vrs-standing-data/aircraft.csv.gz'));
  assert.ok(parsed.rows.length > 16_000, 'parsed.rows.length > 16_000');
  // the shipped file has a handful of impossible build years (e.g. 9999): skipped, counted
  assert.ok(parsed.count.skipped < 20, 'parsed.count.skipped < 20');
  assert.deepEqual(Object.keys(parsed.count.reasons), ['bad year']);
  const reg = buildRegistry(parsed.rows);
  const e = reg.get('00800A');
  assert.deepEqual(e, {
    hex: '00800a',
    reg: 'ZS-ZEN',
    type: 'H25B',
    type_name: 'Hawker 800',
    operator: 'Zenith Air',
    private: false,
    airline_code: 'AZR',
    serial: '258246',
    year: 1993,
    source: REGISTRY_SOURCE,
  });
  assert.equal(reg.get('008098')?.year, null);
  assert.equal(reg.get('008098')?.private, true);
  assert.equal(reg.get('ffffff'), null);
});

test('malformed registry rows are skipped and counted; a later row for a hex wins', () => {
  const { rows, count } = parseRegistry(
    [
      HEADER,
      'ABC123,N1,C172,Cessna,172,Cessna 172,1,Private,,1,1970',
      'XYZ,N2,C172,Cessna,172,Cessna 172,1,Private,,1,1970',
      'ABC124,N3,C172,Cessna,172,Cessna 172,1,Private,,1,19x0',
      'ABC125,N4,C172,Cessna,172,Cessna 172,1,Private,,1,1800',
      'ABC126,N5',
      'abc123,N9,C182,Cessna,182,Cessna 182,1,Private,,1,1975',
    ].join('\n'),
  );
  assert.deepEqual(count.reasons, { 'bad hex': 1, 'bad year': 2, 'column count': 1 });
  assert.equal(buildRegistry(rows).get('ABC123')?.reg, 'N9');
});

const blocks = buildCodeBlocks(parseCodeBlocks(await readRefFile('data/ref', 'vrs-standing-data/code-blocks.csv')).rows);

test('the country of a hex is the smallest block containing it', () => {
  assert.equal(blocks.countryOfHex('a0b1c2'), 'US');
  assert.equal(blocks.countryOfHex('3C6444'), 'DE');
  assert.equal(blocks.countryOfHex('400f00'), 'GB');
  assert.equal(blocks.countryOfHex('c00000'), 'CA');
  assert.equal(blocks.isMilitaryHex('ae1234'), true);
  assert.equal(blocks.countryOfHex('ae1234'), 'US');
  assert.equal(blocks.isMilitaryHex('a0b1c2'), false);
});

test('ICAO-reserved (ZZ) and unallocated addresses have no country and are not known', () => {
  assert.equal(blocks.countryOfHex('000001'), null);
  assert.equal(blocks.isKnownHex('000001'), false);
  assert.equal(blocks.isKnownHex('a0b1c2'), true);
  assert.equal(blocks.countryOfHex('ffffff'), null);
  assert.equal(blocks.isKnownHex('ffffff'), false);
});

test('country is ISO 3166-1 alpha-2 or null: the blocks of ICAO (XA), NATO (XB) and other bodies (XC) are no state', () => {
  // real rows of the shipped code-blocks.csv
  assert.equal(blocks.countryOfHex('477ff1'), null, 'XB: NATO');
  assert.equal(blocks.countryOfHex('484080'), null, 'XC');
  assert.equal(blocks.isKnownHex('477ff1'), true, 'allocated all the same: never heard is not_observed, not not_found');
  for (const code of ['XA', 'XB', 'XC', 'ZZ', 'AA', 'QM', 'QZ', 'US ', 'us', 'USA', '']) assert.equal(isoCountry(code), null, JSON.stringify(code));
  for (const code of ['US', 'CH', 'QA', 'XK']) assert.equal(isoCountry(code), code);
});

test('malformed hex input has no country', () => {
  for (const hex of ['', 'a0b1c', 'a0b1c2d', 'g00000', ' a0b1c2', '-00001']) {
    assert.equal(blocks.countryOfHex(hex), null, hex);
    assert.equal(blocks.isKnownHex(hex), false, hex);
    assert.equal(blocks.isMilitaryHex(hex), false, hex);
  }
});

test('nested blocks: the innermost wins at its edges, the outer one just outside', () => {
  const b = buildCodeBlocks(
    parseCodeBlocks(
      [
        'Start,Finish,Count,Bitmask,SignificantBitmask,IsMilitary,CountryISO2',
        '000000,7FFFFF,0,0,0,0,ZZ',
        '100000,1FFFFF,0,0,0,0,CH',
        '140000,14FFFF,0,0,0,1,CH',
        '150000,1500FF,0,0,0,0,LI',
      ].join('\n'),
    ).rows,
  );
  assert.equal(b.countryOfHex('0fffff'), null);
  assert.equal(b.countryOfHex('100000'), 'CH');
  assert.equal(b.isMilitaryHex('13ffff'), false);
  assert.equal(b.isMilitaryHex('140000'), true);
  assert.equal(b.isMilitaryHex('14ffff'), true);
  assert.equal(b.countryOfHex('150000'), 'LI');
  assert.equal(b.countryOfHex('1500ff'), 'LI');
  assert.equal(b.countryOfHex('150100'), 'CH');
  assert.equal(b.countryOfHex('800000'), null);
});

test('malformed code-block rows are skipped and counted', () => {
  const { rows, count } = parseCodeBlocks(
    [
      'Start,Finish,Count,Bitmask,SignificantBitmask,IsMilitary,CountryISO2',
      '100000,1FFFFF,0,0,0,0,AA',
      '1FFFFF,100000,0,0,0,0,AA',
      'XYZ,1FFFFF,0,0,0,0,AA',
      '100000,1FFFFF,0,0,0,2,AA',
      '100000,1FFFFF,0,0,0,0,USA',
    ].join('\n'),
  );
  assert.equal(rows.length, 1);
  assert.deepEqual(count.reasons, { 'bad hex range': 2, 'bad IsMilitary': 1, 'bad country': 1 });
});
