// loadServerAirports' field lookup (the live server's airfield lookup, airports slimmed to what it reads) answers
// exactly as the full locator's fieldsOf does, on the shipped OurAirports data.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fieldsOf, loadServerAirports, loadLocator } from '../../../lib/reference/fields.ts';
import { installed } from '../../../lib/install.ts';
import { mulberry32 } from '../../../lib/random.ts';

test("the slim field lookup gives the full locator's answers: at real fields, beside them, and far from any", () => {
  const dir = installed('data/ref');
  const full = fieldsOf(loadLocator(dir));
  const { fields: slim, named } = loadServerAirports(dir);
  const rnd = mulberry32(11);
  // on runways and aprons (KSFO, EGLL, 88NV's desert strip, a heliport), just off them, then anywhere
  const points: [number, number][] = [
    [37.6188, -122.375],
    [51.4706, -0.4619],
    [39.6, -119.8],
    [36.59, -121.85],
    [0, 0],
    [89.9, 179.9],
  ];
  for (let i = 0; i < 3000; i++) points.push([rnd() * 140 - 60, rnd() * 360 - 180]);
  for (const [lat0, lon0] of points.slice(0, 6)) for (let k = 0; k < 50; k++) points.push([lat0 + (rnd() - 0.5) * 0.1, lon0 + (rnd() - 0.5) * 0.1]);
  let found = 0;
  for (const [lat, lon] of points) {
    const want = full(lat, lon);
    assert.deepEqual(slim(lat, lon), want, `at ${lat}, ${lon}`);
    if (want) found++;
  }
  assert.ok(found > 100, `the sample reaches real fields (${found} of ${points.length})`);
  // the map's names and kinds, by IATA code
  assert.deepEqual(named.get('ZRH'), { kind: 'large_airport', name: 'Zürich Airport' });
  assert.ok(named.size > 5000, `${named.size} IATA airports`);
});
