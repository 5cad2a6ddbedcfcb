// the map's airport list from a build's meta/lookup: every IATA airport with its position, its ICAO
// code where the build has one, sorted, valid against its schema
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mapAirports } from '../../../server/map/airports.ts';
import { assertValid } from '../../../schemas/index.ts';

test('rows [iata, icao|null, lat, lon], sorted by IATA code; no lookup gives no airports', () => {
  const doc = mapAirports('b1', {
    airports_icao_to_iata: { LSZH: 'ZRH', EGLL: 'LHR' },
    airport_positions: { ZRH: [47.45806, 8.54806], LHR: [51.4706, -0.46194], XYZ: [1, 2] },
    airlines: [],
  });
  assert.deepEqual(doc, { build_id: 'b1', airports: [['LHR', 'EGLL', 51.4706, -0.46194], ['XYZ', null, 1, 2], ['ZRH', 'LSZH', 47.45806, 8.54806]] });
  assertValid('map-airports', doc);
  assert.deepEqual(mapAirports('b2', null), { build_id: 'b2', airports: [] });
});
