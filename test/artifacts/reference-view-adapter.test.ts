// the adapter over the real loaders (the shipped fixture snapshot, not hand-made tables): every
// registry row can be listed, runways come with their ends and sizes, engine placement is read.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadRefdata } from '../../lib/reference/index.ts';
import { parseRunways } from '../../lib/reference/runways.ts';
import { parseModelTypes, buildTypes } from '../../lib/reference/types.ts';
import { refViewOf } from '../../artifacts/reference-view-adapter.ts';
import { airframeIdentity } from '../../artifacts/airframe-doc.ts';

const ref = refViewOf(await loadRefdata('test/fixtures/ref-small'));

test('every registry airframe can be listed, so a registered airframe never heard still gets its documents', () => {
  const all = [...ref.allRegistry()];
  assert.ok(all.length > 16_000, `${all.length} rows`);
  assert.equal(new Set(all.map((r) => r.hex)).size, all.length, 'each hex once');
  const one = all[0]!;
  assert.deepEqual(ref.registry(one.hex), one);
});

test('runways carry their end designators, size and surface from OurAirports', () => {
  const lszh = ref.runways('LSZH');
  assert.ok(lszh.length >= 3, 'lszh.length >= 3');
  const r16 = lszh.find((r) => r.le_ident === '16');
  assert.ok(r16, JSON.stringify(lszh));
  assert.equal(r16.he_ident, '34');
  assert.ok(r16.length_ft! > 10_000 && r16.width_ft! > 100, JSON.stringify(r16));
  assert.ok(r16.surface, 'r16.surface');
  assert.equal(r16.lighted, true);
});

test('malformed runway sizes are unknown, not a lost row', () => {
  const csv = `airport_ident,closed,le_ident,he_ident,length_ft,width_ft,surface,lighted,le_latitude_deg,le_longitude_deg,he_latitude_deg,he_longitude_deg
ABCD,0,09,27,abc,-5,,x,,,,
ABCD,0,18,36,250000,75.4,GRS,0,1,2,1.01,2
`;
  const { runways, count } = parseRunways(csv, 'runways.csv');
  assert.equal(runways.length, 2, JSON.stringify(count));
  assert.deepEqual([runways[0]!.length_ft, runways[0]!.width_ft, runways[0]!.surface, runways[0]!.lighted], [null, null, null, null]);
  assert.deepEqual([runways[1]!.length_ft, runways[1]!.width_ft, runways[1]!.lighted], [null, 75, false]);
});

test('engine placement is read where the type table fills it, and only its documented codes', () => {
  const filled = [...ref.allTypes()].filter((t) => t.engine_placement !== null);
  assert.ok(filled.length > 0, 'some types have a placement');
  assert.ok(
    filled.every((t) => /^[ABFNW]$/.test(t.engine_placement!)),
    'filled.every((t) => /^[ABFNW]$/.test(t.engine_placement!))',
  );
  const csv = `ICAO,Manufacturer,Model,Engines,EngineTypeCode,EnginePlacementCode,SpeciesCode,WakeTurbulenceCode,IsActive
ZZZ1,Acme,One,2,J,W,L,M,1
ZZZ2,Acme,Two,2,J,Q,L,M,1
`;
  const types = buildTypes(parseModelTypes(csv, 'model-type.csv').rows);
  assert.equal(types.get('ZZZ1')?.engine_placement, 'W');
  assert.equal(types.get('ZZZ2')?.engine_placement, null, 'an undocumented code is unknown');
});

test('the NATO C-17 477ff3 (real rows): a military hex, so no civil airline from its registry code BRK (issue 43)', () => {
  assert.equal(ref.isMilitaryHex('477ff3'), true);
  assert.equal(ref.registry('477ff3')?.airline, 'BRK');
  const id = airframeIdentity('477ff3', { reg: null, type: null, operator_icao: 'BRK' }, ref);
  assert.deepEqual([id.type, id.operator_icao, id.airline], ['C17', 'BRK', null]);
  // BRK itself is one row of one source: VRS's name, and no country taken from FlightGazer's other operator
  assert.deepEqual(ref.airline('BRK'), { icao: 'BRK', iata: null, name: 'Briansk State Air Enterprise', country: null, telephony: null });
  // an airline only FlightGazer lists has an alpha-2 country, and no airline a country spelled as a word
  assert.ok(
    [...ref.allAirlines()].some((a) => a.country !== null && /^[A-Z]{2}$/.test(a.country)),
    'some airline has an alpha-2 country',
  );
  for (const a of ref.allAirlines()) assert.ok(a.country === null || /^[A-Z]{2}$/.test(a.country), `${a.icao}: ${a.country}`);
});
