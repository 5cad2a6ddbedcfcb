// the map's airport list from a build's meta/lookup: every IATA airport with its position, its ICAO
// code where the build has one, its kind and name where the reference data has them, sorted, valid
// against its schema
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mapAirports } from '../../../server/map/airports.ts';
import { assertValid } from '../../../schemas/index.ts';

const lookup = {
  airports_icao_to_iata: { LSZH: 'ZRH', EGLL: 'LHR' },
  airport_positions: { ZRH: [47.45806, 8.54806], LHR: [51.4706, -0.46194], XYZ: [1, 2] } as Record<string, [number, number]>,
  airlines: [],
};

test('rows [iata, icao|null, lat, lon, kind, name], sorted by IATA code; no lookup gives no airports', () => {
  const doc = mapAirports('b1', lookup);
  assert.deepEqual(doc, {
    build_id: 'b1',
    airports: [
      ['LHR', 'EGLL', 51.4706, -0.46194, '', ''],
      ['XYZ', null, 1, 2, '', ''],
      ['ZRH', 'LSZH', 47.45806, 8.54806, '', ''],
    ],
  });
  assertValid('map-airports', doc);
  assert.deepEqual(mapAirports('b2', null), { build_id: 'b2', airports: [] });
});

test('kind and name come from the reference data by IATA code; a code it lacks keeps them empty', () => {
  const named = new Map([
    ['ZRH', { kind: 'large_airport', name: 'Zürich Airport' }],
    ['LHR', { kind: 'large_airport', name: 'London Heathrow Airport' }],
  ]);
  const doc = mapAirports('b1', lookup, named);
  assert.deepEqual(
    doc.airports.map((a) => a.slice(4)),
    [
      ['large_airport', 'London Heathrow Airport'],
      ['', ''],
      ['large_airport', 'Zürich Airport'],
    ],
  );
  assertValid('map-airports', doc);
});
