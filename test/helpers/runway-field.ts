// a hand-made field for the detector's tests: a 3 km runway along the parallel 45 N (field at 100 ft),
// its centreline segment from 1.5 km west to 1.5 km east of the field's point.
import type { FieldLookup } from '../../lib/detector.ts';

export const LAT = 45;
export const LON = 7;
export const ELEV = 100;
/** degrees of longitude per km at LAT */
export const KM_LON = 1 / (111.195 * Math.cos((LAT * Math.PI) / 180));
export const HALF_KM = 1.5;
/** km from the runway centreline segment, within 4 km */
export const fields: FieldLookup = (lat, lon) => {
  const x = (lon - LON) / KM_LON;
  const y = (lat - LAT) * 111.195;
  const km = Math.hypot(Math.max(0, Math.abs(x) - HALF_KM), y);
  return km <= 4 ? { elevation_ft: ELEV, km, id: 'TEST' } : null;
};
