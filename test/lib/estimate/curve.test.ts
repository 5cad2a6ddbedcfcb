// the curve toward the destination (lib/estimate/curve.ts), checked against great-circle math.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bearingDeg, destinationPoint, distanceNm } from '../../../lib/geo.ts';
import { alongCurve, curveSteer, curveTo } from '../../../lib/estimate/curve.ts';

const close = (a: number, b: number, tol: number, what: string) => assert.ok(Math.abs(a - b) <= tol, `${what}: ${a} vs ${b} (tolerance ${tol})`);
const angleDiff = (a: number, b: number) => Math.abs(((a - b + 540) % 360) - 180);
const from = { lat: 46.5, lon: 7.5 };

test('with its control point at the start the curve is the great circle to the destination', () => {
  const dest = destinationPoint(from.lat, from.lon, 120, 400);
  const c = curveTo(from, 60, dest, 0);
  close(c.lengthNm, 400, 1e-6, 'length');
  for (const nm of [0, 50, 200, 399]) {
    const p = alongCurve(c, nm);
    const want = destinationPoint(from.lat, from.lon, 120, nm);
    close(distanceNm(p.lat, p.lon, want.lat, want.lon), 0, 1e-4, `on the great circle at ${nm} nm`);
    if (nm > 0 && nm < 399) close(angleDiff(p.track, bearingDeg(p.lat, p.lon, dest.lat, dest.lon)), 0, 1e-6, `track at ${nm} nm`);
  }
});

test('the curve leaves on the given track, is measured by arc length, and ends at the destination', () => {
  const dest = destinationPoint(from.lat, from.lon, 130, 250);
  const c = curveTo(from, 90, dest);
  const start = alongCurve(c, 0);
  close(distanceNm(start.lat, start.lon, from.lat, from.lon), 0, 1e-9, 'starts at the start');
  close(angleDiff(start.track, 90), 0, 1e-9, 'on the given track');
  // equal steps of arc length are equal steps on the ground
  for (const nm of [1, 40, 120, 240]) {
    const a = alongCurve(c, nm);
    const b = alongCurve(c, nm + 1);
    close(distanceNm(a.lat, a.lon, b.lat, b.lon), 1, 0.003, `a nautical mile along at ${nm} nm`);
    // the track is the direction of travel
    close(angleDiff(a.track, bearingDeg(a.lat, a.lon, b.lat, b.lon)), 0, 0.2, `track at ${nm} nm`);
  }
  assert.ok(c.lengthNm > 250 && c.lengthNm < 250 * 1.1, `a little longer than the great circle: ${c.lengthNm}`);
  const end = alongCurve(c, c.lengthNm + 10);
  close(distanceNm(end.lat, end.lon, dest.lat, dest.lon), 0, 1e-6, 'past its end: the destination');
});

test('steering along the curve made again from here: the track where far off, the destination where near', () => {
  const at = { ...from, track: 90 };
  const far = destinationPoint(from.lat, from.lon, 110, 1000);
  const steer = curveSteer(at, far, 2.5);
  assert.ok(steer > 90 && steer < 90.2, `a far destination 20 deg right bends the next 2.5 nm by a tenth of a degree: ${steer}`);
  // the step the steer gives is the curve's own first step
  const c = curveTo(from, 90, far);
  const p = alongCurve(c, 2.5);
  close(angleDiff(steer, bearingDeg(from.lat, from.lon, p.lat, p.lon)), 0, 0.01, 'the same as the curve from here');
  const near = destinationPoint(from.lat, from.lon, 110, 2);
  close(angleDiff(curveSteer(at, near, 2.5), bearingDeg(from.lat, from.lon, near.lat, near.lon)), 0, 1e-9, 'within a step: straight at it');
});
