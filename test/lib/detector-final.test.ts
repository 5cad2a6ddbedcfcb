// landings heard only down to a few hundred feet (lib/detector/final.ts, issue 43): MLAT and small fields'
// coverage end 300-700 ft up on final. a hand-made final onto a 3 km runway along the parallel 45 N
// (field at 100 ft), from the east, one point per 4 s, 3 degrees (318 ft per nm), 25-ft encoder.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cutLegs, type LegCut, type TrackPoint } from '../../lib/detector.ts';
import { ELEV, HALF_KM, KM_LON, LAT, LON, fields } from '../helpers/runway-field.ts';

const T0 = 1_750_000_000;
const KT = 120;
const KM_S = (KT * 1.852) / 3600;
const FT_PER_KM = 318 / 1.852;
/** touchdown 300 m past the threshold (the aiming point) at T0 */
const TOUCH_X = HALF_KM - 0.3;

/** [s before touchdown] -> a point on the final (the glide meets the field at the aiming point) */
function onFinal(sBefore: number, y = 0): TrackPoint {
  const dKm = sBefore * KM_S;
  return { t: T0 - sBefore, lat: LAT + y / 111.195, lon: LON + (TOUCH_X + dKm) * KM_LON, alt: Math.round((ELEV + dKm * FT_PER_KM) / 25) * 25, gs: KT };
}
/** a cruise-in from 3,000 ft and the final, heard until lastS before touchdown */
function approach(lastS: number): TrackPoint[] {
  const pts: TrackPoint[] = [];
  for (let s = 600; s > 200; s -= 20) pts.push({ ...onFinal(s), lat: LAT + 0.2, alt: 3000 });
  for (let s = 200; s >= lastS; s -= 4) pts.push(onFinal(s));
  return pts;
}
const arrivals = (legs: LegCut[]) => legs.filter((l) => l.arrival).map((l) => l.arrival!.at - T0);

test('a final heard down to ~350 ft that goes quiet is a landing, timed at the runway from its speed', () => {
  // last heard 24 s out: 1.5 km from the threshold, ~350 ft over the field
  const pts = approach(24);
  const legs = cutLegs(pts, { fields });
  assert.equal(legs.length, 1, JSON.stringify(legs));
  const [at] = arrivals(legs);
  assert.ok(at !== undefined && Math.abs(at) <= 8, `touchdown at ${at} s, flown at 0`);
  assert.equal(legs[0]!.arrival!.index, pts.length - 1, 'placed where it was last heard');
  // main's rule needs the last point within 100 ft of the field and 0.5 km of the runway: nothing
  assert.deepEqual(arrivals(cutLegs(pts, { fields, finalAglFt: 0 })), []);
});

test('a final that goes quiet higher than finalAglFt (50 s out, ~650 ft) is no landing', () => {
  assert.deepEqual(arrivals(cutLegs(approach(50), { fields })), []);
});

test('a go-around: down to 300 ft, then climbing away within coverage, is no landing', () => {
  const pts = approach(20);
  const last = pts[pts.length - 1]!;
  for (let i = 1; i <= 20; i++) pts.push({ ...last, t: last.t + 4 * i, lon: last.lon - i * 4 * KM_S * KM_LON, alt: (last.alt as number) + 60 * i });
  assert.deepEqual(arrivals(cutLegs(pts, { fields })), []);
});

test('a trace that goes quiet 350 ft up passing beside the runway (not closing on it) is no landing', () => {
  // 1.2 km north of the centreline, flying west along it: the distance to the runway does not fall
  const pts = approach(200);
  for (let s = 196; s >= 24; s -= 4) {
    const p = onFinal(s, 1.2);
    pts.push({ ...p, lon: LON + (HALF_KM - 0.2 - (196 - s) * 0.002) * KM_LON });
  }
  assert.deepEqual(arrivals(cutLegs(pts, { fields })), []);
});
