// the offline basemap's names: countries at low zoom, cities by rank as the zoom grows, never two
// overlapping, each at its point in world pixels
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { placeLabels, type Place } from '../../../web/map/place-labels.ts';
import { airportStyle } from '../../../web/map/airport-style.ts';

const places: Place[] = [
  ['Switzerland', 46.8, 8.2, 'country', 66],
  ['Russia', 58, 100, 'country', 91],
  ['Zurich', 47.43, 8.6, 'city', 3],
  ['Kloten', 47.45, 8.58, 'city', 3],
  ['London', 51.47, -0.07, 'city', 8],
];
const measure = (t: string) => t.length * 7;
const at = (z: number) => placeLabels(places, z, measure).map((l) => l.text);

test('countries first at low zooms, cities by rank as the zoom grows, countries gone past zoom 7', () => {
  assert.deepEqual(at(2), ['RUSSIA']);
  assert.deepEqual(at(4), ['RUSSIA', 'SWITZERLAND', 'London']);
  assert.ok(at(6).includes('Zurich'), at(6).join(', '));
  assert.ok(!at(8).includes('SWITZERLAND'), at(8).join(', '));
  // Zurich and Kloten overlap until the zoom pulls them apart
  assert.equal(at(8).filter((t) => t === 'Zurich' || t === 'Kloten').length, 1);
  assert.equal(at(14).filter((t) => t === 'Zurich' || t === 'Kloten').length, 2);
});

test('no two placed labels overlap, at any zoom', () => {
  for (let z = 2; z <= 14; z++) {
    const l = placeLabels(places, z, measure);
    for (let i = 0; i < l.length; i++)
      for (let j = i + 1; j < l.length; j++) {
        const [a, b] = [l[i]!.box, l[j]!.box];
        assert.ok(!(a[0] < b[2] && a[2] > b[0] && a[1] < b[3] && a[3] > b[1]), `z${z}: ${l[i]!.text} / ${l[j]!.text}`);
      }
  }
  const [london] = placeLabels(places, 10, measure).filter((l) => l.text === 'London');
  // world pixels at zoom 10: x = (lon + 180) / 360 * 256 * 2^10
  assert.ok(Math.abs(london!.x - ((-0.07 + 180) / 360) * 262144) < 1e-6, `x ${london!.x}`);
});

test('airports by kind: large ones first and named soonest; seaplane bases only close in', () => {
  assert.equal(airportStyle('large_airport', 4), null);
  assert.equal(airportStyle('large_airport', 5)!.label, 'none');
  assert.equal(airportStyle('large_airport', 7)!.label, 'code');
  assert.equal(airportStyle('large_airport', 9)!.label, 'name');
  assert.equal(airportStyle('medium_airport', 6), null);
  assert.equal(airportStyle('medium_airport', 9)!.label, 'code');
  assert.equal(airportStyle('seaplane_base', 9), null);
  assert.equal(airportStyle('seaplane_base', 10)!.mark, 'seaplane');
  assert.equal(airportStyle('', 10)!.mark, 'small');
  assert.ok(airportStyle('large_airport', 8)!.r > airportStyle('small_airport', 10)!.r, 'a large airport is drawn bigger');
});
