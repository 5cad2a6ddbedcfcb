// the network's extent for the map's first view: trimmed at each edge, circular in longitude
// (a Pacific network gets a box across the antimeridian), checked against a brute force
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { networkExtent } from '../../../server/map/extent.ts';
import { mulberry32 } from '../../../lib/random.ts';

test('no position gives no box; NaN pairs are aircraft without a position', () => {
  assert.deepEqual(networkExtent([], []), { box: null, aircraft: 0 });
  assert.deepEqual(networkExtent([Number.NaN], [Number.NaN]), { box: null, aircraft: 0 });
  assert.deepEqual(networkExtent([47.5, Number.NaN], [8.5, Number.NaN]), { box: [8.5, 47.5, 8.5, 47.5], aircraft: 1 });
});

test('a network across the antimeridian gets a box whose west lies east of its east', () => {
  const lat = [10, 20, 30, 40];
  const lon = [170, 175, -178, -172];
  assert.deepEqual(networkExtent(lat, lon), { box: [170, 10, -172, 40], aircraft: 4 });
});

test('seeded networks: the box holds at least 92 % of the aircraft (2 % trimmed at each of 4 edges) and never the wide way round', () => {
  const rand = mulberry32(46);
  for (let round = 0; round < 50; round++) {
    const n = 50 + Math.floor(rand() * 500);
    const centre = rand() * 360 - 180;
    const lat = Array.from({ length: n }, () => -60 + rand() * 120);
    const lon = Array.from({ length: n }, () => ((centre + (rand() - 0.5) * 100 + 540) % 360) - 180);
    const { box, aircraft } = networkExtent(lat, lon);
    assert.equal(aircraft, n);
    const [w, s, e, nn] = box!;
    const inLon = (x: number) => (w <= e ? x >= w - 0.01 && x <= e + 0.01 : x >= w - 0.01 || x <= e + 0.01);
    const inside = lat.filter((y, i) => y >= s - 0.01 && y <= nn + 0.01 && inLon(lon[i]!)).length;
    assert.ok(inside >= n * 0.92, `${inside} of ${n} inside ${box}`);
    // the box spans about 100 degrees of longitude, never the other 260
    const span = (e - w + 360) % 360;
    assert.ok(span <= 101, `span ${span} (box ${box})`);
  }
});
