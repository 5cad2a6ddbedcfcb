import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readRefFile } from '../../../lib/reference/index.ts';
import { parseModelTypes, buildTypes, REGIONAL_JETS, NARROW_HEAVY } from '../../../lib/reference/types.ts';

const parsed = parseModelTypes(await readRefFile('data/ref', 'vrs-standing-data/model-type.csv'));
const types = buildTypes(parsed.rows);

test('the shipped model-type file parses whole', () => {
  assert.equal(parsed.count.skipped, 0);
  assert.ok(types.size > 2500, 'types.size > 2500');
});

test('real designators fall in the documented categories', () => {
  const expected: Record<string, string | null> = {
    A320: 'narrow',
    B738: 'narrow',
    B39M: 'narrow',
    BCS3: 'narrow',
    B752: 'narrow',
    B77W: 'wide',
    A388: 'wide',
    B788: 'wide',
    A359: 'wide',
    DC86: 'narrow',
    CRJ9: 'regional',
    E75L: 'regional',
    E190: 'regional',
    RJ85: 'regional',
    AT76: 'turboprop',
    DH8D: 'turboprop',
    PC12: 'turboprop',
    C208: 'turboprop',
    C172: 'piston',
    P28A: 'piston',
    EC35: 'helicopter',
    R44: 'helicopter',
    V22: 'tiltrotor',
    GLF6: 'business',
    CL60: 'business',
    GLEX: 'business',
    C25A: 'business',
    LJ45: 'business',
    E55P: 'business',
    FA7X: 'business',
    F16: 'military',
    '-GND': null,
  };
  for (const [d, cat] of Object.entries(expected)) assert.equal(types.category(d), cat, d);
});

test('type names are manufacturer and model, case-insensitive lookup, null when unknown', () => {
  assert.equal(types.typeName('a320'), 'Airbus A-320');
  assert.equal(types.typeName('B77W'), 'Boeing 777-300ER');
  assert.equal(types.typeName('C172'), 'Cessna 172');
  assert.equal(types.typeName('B738'), 'Boeing 737-800'); // not the BBJ2 row
  assert.equal(types.typeName('9Z9Z'), null);
  assert.equal(types.category(''), null);
  assert.ok(types.get('C172')!.variants.includes('Reims F172'), "types.get('C172')!.variants.includes('Reims F172')");
});

test('every curated designator exists in the table (a typo would silently do nothing)', () => {
  for (const d of [...REGIONAL_JETS, ...NARROW_HEAVY]) assert.ok(types.get(d), d);
});

test('malformed model-type rows are skipped and counted', () => {
  const { rows, count } = parseModelTypes(
    'ICAO,Manufacturer,Model,Engines,EngineTypeCode,EnginePlacementCode,SpeciesCode,WakeTurbulenceCode,IsActive\n' +
      'AB12,M,X,2,J,,L,M,1\nTOOLONG,M,X,2,J,,L,M,1\nAB13,M,X,two,J,,L,M,1\nAB14,M,X,2,J,,L,M,yes\nAB15,M\n',
  );
  assert.equal(rows.length, 1);
  assert.deepEqual(count.reasons, { 'bad designator': 1, 'bad engine count': 1, 'bad IsActive': 1, 'column count': 1 });
});
