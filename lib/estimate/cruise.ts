// the "cruising" rule: which last-heard states are worth flying on when an aircraft drops out.
// an estimate holds the last altitude and speed, so it only makes sense for an aircraft in level
// flight at altitude: a climbing, descending, slow or low aircraft is about to change speed and
// track (departure, approach, holding, a light aircraft), and the estimate would mislead.

export const CRUISE = {
  /** below this the aircraft is in a terminal area or is not an airliner; feet */
  minAltFt: 10_000,
  /** steeper than this is a climb or a descent, not cruise; feet per minute, either sign */
  maxRateFpm: 1_000,
  /** slower than this is a light aircraft, a helicopter or an approach; knots */
  minGsKt: 150,
  /** faster than this is a decoding error, not an aircraft; knots */
  maxGsKt: 1_000,
} as const;

/** The fields of a last-heard state the rule reads (a subset of the 2.1 record). */
export interface CruiseInput {
  lat?: number;
  lon?: number;
  alt_baro?: number | 'ground';
  gs?: number;
  track?: number;
  baro_rate?: number;
  emergency?: string;
}

const finite = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/**
 * Why a state is not cruising, or null when it is. Needs a position, a track and a ground speed
 * (the method flies on from them); an unknown vertical rate is accepted because the altitude
 * floor already excludes take-off and approach. An aircraft declaring an emergency is left out:
 * it is likely to divert, and an estimate toward its planned destination would be wrong.
 */
export function notCruisingBecause(s: CruiseInput): string | null {
  if (!finite(s.lat) || !finite(s.lon) || Math.abs(s.lat) > 90 || Math.abs(s.lon) > 180) return 'no position';
  if (!finite(s.track) || s.track < 0 || s.track > 360) return 'no track';
  if (!finite(s.gs)) return 'no ground speed';
  if (s.gs < CRUISE.minGsKt || s.gs > CRUISE.maxGsKt) return 'ground speed outside cruise';
  if (s.alt_baro === undefined || s.alt_baro === 'ground' || !finite(s.alt_baro)) return 'no altitude or on the ground';
  if (s.alt_baro < CRUISE.minAltFt) return 'below cruise altitude';
  if (s.baro_rate !== undefined && (!finite(s.baro_rate) || Math.abs(s.baro_rate) >= CRUISE.maxRateFpm)) return 'climbing or descending';
  if (s.emergency !== undefined && s.emergency !== 'none') return 'emergency declared';
  return null;
}

/** Is this last-heard state cruising (see notCruisingBecause for the rule)? */
export function isCruising(s: CruiseInput): boolean {
  return notCruisingBecause(s) === null;
}
