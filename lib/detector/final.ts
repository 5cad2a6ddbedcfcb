// landings heard only down to a few hundred feet, for the take-off/landing detector (lib/detector.ts):
// MLAT is not heard low and a small field's coverage can end 300-700 ft up (the noisy sim's mlat and
// low-coverage; real receivers the same). a leg that goes quiet low on final, closing on a runway and
// descending, landed there: nothing else comes down to that height there and then leaves coverage (a
// go-around or a low pass climbs away within it and does not end the leg). thresholds in DetectorOptions.
import { distanceNm } from '../geo.ts';
import type { FieldView } from './circuits.ts';
import type { DetectorOptions } from './options.ts';
import { belowField, saysGround, speedOf, type TrackPoint } from './points.ts';

/** km past the runway's end (its threshold, on final) a touchdown is made: the aiming point, ~300 m in */
const TOUCH_IN_KM = 0.3;
const KM_PER_NM = 1.852;

/** the touchdown time of a leg s..e that ends low on final (last point e), extrapolated from the distance
 * left to the runway at the last points' ground speed; null when it does not end so. the caller says the
 * leg ends there (the trace ends, or a stop follows, or the aircraft is next heard back on the runway). */
export function finalTouchdown(pts: TrackPoint[], s: number, e: number, v: FieldView, o: DetectorOptions): number | null {
  const last = pts[e]!;
  const elev = v.elev(e);
  const km = v.km(e);
  if (elev === null || km > o.finalKm || typeof last.alt !== 'number' || saysGround(last, o) || belowField(last, o)) return null;
  // the height over the field at the aircraft's own ground reading there when known (the day's pressure error)
  const level = v.groundLevel(e) ?? v.levelElsewhere(e) ?? elev;
  if (last.alt - level > o.finalAglFt) return null;
  // descending and closing on the runway over the last finalS: the distance to it falls by at least
  // finalClosing of the distance flown (the lookup gives no runway heading; this stands in for lining up)
  let a = e;
  while (a > s && last.t - pts[a - 1]!.t <= o.finalS) a--;
  if (a === e || last.t - pts[a]!.t < o.finalS / 2 || v.id(a) !== v.id(e)) return null;
  const first = pts[a]!;
  if (typeof first.alt !== 'number' || saysGround(first, o) || first.alt - last.alt < o.finalDescentFt) return null;
  let flown = 0;
  for (let i = a + 1; i <= e; i++) flown += distanceNm(pts[i - 1]!.lat, pts[i - 1]!.lon, pts[i]!.lat, pts[i]!.lon) * KM_PER_NM;
  if (!(flown > 0) || v.km(a) - km < o.finalClosing * flown) return null;
  for (let i = a; i <= e; i++) {
    const h = pts[i]!.alt;
    if (typeof h === 'number' && !saysGround(pts[i]!, o) && h < last.alt - o.fieldClimbFt) return null; // it climbed back: not one descent
  }
  // the speed over the ground the last points flew (a reported speed is noisy under MLAT)
  const kt = (flown / KM_PER_NM / (last.t - first.t)) * 3600 || speedOf(pts, e);
  if (!(kt > 0)) return null;
  return last.t + ((km + TOUCH_IN_KM) / KM_PER_NM / kt) * 3600;
}
