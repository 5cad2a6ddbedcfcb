// the method, checked numerically against great-circle math (lib/geo.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bearingDeg, destinationPoint, distanceNm } from '../../../lib/geo.ts';
import { FLY, makePlan, nearNm, positionAt, straightAt, type FlightStart } from '../../../lib/estimate/fly.ts';

const T = 1_790_000_000;
// over the north atlantic, westbound at 480 kt, 37,000 ft; destination JFK
const start: FlightStart = { t: T, lat: 52.0, lon: -20.0, track: 265, gs: 480, alt: 37000 };
const JFK = { lat: 40.6398, lon: -73.7789 };

const close = (a: number, b: number, tol: number, what: string) => assert.ok(Math.abs(a - b) <= tol, `${what}: ${a} vs ${b} (tolerance ${tol})`);
const angleDiff = (a: number, b: number) => Math.abs(((a - b + 540) % 360) - 180);

test('for 10 minutes the last track is held at the last ground speed, along a great circle', () => {
  const plan = makePlan(start, JFK);
  for (const dt of [0, 60, 300, 600]) {
    const p = positionAt(plan, T + dt);
    const want = destinationPoint(start.lat, start.lon, start.track, (480 * dt) / 3600);
    close(p.lat, want.lat, 1e-9, `lat at +${dt}s`);
    close(p.lon, want.lon, 1e-9, `lon at +${dt}s`);
  }
  const at10 = positionAt(plan, T + 600);
  close(distanceNm(start.lat, start.lon, at10.lat, at10.lon), 80, 1e-6, 'distance after 10 min at 480 kt');
  close(angleDiff(positionAt(plan, T).track, 265), 0, 1e-9, 'track at the start');
  // the held great circle bends: at 52 deg N the track drifts by about 1.7 deg over 80 nm
  close(angleDiff(at10.track, bearingDeg(at10.lat, at10.lon, start.lat, start.lon) + 180), 0, 1e-9, 'track along the great circle');
  assert.ok(angleDiff(at10.track, 265) < 2, 'angleDiff(at10.track, 265) < 2');
});

test('after 10 minutes it turns toward the destination on a curve that leaves the held track tangentially and ends there at the ETA', () => {
  const plan = makePlan(start, JFK);
  const turn = destinationPoint(start.lat, start.lon, start.track, 80);
  close(plan.turn.lat, turn.lat, 1e-9, 'turn point lat');
  const heldTrack = positionAt(plan, T + 600).track;
  // no snap: a second after the turn it is a second's flight from the turn point, still on the held track
  const after1 = positionAt(plan, T + 601);
  close(distanceNm(turn.lat, turn.lon, after1.lat, after1.lon), 480 / 3600, 1e-4, 'a second after the turn');
  close(angleDiff(after1.track, heldTrack), 0, 0.01, 'the heading is continuous at the turn');
  // flown at the held speed all the way: the distance along it is what was flown
  let flown = 0;
  let prev = positionAt(plan, T + 600);
  for (let t = T + 660; t <= T + 600 + 3600; t += 60) {
    const p = positionAt(plan, t);
    flown += distanceNm(prev.lat, prev.lon, p.lat, p.lon);
    prev = p;
  }
  close(flown, 480, 0.5, 'nm flown in the hour after the turn');
  // and it ends at the destination, at the ETA its length gives
  close(plan.eta!, T + 600 + (plan.legNm / 480) * 3600, 1e-6, 'eta at the held speed along the curve');
  const gc = distanceNm(turn.lat, turn.lon, JFK.lat, JFK.lon);
  assert.ok(plan.legNm > gc && plan.legNm < gc * 1.02, `the curve is a little longer than the great circle: ${plan.legNm} against ${gc} nm`);
  const end = positionAt(plan, plan.eta!);
  close(distanceNm(end.lat, end.lon, JFK.lat, JFK.lon), 0, 0.05, 'at the destination at the ETA');
  const arrived = positionAt(plan, plan.eta! + 100);
  close(distanceNm(arrived.lat, arrived.lon, JFK.lat, JFK.lon), 0, 1e-6, 'stays at the destination after the ETA');
});

test('the turn bends gently where the destination is far and comes round where it is near (issue 43: no snap onto the great circle)', () => {
  const east: FlightStart = { t: T, lat: 47, lon: 8, track: 90, gs: 450, alt: 37000 };
  const turn = destinationPoint(east.lat, east.lon, 90, 75);
  const heldTrack = bearingDeg(turn.lat, turn.lon, east.lat, east.lon) + 180;
  const offStraight = (dest: { lat: number; lon: number }, dt: number) => {
    const p = positionAt(makePlan(east, dest), T + dt);
    const s = straightAt(east, T + dt);
    return distanceNm(p.lat, p.lon, s.lat, s.lon) * 1.852;
  };
  // 20 deg to the right: the great circle to it is 24 km off the held track 5 minutes after the turn
  const far = destinationPoint(turn.lat, turn.lon, heldTrack + 20, 1500);
  const near = destinationPoint(turn.lat, turn.lon, heldTrack + 20, 300);
  assert.ok(offStraight(far, 900) < 1, `far: ${offStraight(far, 900).toFixed(2)} km off the held track at 15 min`);
  assert.ok(offStraight(far, 1800) < 10, `far: ${offStraight(far, 1800).toFixed(2)} km at 30 min`);
  assert.ok(offStraight(near, 900) > offStraight(far, 900) * 3, 'a near destination bends it sooner');
  // it turns toward the destination and only toward it: right, a little more each minute, never past the bearing to it
  const plan = makePlan(east, near);
  let last = heldTrack;
  for (let t = T + 660; t < plan.expiresAt; t += 60) {
    const p = positionAt(plan, t);
    const turned = ((p.track - heldTrack + 540) % 360) - 180;
    const toDest = ((bearingDeg(p.lat, p.lon, near.lat, near.lon) - heldTrack + 540) % 360) - 180;
    assert.ok(turned > ((last - heldTrack + 540) % 360) - 180, `turning right at +${t - T} s`);
    assert.ok(turned < toDest, `not past the bearing to the destination at +${t - T} s: ${turned.toFixed(2)} < ${toDest.toFixed(2)}`);
    last = p.track;
  }
});

test('a destination behind the aircraft is never turned to: the track is held, as without one, and the plan says why', () => {
  const behind = destinationPoint(start.lat, start.lon, 85, 400);
  const plan = makePlan(start, behind);
  assert.equal(plan.behind, true);
  assert.equal(plan.dest, null);
  assert.equal(plan.eta, null);
  assert.equal(plan.expiresAt, T + FLY.noDestinationS);
  assert.deepEqual(positionAt(plan, T + 1200), straightAt(start, T + 1200), 'still the held track at 20 minutes');
});

test('the turn is made toward a destination up to 60 degrees off the held track, not beyond', () => {
  // bearings measured at the turn point, 10 minutes down the held track (265 deg)
  const turn = destinationPoint(start.lat, start.lon, 265, (start.gs * FLY.holdS) / 3600);
  const heldTrack = bearingDeg(turn.lat, turn.lon, start.lat, start.lon) + 180; // the great circle's track there
  for (const [off, turns] of [
    [30, true],
    [59, true],
    [61, false],
    [120, false],
    [-59, true],
    [-61, false],
  ] as const) {
    const dest = destinationPoint(turn.lat, turn.lon, heldTrack + off, 300);
    const plan = makePlan(start, dest);
    assert.equal(plan.behind, !turns, `${off} deg off`);
    assert.equal(plan.eta !== null, turns, `${off} deg off`);
  }
});

test('without a destination the track is held, for 30 minutes', () => {
  const plan = makePlan(start, null);
  assert.equal(plan.eta, null);
  assert.equal(plan.expiresAt, T + FLY.noDestinationS);
  const p = positionAt(plan, T + 1500);
  const want = destinationPoint(start.lat, start.lon, 265, 200);
  close(p.lat, want.lat, 1e-9, 'lat');
  close(p.lon, want.lon, 1e-9, 'lon');
  assert.deepEqual(straightAt(start, T + 1500), p, 'the same as straight-line dead reckoning');
});

test('the estimate expires at the top of descent, at the 2 h cap, or 30 min without destination', () => {
  assert.equal(nearNm(37000), 111);
  assert.equal(nearNm(5000), 20, 'never closer than 20 nm');
  const far = makePlan(start, JFK);
  assert.equal(far.expiresAt, T + FLY.hardCapS, 'a long way out: the 2 h cap');
  const dest = destinationPoint(start.lat, start.lon, 265, 80 + 300);
  const nearish = makePlan(start, dest);
  // 300 nm after the turn, minus 111 nm of descent, at 480 kt
  close(nearish.expiresAt, T + 600 + ((300 - 111) / 480) * 3600, 1e-3, 'top of descent');
  const p = positionAt(nearish, nearish.expiresAt);
  close(distanceNm(p.lat, p.lon, dest.lat, dest.lon), 111, 1e-3, 'ends 111 nm out');
  assert.ok(nearish.expiresAt < nearish.eta!, 'always before the ETA');
});

test('before its start time the estimate is the last observed position', () => {
  const p = positionAt(makePlan(start, JFK), T - 30);
  assert.equal(p.lat, start.lat);
  assert.equal(p.lon, start.lon);
});
