// the offline basemap's place names: a country's label inside its largest polygon, a city at the
// mean of its airports, and the committed data/map files exactly what `npm run map:basemap` makes
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { cityName, cityPlaces, countryPlaces } from '../../../build/map/places.ts';
import { basemapPlaces, basemapTopology } from '../../../build/map/basemap.ts';
import { installed } from '../../../lib/install.ts';
import { packTopology, type PackTopology } from '../../../lib/basemap-pack.ts';

test('a country is labelled inside its largest polygon, ranked by its area', () => {
  const square = (x: number, y: number, d: number): [number, number][] => [
    [x, y],
    [x + d, y],
    [x + d, y + d],
    [x, y + d],
    [x, y],
  ];
  const places = countryPlaces([
    { name: 'Small', polygons: [[square(0, 0, 1)]] },
    // an island and the mainland: the label goes on the mainland
    { name: 'Big', polygons: [[square(50, 10, 1)], [square(10, 10, 20)]] },
    { name: '', polygons: [[square(0, 0, 5)]] },
  ]);
  assert.deepEqual(
    places.map((p) => p[0]),
    ['Big', 'Small'],
  );
  const [, lat, lon] = places[0]!;
  assert.ok(lon > 10 && lon < 30 && lat > 10 && lat < 30, `${lat}, ${lon}`);
  assert.ok(places[0]![4] > places[1]![4], 'the bigger country ranks higher');
});

test('a city is a municipality with a large airport, at the mean of its large and medium airports nearby', () => {
  const a = (kind: string, municipality: string, lat: number, lon: number, iso_country = 'GB') => ({ kind, municipality, iso_country, lat, lon });
  const places = cityPlaces([
    a('large_airport', 'London', 51.47, -0.46),
    a('large_airport', 'London', 51.15, -0.19),
    a('medium_airport', 'London', 51.5, 0.05),
    // a medium-only municipality is no large city; a namesake far away is another place
    a('medium_airport', 'Smalltown', 52, 1),
    a('large_airport', 'London', 42.98, -81.15, 'CA'),
    a('small_airport', 'London', 51.6, -0.1),
  ]);
  assert.deepEqual(
    places.map((p) => [p[0], p[4]]),
    [
      ['London', 5],
      ['London', 2],
    ],
  );
  assert.deepEqual(places[0]!.slice(1, 3), [51.373, -0.2]);
  assert.equal(cityName("Paris (Roissy-en-France, Val-d'Oise)"), 'Paris');
  assert.equal(cityName('Frankfurt am Main'), 'Frankfurt am Main');
});

test('data/map holds what map:basemap makes from world-atlas and data/ref (run it after either changes)', { timeout: 180_000 }, () => {
  const topo = basemapTopology();
  const committed = JSON.parse(gunzipSync(readFileSync(installed('data/map/basemap-10m.json.gz'))).toString('utf8'));
  assert.deepEqual(committed, topo);
  // the packed basemap the page reads, byte for byte
  const packed = gunzipSync(readFileSync(installed('data/map/basemap-10m.bin.gz')));
  assert.ok(Buffer.from(packTopology(topo as unknown as PackTopology)).equals(packed), 'data/map/basemap-10m.bin.gz is what map:basemap packs');
  assert.deepEqual(JSON.parse(readFileSync(installed('data/map/places.json'), 'utf8')), basemapPlaces(topo, installed('data/ref')));
});
