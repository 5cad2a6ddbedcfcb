// ground flags stuck through a take-off, for the take-off/landing detector (lib/detector.ts): a ground
// run whose end is flown, not rolled. two readings of it: the run holds altitudes above the field
// (stuckFlagLiftOff), or it runs on past the runway's far end at flying speed with no altitude at all
// (pastRunwayLiftOff). thresholds in DetectorOptions (lib/detector/options.ts).
import { distanceNm } from '../geo.ts';
import type { FieldView } from './circuits.ts';
import type { DetectorOptions } from './options.ts';
import { belowField, heightAboveField, saysGround, speedOf, type TrackPoint } from './points.ts';

/** a ground flag stuck through the take-off roll and the climb (an 88NV tow plane wrote "0" for 2.5 min,
 * broken by readings 500-1,700 ft above the field): when the end of a ground run (hs..he) never slows
 * to taxi speed (taxiKt; the tow climbed at 45-60 kt) and holds a reading more than fieldAglFt above
 * the field, the aircraft was flying there. the lift-off is where the climb heard from that reading (to the next one
 * climbMinFt higher), extended back, meets the field's elevation: the ground point nearest that time,
 * not before the flying-speed stretch began. null when the run does not end so. */
export function stuckFlagLiftOff(pts: TrackPoint[], hs: number, he: number, ce: number, o: DetectorOptions): number | null {
  if (!o.fields) return null;
  let k = he;
  while (k > hs && speedOf(pts, k - 1) > o.taxiKt) k--;
  if (speedOf(pts, he) <= o.taxiKt) return null;
  for (let x = k; x <= he; x++) {
    const p = pts[x]!;
    const h = heightAboveField(p, o);
    if (typeof p.alt !== 'number' || saysGround(p, o) || h === null || h <= o.fieldAglFt) continue;
    for (let j = x + 1; j <= ce && pts[j]!.t - p.t <= o.climbWindowS; j++) {
      const a = pts[j]!.alt;
      if (typeof a !== 'number' || saysGround(pts[j]!, o) || belowField(pts[j]!, o) || a < p.alt + o.climbMinFt) continue;
      const at = p.t - h / ((a - p.alt) / (pts[j]!.t - p.t));
      let best = k;
      for (let i = k; i < x; i++) if (Math.abs(pts[i]!.t - at) < Math.abs(pts[best]!.t - at)) best = i;
      return best;
    }
    return null;
  }
  return null;
}

/** a ground flag stuck past the runway's far end (the noisy sim's flag-stuck: "ground" for 30-150 s after
 * lift-off, at 157-180 kt, 4 km beyond the runway): when the ground run (hs..he) ends faster than taxiKt
 * and more than runwayEndKm from every runway after a stretch on one at speed, the flags past the runway
 * were flown. the lift-off is on that stretch, where the first climb heard after the run, extended back
 * along the path flown at its own gradient (ft per nm: an initial climb holds its angle better than its
 * rate while the aircraft accelerates), meets the field's level; without a climb heard, the last point
 * on the runway. null when the run does not end so. */
export function pastRunwayLiftOff(pts: TrackPoint[], hs: number, he: number, ce: number, v: FieldView | null, o: DetectorOptions): number | null {
  if (!v || speedOf(pts, he) <= o.taxiKt) return null;
  // the fast stretch the run ends with, and the field its roll began at
  let k = he;
  while (k > hs && speedOf(pts, k - 1) > o.taxiKt) k--;
  const id = v.id(k);
  const onIt = (j: number, km: number) => v.id(j) === id && v.km(j) <= km;
  if (id === null || !onIt(k, o.contactKm) || onIt(he, o.runwayEndKm)) return null;
  // the last point on that field's runways (a flagged run past it may cross other fields: KEWR's heliports)
  let last = he;
  while (last > k && !onIt(last, o.contactKm)) last--;
  const level = v.groundLevel(last) ?? v.levelElsewhere(last) ?? v.elev(last)!;
  const alt = (j: number): number | null => {
    const a = pts[j]!.alt;
    return typeof a === 'number' && !saysGround(pts[j]!, o) && !belowField(pts[j]!, o) ? a : null;
  };
  let x = he + 1;
  while (x <= ce && alt(x) === null && pts[x]!.t - pts[he]!.t <= o.climbWindowS) x++;
  if (x > ce || alt(x) === null || alt(x)! <= level) return last;
  const path = (a: number, b: number) => {
    let nm = 0;
    for (let j = a + 1; j <= b; j++) nm += distanceNm(pts[j - 1]!.lat, pts[j - 1]!.lon, pts[j]!.lat, pts[j]!.lon);
    return nm;
  };
  for (let y = x + 1; y <= ce && pts[y]!.t - pts[x]!.t <= o.climbWindowS; y++) {
    const a = alt(y);
    if (a === null || a < alt(x)! + o.climbMinFt) continue;
    const nm = path(x, y);
    if (nm <= 0) return last;
    // nm back from x to where the climb meets the field's level
    let back = (alt(x)! - level) / ((a - alt(x)!) / nm);
    let i = x;
    while (i > k && back > 0) {
      back -= distanceNm(pts[i - 1]!.lat, pts[i - 1]!.lon, pts[i]!.lat, pts[i]!.lon);
      i--;
    }
    return Math.min(Math.max(i, k), last);
  }
  return last;
}
