// the spatial index against brute force (the kdbush invariant: every hit inside, every miss
// outside), over seeded random points, with queries across the antimeridian and near the poles.
import { mulberry32 } from '../../../lib/random.ts';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SpatialIndex, type Bbox } from '../../../server/parts/spatial.ts';
import { bearingDeg, destinationPoint, distanceKm, distanceNm, lonHalfWidthDeg, normalizeLon } from '../../../lib/geo.ts';

const rng = mulberry32;

function points(seed: number, n: number) {
  const r = rng(seed);
  const lats: number[] = [];
  const lons: number[] = [];
  for (let i = 0; i < n; i++) {
    // a third everywhere, a third near the antimeridian, a third near the poles
    const kind = i % 3;
    lats.push(kind === 2 ? (r() < 0.5 ? -1 : 1) * (80 + r() * 10) : r() * 180 - 90);
    lons.push(kind === 1 ? (r() < 0.5 ? 180 - r() * 6 : -180 + r() * 6) : r() * 360 - 180);
  }
  // exact edges
  lats.push(90, -90, 0, 0);
  lons.push(0, 180, -180, 180);
  const ids = lats.map((_, i) => i);
  return { lats, lons, ids, index: SpatialIndex.of(lats, lons, ids) };
}

const inBox = (b: Bbox, lat: number, lon: number) =>
  lat >= b.minLat && lat <= b.maxLat && (b.minLon <= b.maxLon ? lon >= b.minLon && lon <= b.maxLon : lon >= b.minLon || lon <= b.maxLon);

test('bbox returns exactly the points inside, including boxes across the antimeridian', () => {
  const { lats, lons, index } = points(1, 3000);
  const r = rng(2);
  const boxes: Bbox[] = [
    { minLon: 170, minLat: -10, maxLon: -170, maxLat: 80 },
    { minLon: -180, minLat: -90, maxLon: 180, maxLat: 90 },
    { minLon: 5, minLat: 45, maxLon: 15, maxLat: 55 },
    { minLon: 180, minLat: -90, maxLon: 180, maxLat: 90 },
    { minLon: 10, minLat: 20, maxLon: 10, maxLat: 20 },
  ];
  for (let q = 0; q < 200; q++) {
    const a = r() * 360 - 180;
    const b = r() * 360 - 180;
    const la = r() * 180 - 90;
    const lb = r() * 180 - 90;
    boxes.push({ minLon: a, maxLon: b, minLat: Math.min(la, lb), maxLat: Math.max(la, lb) });
  }
  for (const b of boxes) {
    const expect = lats.map((_, i) => i).filter((i) => inBox(b, lats[i]!, lons[i]!));
    assert.deepEqual([...index.bbox(b)], expect, JSON.stringify(b));
  }
});

test('within returns exactly the points inside the circle, nearest first, near the antimeridian and the poles', () => {
  const { lats, lons, index } = points(3, 3000);
  const r = rng(4);
  const queries: [number, number, number][] = [
    [50, 8.5, 250],
    [0, 179.9, 250],
    [0, -179.9, 250],
    [89.9, 0, 25],
    [-88, 170, 250],
    [85.5, -179, 250],
    [0, 0, 0],
  ];
  for (let q = 0; q < 300; q++) {
    const pole = q % 3 === 0;
    queries.push([pole ? (r() < 0.5 ? -1 : 1) * (75 + r() * 15) : r() * 180 - 90, r() * 360 - 180, r() * 300]);
  }
  for (const [lat, lon, rad] of queries) {
    const got = index.within(lat, lon, rad);
    const expect = lats.map((_, i) => i).filter((i) => distanceNm(lat, lon, lats[i]!, lons[i]!) <= rad);
    assert.deepEqual(
      [...got.ids].sort((a, b) => a - b),
      expect,
      `${lat},${lon} r=${rad}`,
    );
    for (let k = 0; k < got.ids.length; k++) {
      const i = got.ids[k]!;
      assert.ok(
        Math.abs(got.dst[k]! - distanceNm(lat, lon, lats[i]!, lons[i]!)) < 1e-9,
        'Math.abs(got.dst[k]! - distanceNm(lat, lon, lats[i]!, lons[i]!)) < 1e-9',
      );
      // nearest first at the printed resolution (3 decimals)
      if (k > 0) assert.ok(Math.round(got.dst[k - 1]! * 1000) <= Math.round(got.dst[k]! * 1000), 'nearest first');
    }
  }
});

test('the longitude band widens as 1/cos(lat) and covers every longitude when the circle reaches a pole', () => {
  assert.ok(Math.abs(lonHalfWidthDeg(0, 60) - 60 / 60.04) < 0.01, 'Math.abs(lonHalfWidthDeg(0, 60) - 60 / 60.04) < 0.01');
  assert.ok(Math.abs(lonHalfWidthDeg(60, 60) - 2 * lonHalfWidthDeg(0, 60)) < 0.01, 'Math.abs(lonHalfWidthDeg(60, 60) - 2 * lonHalfWidthDeg(0, 60)) < 0.01');
  assert.equal(lonHalfWidthDeg(89.9, 25), Infinity);
  assert.equal(lonHalfWidthDeg(-86, 250), Infinity);
  assert.ok(Number.isFinite(lonHalfWidthDeg(85, 250)), 'Number.isFinite(lonHalfWidthDeg(85, 250))');
});

test('great-circle helpers agree with known distances and invert each other', () => {
  // one degree of latitude is 60.04 nm on the mean sphere; Frankfurt-JFK is about 3,345 nm
  assert.ok(Math.abs(distanceNm(0, 0, 1, 0) - 60.04) < 0.01, 'Math.abs(distanceNm(0, 0, 1, 0) - 60.04) < 0.01');
  assert.ok(Math.abs(distanceNm(50.0333, 8.5706, 40.6398, -73.7789) - 3345) < 10, 'Math.abs(distanceNm(50.0333, 8.5706, 40.6398, -73.7789) - 3345) < 10');
  assert.ok(Math.abs(distanceKm(0, 179.5, 0, -179.5) - 111.19) < 0.1, 'short across the antimeridian');
  assert.equal(distanceNm(10, 20, 10, 20), 0);
  assert.ok(Math.abs(bearingDeg(0, 0, 1, 0)) < 1e-9, 'Math.abs(bearingDeg(0, 0, 1, 0)) < 1e-9');
  assert.ok(Math.abs(bearingDeg(0, 0, 0, 1) - 90) < 1e-9, 'Math.abs(bearingDeg(0, 0, 0, 1) - 90) < 1e-9');
  assert.ok(Math.abs(bearingDeg(0, 179.5, 0, -179.5) - 90) < 1e-9, 'Math.abs(bearingDeg(0, 179.5, 0, -179.5) - 90) < 1e-9');
  const r = rng(5);
  for (let i = 0; i < 200; i++) {
    const lat = r() * 170 - 85;
    const lon = r() * 360 - 180;
    const brg = r() * 360;
    const d = r() * 2000;
    const p = destinationPoint(lat, lon, brg, d);
    assert.ok(p.lon >= -180 && p.lon < 180, 'p.lon >= -180 && p.lon < 180');
    assert.ok(
      Math.abs(distanceNm(lat, lon, p.lat, p.lon) - d) < 1e-6 * Math.max(1, d),
      'Math.abs(distanceNm(lat, lon, p.lat, p.lon) - d) < 1e-6 * Math.max(1, d)',
    );
    if (d > 1)
      assert.ok(
        Math.abs(((bearingDeg(lat, lon, p.lat, p.lon) - brg + 540) % 360) - 180) < 1e-6,
        'Math.abs(((bearingDeg(lat, lon, p.lat, p.lon) - brg + 540) % 360) - 180) < 1e-6',
      );
  }
  assert.equal(normalizeLon(180), -180);
  assert.equal(normalizeLon(-190), 170);
});
