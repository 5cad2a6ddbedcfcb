// the traffic paths (lib/estimate/paths.ts) and the estimate that follows them (follow.ts, fly.ts):
// learned from synthetic airways, an estimate past its hold rejoins the airway the traffic flew,
// takes the branch that goes its way, and does nothing where no traffic flew; the published form
// round-trips and validates. synthetic, deterministic traffic; the clock is the fixed T.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bearingDeg, destinationPoint, distanceKm } from '../../../lib/geo.ts';
import { FLY, makePlan, positionAt, straightAt, type FlightStart } from '../../../lib/estimate/fly.ts';
import { decodePaths, encodePaths, learnPaths, mergePaths, pathSet, simplify, PATH_PARAMS, type TrafficPath } from '../../../lib/estimate/paths.ts';
import { cloudAt, FOLLOW, neighboursOf, weightOf } from '../../../lib/estimate/follow.ts';
import { AIRWAY_GS, dogLeg } from '../../helpers/airway.ts';
import { problems } from '../../../schemas/index.ts';

process.env.TZ = 'UTC';
const T = 1_790_000_000;
const DAY = '2026-09-21';
const NORTH = { lat: 60, lon: 8.5 };
const SOUTH = { lat: 36, lon: 8.5 };
const destinationOf = (cs: string) => (cs.startsWith('N') ? NORTH : cs.startsWith('S') ? SOUTH : null);

/** a day of traffic east along 47 N, half of it then north (to NORTH), half south (to SOUTH), a few km apart */
function forked(northShare = 0.5, n = 12): TrafficPath[] {
  const tracks = Array.from({ length: n }, (_, i) => {
    const north = i < n * northShare;
    const points = dogLeg(T - 86_400 + i * 600, (i - n / 2) * 0.01, north ? 0 : 180).map((p) => ({ ...p, alt: 36000, callsign: `${north ? 'N' : 'S'}${i}` }));
    return { points };
  });
  return learnPaths(DAY, tracks, destinationOf);
}

const startAt = (lon: number): FlightStart => ({ t: T, lat: 47, lon, track: 90, gs: AIRWAY_GS, alt: 36000 });

test('a polyline keeps the corner and drops the points of straight stretches', () => {
  const lat = [47, 47, 47, 47, 47.5, 48];
  const lon = [4, 5, 6, 7, 7, 7];
  assert.deepEqual(simplify(lat, lon, 0.3), [0, 3, 5]);
  assert.deepEqual(simplify([47, 47.001, 47], [4, 5, 6], 0.3), [0, 2], 'a wiggle of 110 m is within tolerance');
  assert.deepEqual(simplify([47], [4], 0.3), [0]);
});

test("a day of traces becomes one simplified path per leg heard at altitude, with its route's destination", () => {
  const paths = forked();
  assert.equal(paths.length, 12);
  for (const p of paths) {
    assert.ok(p.lat.length >= 3 && p.lat.length < 20, `${p.lat.length} points for an hour at 10 s`);
    assert.ok(p.cum[p.cum.length - 1]! > 700, 'an hour at 450 kt');
    assert.equal(p.day, DAY);
  }
  assert.deepEqual(paths[0]!.to, NORTH);
  assert.deepEqual(paths[11]!.to, SOUTH);
  // a stretch below cruise altitude, or a gap of more than maxSpacingS, breaks a path; unknown callsigns have no destination
  const pts = dogLeg(T, 0).map((p, i) => ({ ...p, alt: i >= 100 && i < 110 ? 8000 : 36000, t: p.t + (i >= 250 ? 600 : 0), callsign: 'X1' }));
  const split = learnPaths(DAY, [{ points: pts }], destinationOf);
  assert.equal(split.length, 3);
  assert.ok(
    split.every((p) => p.to === null),
    'split.every((p) => p.to === null)',
  );
  // malformed points are left out, not fatal
  const bad = [...dogLeg(T, 0).map((p) => ({ ...p, alt: 36000 })), { t: T + 5, lat: Number.NaN, lon: 5, alt: 36000 }];
  assert.equal(learnPaths(DAY, [{ points: bad }], destinationOf).length, 1);
});

test('past its hold an estimate rejoins the airway the traffic flew, where dead reckoning flies on', () => {
  const set = pathSet(forked(1));
  // heard at 5.5 E just south of the airway, its last track 4 degrees off it, then lost: the truth stays on the airway and turns north at 8 E
  // (the estimate turns back onto the airway after its hold, behind the traffic by the detour)
  const truth = dogLeg(T - 3600, -0.013, 0);
  const i = truth.findIndex((p) => p.lon >= 5.5);
  const last = truth[i]!;
  const start: FlightStart = { t: last.t, lat: last.lat, lon: last.lon, track: 94, gs: AIRWAY_GS, alt: 36000 };
  const plan = makePlan(start, NORTH, { paths: set });
  // the first 10 minutes are the held track, as spec 3 says, whatever was learned
  for (const dt of [0, 300, FLY.holdS]) assert.deepEqual(positionAt(plan, start.t + dt), straightAt(start, start.t + dt));
  for (const min of [15, 25]) {
    const at = truth[i + min * 6]!;
    const p = positionAt(plan, at.t);
    const km = distanceKm(p.lat, p.lon, at.lat, at.lon);
    const held = straightAt(start, at.t);
    const drKm = distanceKm(held.lat, held.lon, at.lat, at.lon);
    assert.ok(km < 20 && km < drKm / 2.5, `${min} min: paths ${km.toFixed(1)} km, dead reckoning ${drKm.toFixed(1)} km`);
  }
});

test('once on the traffic the estimate flies with it, corners and all, rather than cutting toward a point ahead', () => {
  const set = pathSet(forked(1));
  // heard on the airway at 5.5 E on its track: the hold keeps it on the airway, and the corner at 8 E comes after
  const truth = dogLeg(T - 3600, 0, 0);
  const i = truth.findIndex((p) => p.lon >= 5.5);
  const last = truth[i]!;
  const plan = makePlan({ t: last.t, lat: last.lat, lon: last.lon, track: 90, gs: AIRWAY_GS, alt: 36000 }, NORTH, { paths: set });
  // through the corner (about 14 minutes on) and after it, within the spread of the traffic (about 1 km apart)
  for (const min of [12, 14, 15, 17, 20, 25, 30]) {
    const at = truth[i + min * 6]!;
    const p = positionAt(plan, at.t);
    const km = distanceKm(p.lat, p.lon, at.lat, at.lon);
    assert.ok(km < 2, `${min} min: ${km.toFixed(2)} km off the traffic's path`);
  }
});

test('back to the traffic the estimate turns at most at a standard rate (3 deg/s), then rejoins it', () => {
  const set = pathSet(forked(1));
  // heard on the airway at 5 E but 35 degrees right of it: after the hold it is some 80 km south of the airway
  const truth = dogLeg(T - 3600, 0, 0);
  const i = truth.findIndex((p) => p.lon >= 5);
  const last = truth[i]!;
  const start: FlightStart = { t: last.t, lat: last.lat, lon: last.lon, track: 125, gs: AIRWAY_GS, alt: 36000 };
  assert.ok(neighboursOf(set, start, NORTH).length > 0, 'the traffic is its neighbours');
  const plan = makePlan(start, NORTH, { paths: set });
  positionAt(plan, start.t + 3600);
  const path = plan.path!;
  const turns = path.slice(1).map((p, k) => Math.abs(((p.track - path[k]!.track + 540) % 360) - 180));
  const most = FLY.turnRateDegS * (path[1]!.t - path[0]!.t);
  assert.ok(
    turns.every((d) => d <= most + 1e-9),
    `largest turn a step ${Math.max(...turns).toFixed(1)} deg`,
  );
  assert.ok(Math.abs(turns[0]! - most) < 1e-9, `the first step turns all it may: ${turns[0]!.toFixed(1)} deg`);
  // and it does get back onto the traffic's path (north along 8 E after the corner), behind the
  // traffic by the detour it flew (its destination lies behind the held track: it lasts 30 minutes)
  const at = truth[i + 28 * 6]!;
  const p = positionAt(plan, at.t);
  const held = straightAt(start, at.t);
  const km = distanceKm(p.lat, p.lon, at.lat, at.lon);
  assert.ok(Math.abs(p.lon - at.lon) < 0.03, `28 min: on the traffic's path, ${((p.lon - at.lon) * 76).toFixed(1)} km across it`);
  assert.ok(km < distanceKm(held.lat, held.lon, at.lat, at.lon) / 5, `28 min: ${km.toFixed(1)} km behind`);
  // its track is the bearing it flew
  const a = path[5]!,
    b = path[6]!;
  assert.ok(
    Math.abs(((bearingDeg(a.lat, a.lon, b.lat, b.lon) - b.track + 540) % 360) - 180) < 0.5,
    'Math.abs(((bearingDeg(a.lat, a.lon, b.lat, b.lon) - b.track + 540) % 360) - 180) < 0.5',
  );
});

test('a neighbour weighs less the further off the track and the further away it passed, more going to the same airport, a tenth just begun', () => {
  const w = (off: number, km: number, at: number, to: { lat: number; lon: number } | null = null) => weightOf(NORTH, to, off, km, at);
  const close = (a: number, b: number) => assert.ok(Math.abs(a - b) < 1e-9 * Math.abs(b), `${a} vs ${b}`);
  close(w(0, 0, 100), 1);
  close(w(FOLLOW.trackScaleDeg, 0, 100), Math.exp(-1));
  close(w(0, FOLLOW.distanceScaleKm, 100), Math.exp(-1));
  close(w(0, 0, 100, NORTH), FOLLOW.sameDestinationWeight);
  close(w(0, 0, 100, SOUTH), 1);
  close(w(0, 0, FOLLOW.freshKm - 1), FOLLOW.freshWeight);
  close(weightOf(null, NORTH, 0, 0, 100), 1);
  // in a set: a departure whose path begins 10 km before the last heard position is a tenth of a path that came from afar
  const startLon = 6;
  const from = forked(1, 1)[0]!;
  const fresh = learnPaths(
    DAY,
    [
      {
        points: dogLeg(T - 86_400, 0.02, 0)
          .filter((p) => p.lon >= startLon - 0.13)
          .map((p) => ({ ...p, alt: 36000 })),
      },
    ],
    () => null,
  );
  const near = neighboursOf(pathSet([{ ...from, to: null }, ...fresh]), startAt(startLon), null);
  assert.equal(near.length, 2);
  const [old, young] = near[0]!.at > near[1]!.at ? [near[0]!, near[1]!] : [near[1]!, near[0]!];
  assert.ok(young.at < FOLLOW.freshKm && old.at > FOLLOW.freshKm, 'young.at < FOLLOW.freshKm && old.at > FOLLOW.freshKm');
  // (both parallel to the last track to within a hair: the ratio is the fresh weight and the distances' fall-off)
  assert.ok(
    Math.abs(
      young.weight / old.weight / (FOLLOW.freshWeight * Math.exp(-((young.km / FOLLOW.distanceScaleKm) ** 2) + (old.km / FOLLOW.distanceScaleKm) ** 2)) - 1,
    ) < 1e-6,
    'Math.abs(young.weight / old.weight / (FOLLOW.freshWeight * Math.exp(-((young.km / FOLLOW.distanceScaleKm) ** 2) + (old.km / FOLLOW.distanceScaleKm) ** 2)) - 1) < 1e-6',
  );
});

test('where the traffic forks, the estimate takes the branch that goes to its destination', () => {
  const set = pathSet(forked(0.5));
  const start = startAt(7.0);
  const after = start.t + 25 * 60; // well past the fork at 8 E
  const north = positionAt(makePlan(start, NORTH, { paths: set }), after);
  const south = positionAt(makePlan(start, SOUTH, { paths: set }), after);
  assert.ok(north.lat > 47.5, `toward the north: ${north.lat.toFixed(2)}`);
  assert.ok(south.lat < 46.5, `toward the south: ${south.lat.toFixed(2)}`);
  // the medoid is a position some neighbour really reached, never the mean of the two branches
  const near = neighboursOf(set, start, null);
  assert.equal(near.length, 12);
  const cloud = cloudAt(near, 450 * 1.852 * 0.4)!;
  assert.ok(Math.abs(cloud.lat - 47) > 0.5, `on a branch, not between: ${cloud.lat.toFixed(2)}`);
});

test('no neighbour far away, on another heading, or past the ends of the paths', () => {
  const set = pathSet(forked());
  assert.deepEqual(neighboursOf(set, { lat: 10, lon: 100, track: 90 }, null), [], 'far away');
  assert.deepEqual(neighboursOf(set, { lat: 47, lon: 6, track: 270 }, null), [], 'westbound where traffic flew east');
  assert.deepEqual(neighboursOf(set, { lat: 47.3, lon: 6, track: 90 }, null), [], '30 km off the airway');
  assert.equal(cloudAt(neighboursOf(set, startAt(6), null), 5000), null, 'beyond the ends');
  // with no neighbour and nothing else learned, the plan is the great-circle method's, unchanged
  const far: FlightStart = { t: T, lat: 10, lon: 100, track: 90, gs: AIRWAY_GS, alt: 36000 };
  assert.deepEqual(makePlan(far, null, { paths: set }), makePlan(far, null));
  assert.deepEqual(makePlan(far, null, { paths: pathSet([]) }), makePlan(far, null));
});

test('a night keeps the last keepDays days of paths and drops older ones (and any of the day itself, learned again)', () => {
  const at = (day: string) => ({ ...forked(1, 1)[0]!, day });
  const before = [at('2026-09-17'), at('2026-09-18'), at('2026-09-19'), at('2026-09-20'), at(DAY)];
  const kept = mergePaths(before, [at(DAY)], DAY, { ...PATH_PARAMS, keepDays: 3 });
  assert.deepEqual(
    kept.map((p) => p.day),
    ['2026-09-19', '2026-09-20', DAY],
  );
  assert.equal(PATH_PARAMS.keepDays, 1);
  assert.deepEqual(
    mergePaths(before, [at(DAY)], DAY).map((p) => p.day),
    [DAY],
    'by default, the newest day alone',
  );
});

test('the published form validates and decodes to the same neighbours; malformed documents are refused', () => {
  const paths = forked();
  const doc = encodePaths(paths, DAY);
  assert.deepEqual(problems('paths', doc), []);
  const back = decodePaths(JSON.parse(JSON.stringify(doc)));
  const a = neighboursOf(pathSet(paths), startAt(6), NORTH);
  const b = neighboursOf(back, startAt(6), NORTH);
  // the weights fall off with distance and direction, so the 4-decimal rounding moves them a little
  assert.equal(b.length, a.length);
  for (let k = 0; k < a.length; k++) {
    assert.ok(
      Math.abs(a[k]!.at - b[k]!.at) < 0.05 && Math.abs(a[k]!.km - b[k]!.km) < 0.05,
      'Math.abs(a[k]!.at - b[k]!.at) < 0.05 && Math.abs(a[k]!.km - b[k]!.km) < 0.05',
    );
    assert.ok(Math.abs(a[k]!.weight - b[k]!.weight) < 1e-3 * a[k]!.weight, `weight ${k}: ${a[k]!.weight} vs ${b[k]!.weight}`);
  }
  const one = doc.paths[0]!;
  for (const [what, bad] of [
    ['a day that is no date', { ...doc, through: 'yesterday' }],
    ['a path of one point', { ...doc, paths: [[one[0], one[1], [47, 4]]] }],
    ['a latitude out of range', { ...doc, paths: [[one[0], [95, 8], one[2]]] }],
    ['a path without its destination slot', { ...doc, paths: [[one[0], one[2]]] }],
    ['an unknown parameter', { ...doc, params: { ...doc.params, extra: 1 } }],
    ['a missing parameter', { ...doc, params: { ...doc.params, keepDays: undefined } }],
  ] as const)
    assert.ok(problems('paths', JSON.parse(JSON.stringify(bad))).length > 0, what);
  // a point 500 km east stays 500 km east after the round trip (4 decimals: about 10 m)
  const p = destinationPoint(47, 4, 90, 270);
  assert.ok(
    Math.abs(back.paths[0]!.lon[0]! - paths[0]!.lon[0]!) < 1e-4 && p.lon > 4,
    'Math.abs(back.paths[0]!.lon[0]! - paths[0]!.lon[0]!) < 1e-4 && p.lon > 4',
  );
});

test('the path is flown only as far as asked, and the same whatever the order positions are asked in', () => {
  const set = pathSet(forked(0.5));
  const start = startAt(6.5);
  const lazy = makePlan(start, NORTH, { paths: set });
  assert.equal(lazy.path!.length, 1, 'nothing flown before a position past the hold is asked');
  positionAt(lazy, start.t + FLY.holdS + 60);
  assert.ok(lazy.path!.length <= 5, `${lazy.path!.length} points for the first minute`);
  const late = makePlan(start, NORTH, { paths: set });
  const times = [40, 12, 25, 11, 30].map((m) => start.t + m * 60);
  const first = positionAt(late, times[0]!);
  for (const t of times) assert.deepEqual(positionAt(lazy, t), positionAt(late, t), `at +${(t - start.t) / 60} min`);
  assert.deepEqual(positionAt(late, times[0]!), first);
  // never past the expiry: asked long after it, the last point is the one at the expiry
  positionAt(late, lazy.expiresAt + 86_400);
  assert.ok(late.path!.at(-1)!.t < lazy.expiresAt + 20, 'late.path!.at(-1)!.t < lazy.expiresAt + 20');
});
