// circuits at a small field (lib/detector/circuits.ts, issue 43 §2): a touch-and-go is a landing and a
// take-off; a go-around and a low pass are neither. small hand-made traces over one field at 900 ft,
// one point per 5 s, a 25-ft encoder and no ground flag (as most light aircraft at KWVI send).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cutLegs, type FieldLookup, type LegCut, type TrackPoint } from '../../lib/detector.ts';
import { distanceKm } from '../../lib/geo.ts';

const FIELD = { lat: 45, lon: 7, elev: 900 };
// km from the field's point stands for km from its runway centreline (the roll runs east to west over it)
const fields: FieldLookup = (lat, lon) => {
  const km = distanceKm(lat, lon, FIELD.lat, FIELD.lon);
  return km <= 4 ? { elevation_ft: FIELD.elev, km, id: 'TEST' } : null;
};
const T0 = 1_750_000_000;
const KM_LON = 1 / (111.195 * Math.cos((FIELD.lat * Math.PI) / 180));

type Row = [TrackPoint['alt'], number, number];
/** [alt, gs, km east of the field] per step of 5 s, from t0 */
function along(rows: Row[], t0 = T0): TrackPoint[] {
  return rows.map(([alt, gs, km], i) => ({ t: t0 + 5 * i, lat: FIELD.lat, lon: FIELD.lon + km * KM_LON, alt, gs }));
}
/** n points from fromFt down to toFt, from km 3 out to 0.5 out, at kt */
const descend = (fromFt: number, toFt: number, n: number, kt: number): Row[] =>
  Array.from({ length: n }, (_, i) => [Math.round((fromFt - ((fromFt - toFt) * i) / (n - 1)) / 25) * 25, kt, 3 - (2.5 * i) / (n - 1)]);
/** n points climbing from fromFt by 250 ft a step (3,000 ft/min), westward from km -0.6 */
const climbOut = (fromFt: number, n: number, kt: number): Row[] => Array.from({ length: n }, (_, i) => [fromFt + 250 * i, kt, -0.6 - 0.4 * i]);

const events = (legs: LegCut[]) => legs.flatMap((l) => [...(l.departure ? [['dep', l.departure.at]] : []), ...(l.arrival ? [['arr', l.arrival.at]] : [])]);

// a circuit's final: 1,900 ft 3 km out down to 1,000 ft 0.5 km out at 70 kt
const FINAL = descend(1900, 1000, 10, 70);

test('a touch-and-go rolling at 52-64 kt (never slow enough to be "ground") is a landing at touchdown and a take-off at lift-off', () => {
  // 35 s on the runway reading 925-950 ft (the aircraft's ground reading), the roll losing 25 % of the approach speed
  const roll: Row[] = [
    [950, 62, 0.28],
    [925, 58, 0.2],
    [925, 54, 0.1],
    [925, 52, 0],
    [925, 55, -0.1],
    [925, 60, -0.2],
    [950, 64, -0.28],
  ];
  const pts = along([...FINAL, ...roll, ...climbOut(1150, 6, 70)]);
  const touch = FINAL.length;
  const lift = touch + roll.length - 1;
  const legs = cutLegs(pts, { fields });
  assert.equal(legs.length, 2, JSON.stringify(legs));
  assert.equal(legs[0]!.arrival!.at, pts[touch]!.t, 'the landing is the first point at the ground reading');
  assert.equal(legs[1]!.departure!.at, pts[lift]!.t, 'the take-off is the last point at it before the climb');
  assert.ok(legs[0]!.end < legs[1]!.start || legs[0]!.end === legs[1]!.start, 'the legs do not overlap');
  // the slowing is what says it touched: asking for a 30 % loss, nothing else here tells it from a low approach
  assert.deepEqual(events(cutLegs(pts, { fields, contactSlowFrac: 0.3 })), [], 'without the slowing it is one circuit leg');
  // and without airfield knowledge (the old detector) the circuit is one leg with neither
  assert.deepEqual(events(cutLegs(pts)), []);
});

test('a touch-and-go whose lift-off falls in a 40 s coverage gap: the take-off is extrapolated back from the climb heard after it', () => {
  const roll: Row[] = [
    [950, 60, 0.28],
    [925, 55, 0.2],
    [925, 50, 0.1],
    [925, 52, 0],
  ];
  const before = along([...FINAL, ...roll]);
  const last = before[before.length - 1]!;
  // 40 s unheard, then 1,275 ft (350 ft up) climbing 700 ft/min over the next 30 s
  const climb: Row[] = [
    [1275, 68, -1.2],
    [1325, 68, -1.4],
    [1400, 70, -1.6],
    [1450, 70, -1.8],
    [1500, 70, -2],
    [1575, 70, -2.2],
    [1625, 72, -2.4],
  ];
  const after = along(climb, last.t + 40);
  const legs = cutLegs([...before, ...after], { fields });
  assert.equal(legs.length, 2, JSON.stringify(legs));
  assert.equal(legs[0]!.arrival!.at, before[FINAL.length]!.t);
  const dep = legs[1]!.departure!.at;
  // 350 ft at 700 ft/min is 30 s before the first point after the gap: 10 s after the last roll point
  assert.ok(dep > last.t && dep < last.t + 40, `lift-off inside the gap, not at either side of it (${dep - last.t} s after the roll)`);
  assert.ok(Math.abs(dep - (last.t + 10)) <= 5, `about 30 s before the climb was heard (${dep - last.t} s after the roll)`);
});

test('a go-around from 125 ft over the runway at approach speed is neither a landing nor a take-off', () => {
  // down to 1,125 ft over the runway at 72-75 kt (no slowing), power up, climb away
  const pts = along([...FINAL, [1150, 72, 0.3], [1125, 72, 0.1], [1150, 75, -0.1], [1200, 75, -0.3], ...climbOut(1300, 6, 75)]);
  const legs = cutLegs(pts, { fields });
  assert.equal(legs.length, 1, JSON.stringify(legs));
  assert.deepEqual(events(legs), []);
  // the rule that stops it: with any slowing read as a roll, this would be a touch-and-go
  assert.equal(cutLegs(pts, { fields, contactSlowFrac: 0 }).length, 2, 'counting no slowing as a roll makes it one');
});

test("with the aircraft's own ground reading known, a go-around 100 ft above it is no contact even though it slows; 25 ft above it is a touch-and-go", () => {
  // it took off from this field first: taxi at 925 ft, roll, climb, a circuit, back on final
  const depart: Row[] = [
    [925, 8, 0.3],
    [925, 8, 0.28],
    [925, 10, 0.25],
    [925, 12, 0.22],
    [925, 30, 0.2],
    [925, 50, 0.1],
    [950, 62, 0],
  ];
  const circuit = (bottom: number): Row[] => [
    ...depart,
    ...climbOut(1150, 6, 70),
    ...Array.from({ length: 24 }, (): Row => [1900, 85, -3]),
    ...FINAL,
    // slows from 70 to 58 kt over the runway (a go-around after a long flare), then climbs away
    [bottom + 25, 64, 0.28],
    [bottom, 60, 0.15],
    [bottom, 58, 0],
    [bottom, 58, -0.15],
    [bottom + 25, 62, -0.28],
    ...climbOut(bottom + 225, 6, 70),
  ];
  const high = cutLegs(along(circuit(1025)), { fields });
  assert.deepEqual(
    events(high).map(([k]) => k),
    ['dep'],
    `one take-off, no landing at the go-around: ${JSON.stringify(events(high))}`,
  );
  const low = cutLegs(along(circuit(925)), { fields });
  assert.deepEqual(
    events(low).map(([k]) => k),
    ['dep', 'arr', 'dep'],
    `the same at the ground reading touched: ${JSON.stringify(events(low))}`,
  );
});

test('a low pass along the runway, 50-75 ft up at a steady 90 kt for 25 s, is neither a landing nor a take-off', () => {
  const pass: Row[] = [
    [975, 90, 0.28],
    [950, 90, 0.15],
    [950, 90, 0.05],
    [950, 90, -0.05],
    [950, 90, -0.15],
    [975, 90, -0.28],
  ];
  const pts = along([...descend(1900, 1050, 10, 90), ...pass, ...climbOut(1200, 6, 90)]);
  const legs = cutLegs(pts, { fields });
  assert.equal(legs.length, 1, JSON.stringify(legs));
  assert.deepEqual(events(legs), []);
  // the same pass with a ground flag in it touched: then it is a touch-and-go
  const flagged = pts.map((p, i) => (i === 12 ? { ...p, alt: 'ground' as const } : p));
  assert.equal(events(cutLegs(flagged, { fields })).length, 2, 'a ground flag in the pass makes it a contact');
});
