// ground flags stuck through a take-off (lib/detector/stuck.ts, issue 43): an airliner whose transponder
// keeps saying "ground" for two minutes after lift-off, past the runway's far end, with no altitude at all
// (the noisy sim's flag-stuck). a hand-made take-off: a 3 km runway along the parallel 45 N, the roll
// westward from its east end, one point per 5 s.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cutLegs, type TrackPoint } from '../../lib/detector.ts';
import { ELEV, HALF_KM, KM_LON, LAT, LON, fields } from '../helpers/runway-field.ts';

const T0 = 1_750_000_000;
const KT_KM_S = 1.852 / 3600;
/** lift-off 37.5 s into the roll (4 kt/s to 150 kt), then 155 kt climbing 350 ft per nm */
const LIFT_S = 37.5;
const CLIMB_FT_S = (350 * 155) / 3600;

/** the take-off, one point per 5 s from the hold; "ground" flags until stuckS after lift-off */
function takeoff(stuckS: number): TrackPoint[] {
  const pts: TrackPoint[] = [];
  for (let i = 0; i < 6; i++) pts.push({ t: T0 - 60 + 10 * i, lat: LAT, lon: LON + HALF_KM * KM_LON, alt: 'ground', gs: 0 });
  for (let s = 0; s <= LIFT_S + stuckS + 90; s += 5) {
    const roll = s <= LIFT_S;
    const gs = roll ? 4 * s : 155;
    const km = roll ? 2 * s * s * KT_KM_S : 2 * LIFT_S * LIFT_S * KT_KM_S + 155 * KT_KM_S * (s - LIFT_S);
    const stuck = s <= LIFT_S + stuckS;
    const alt = stuck ? 'ground' : Math.round((ELEV + CLIMB_FT_S * (s - LIFT_S)) / 25) * 25;
    pts.push({ t: T0 + s, lat: LAT, lon: LON + (HALF_KM - km) * KM_LON, alt, gs });
  }
  return pts;
}

test('a ground flag stuck for 120 s past the runway end: the take-off is where the climb heard after it meets the field, on the runway', () => {
  const pts = takeoff(120);
  const legs = cutLegs(pts, { fields });
  assert.equal(legs.length, 1, JSON.stringify(legs));
  const dep = legs[0]!.departure!;
  assert.ok(dep, 'a take-off');
  assert.ok(Math.abs(dep.at - (T0 + LIFT_S)) <= 5, `lift-off at +${dep.at - T0} s, flown at +${LIFT_S} s`);
  assert.ok(fields(dep.lat, dep.lon)!.km <= 0.3, 'placed on the runway');
  // without airfield knowledge the flags are believed: the take-off is the last of them, two minutes late
  const blind = cutLegs(pts)[0]!.departure!;
  assert.ok(blind.at - T0 >= LIFT_S + 115, `flag-only lift-off at +${blind.at - T0} s`);
});

test('a ground flag stuck past the runway end and then level (no climb heard to extend back): the last point on the runway', () => {
  const pts = takeoff(120).filter((p) => p.alt === 'ground');
  const last = pts[pts.length - 1]!;
  // levelled off at 3,000 ft when first heard with an altitude
  const level = Array.from({ length: 12 }, (_, i) => ({ ...last, t: last.t + 5 * (i + 1), lon: last.lon - 0.4 * (i + 1) * KM_LON, alt: 3000, gs: 160 }));
  const legs = cutLegs([...pts, ...level], { fields });
  const dep = legs[0]!.departure!;
  assert.ok(dep, JSON.stringify(legs));
  const onRunway = pts.filter((p) => typeof p.gs === 'number' && p.gs > 40 && (fields(p.lat, p.lon)?.km ?? Infinity) <= 0.3);
  assert.equal(dep.at, onRunway[onRunway.length - 1]!.t, 'the last flagged point over the runway');
});

test('a take-off whose flag clears at lift-off is not moved by the stuck-flag rule', () => {
  const pts = takeoff(0);
  const dep = cutLegs(pts, { fields })[0]!.departure!;
  assert.ok(Math.abs(dep.at - (T0 + LIFT_S)) <= 5, `lift-off at +${dep.at - T0} s`);
});
