// the take-off/landing detector's thresholds (lib/detector.ts), each with the real trace it was
// measured on, and the airfield lookup it is given.

/** the airfield nearest a point (within the lookup's own radius), its elevation and distance (km from its
 * nearest runway centreline), or null. id: which field, when the lookup knows (readings at one field are
 * compared with each other: lib/detector/circuits.ts) */
export type FieldLookup = (lat: number, lon: number) => { elevation_ft: number; km: number; id?: string } | null;

export interface DetectorOptions {
  /** airfield knowledge (lib/reference/fields.ts). with it, ground is also recognised without a ground
   * flag: slow and within fieldAglFt of a field's elevation, or a reading far below the field (88NV
   * writes ground as altitude 0 at 3,912 ft); a first-heard take-off must be low over a field; a brief
   * ground reading far from every field is a glitch. null: the flag alone, as readsb's own legs */
  fields: FieldLookup | null;
  /** ft above the field's elevation a slow point may read and still be on the ground. pressure altitude
   * on the ground is the elevation plus ~27 ft per hPa below standard, and mode C is coarse: measured on
   * the labelled traces, ground reads from 660 ft below (MSP in a cold high) to 470 ft above (Hollister) */
  fieldAglFt: number;
  /** s. a slow point at the field's height is on the ground only when no slow reading there within this
   * long (either side) is more than a mode C step lower (Monterey a81f3c: a helicopter at 25 kt 210 ft
   * over KWVI, on the ground 175 ft lower after a 230 s gap) */
  hoverS: number;
  /** ft. a reading this far below the nearby field's elevation is not an altitude at all: ground */
  belowFieldFt: number;
  /** ft. a run of ground flags between readings this far above the nearby field is flown through (flownThrough) */
  flagAglFt: number;
  /** kt. "slow" for the rule above: a landing roll decelerating, a touch-and-go, taxiing */
  fieldSlowKt: number;
  /** ft above the field a first-heard aircraft may be and still have been heard taking off */
  firstAglFt: number;
  /** km from the field's runways a first-heard take-off may be: the locator's runway match distance
   * (lib/reference/locate.ts RUNWAY_KM), so a take-off is never placed where no airport matches (seen:
   * a glider first heard 440 ft up 2.65 km from 88NV, thermalling, not taking off) */
  firstKm: number;
  /** ft. with airfield knowledge, "climbing away" from low over the field needs only this much (a
   * circuit climb levels off at ~800 ft above the field: seen at Monterey, 275 ft then a turn) */
  fieldClimbFt: number;
  /** ft/min. with airfield knowledge, a first-heard take-off reaches fieldClimbFt above its first reading
   * at least this fast: the first-heard take-offs labelled climb at 480-2,700 ft/min; a TIS-B track heard
   * twice, 870 ft over KCVH and 200 ft higher 96 s later (125 ft/min), is an aircraft passing over */
  firstClimbFpm: number;
  /** km. "over the runway" for a leg that goes quiet on it (see lastAglFt) */
  runwayEndKm: number;
  /** ft above the field's elevation the last point of a leg that descended onto a runway and went quiet may be */
  lastAglFt: number;
  /** "descended": a point of the leg at most lastDescentS before its last one read lastDescentFt higher.
   * coverage at small fields often ends on final and comes back on the runway after a 2-4 minute gap
   * (Monterey: 1,150 ft, 196 s of silence, then two points 70 ft over the KCVH runway) */
  lastDescentFt: number;
  lastDescentS: number;
  /** s. touchdown and lift-off are moved from the first/last ground point to the lowest air points
   * next to it (a ground flag lags touchdown), at most this far */
  settleS: number;
  /** a numeric altitude at or below this (ft) counts as on the ground; null = only the string 'ground'.
   * position streams that report ground as altitude 0 (the 88nv files) pass 0. */
  groundAltFt: number | null;
  /** kt. an on-ground flag moving faster than this is a bad flag, read as air (no airliner rolls this
   * fast). speed from the neighbours' positions when close in time, else the reported gs */
  groundMaxKt: number;
  /** kt. a ground run between two flights must slow to this: a touch-and-go (~55 kt for ~10 s)
   * and a ground flag flapping in flight never do, so a circuit stays one leg */
  taxiKt: number;
  /** points. a ground run between two flights needs at least this many: one point is a glitch */
  minGroundPoints: number;
  /** s. a ground run shorter than this is "brief": checked against the air points beside it
   * (maxVertFpm), and when no speed is known at all it cannot separate two flights */
  minGroundS: number;
  /** ft/min. the steepest climb or descent believed next to a brief ground run; faster means the
   * ground point is a glitch (seen: "alt 0, gs 0" written 78 s after 15,350 ft)... */
  maxVertFpm: number;
  /** ft. ...counted down to this height, since the field elevation is not known here: above DEN
   * (5,431), MEX (7,316) and BOG (8,360). a brief ground run at a higher field (La Paz) right after
   * an air point is distrusted; a landing heard on the ground for minGroundS is always kept */
  maxFieldFt: number;
  /** ft. with a field near, a pressure altitude may read this much above its elevation on the ground (QNH
   * 980 hPa reads ~900 ft high; the noisy sim's airliners touch down 290 ft above EDDM's elevation) */
  fieldPressureFt: number;
  /** s. an air run between two ground runs shorter than this is a flapping flag while taxiing */
  minAirS: number;
  /** kt. an air run that never reaches this speed is a flapping flag on the ground */
  airMinKt: number;
  /** s. the last ground point is the take-off only when the first air point follows within this */
  takeoffGapMaxS: number;
  /** ft. first heard aloft at or below this and climbing away still counts as a heard take-off (spec 2.4) */
  maxFirstAltFt: number;
  /** ft. "climbing away": the altitude must rise this much above the first air point... */
  climbMinFt: number;
  /** s. ...within this long, without first dropping more than climbMinFt below it */
  climbWindowS: number;
  /** s and ft. an aircraft heard again after a gap of at least unheardStopGapS, at most unheardStopAglFt
   * above the field and within runwayEndKm of it, higher before the gap and climbing away after it,
   * came down onto the runway in the gap: the leg is cut there, with the take-off at that point and the
   * landing not heard (Monterey: circuits at KCVH heard at 1,300 ft, then 114 s later 220 ft over the
   * runway climbing out) */
  unheardStopGapS: number;
  unheardStopAglFt: number;
  /** s. ...or after a gap this long, from no lower than that point: time to land and taxi back unheard */
  unheardTurnS: number;
  /** s. coverage gaps shorter than this never cut a leg (no landing, turnaround and take-off fits) */
  gapMinS: number;
  /** a gap cuts the leg when it took longer than stretch * direct time + slack: the aircraft stopped
   * somewhere. stretch allows for routing detours, in cruise ~1.1-1.3 */
  gapStretch: number;
  /** s. the slack of the rule above: the least time a landing, turnaround and climb-out take */
  gapSlackS: number;
  /** kt. the speed assumed across a gap when neither end reports one */
  gapRefKt: number;
  /** nm. a ground track that jumps this far across a gap was flown unheard: the ground run is cut */
  groundJumpNm: number;
  // ---- circuits (lib/detector/circuits.ts) ----
  /** km from a runway centreline within which readings count for the field's level (the trace's lowest there) */
  levelKm: number;
  /** s. a level read this long before or after a point is another visit's: the ground (a sim airliner's
   * last point 215 ft over MMSP's elevation, its take-off 48 minutes later at 165) */
  levelApartS: number;
  /** km from a runway centreline a touch-and-go's roll may be: the runway, its width and position noise */
  contactKm: number;
  /** ft. a touch-and-go comes down from at least this much higher, and climbs away as high, each within contactWindowS
   * (KWVI a864dd: a low approach to 175 ft over the field is no contact, a roll at 50 ft between 425 and 450 ft is) */
  contactRiseFt: number;
  contactWindowS: number;
  /** a touch-and-go's roll loses this share of the approach speed (the KWVI day: 15-30 %; a low pass or
   * go-around at approach speed loses none) */
  contactSlowFrac: number;
  /** s. a coverage gap this long inside a stretch at the runway's level: the aircraft stopped in it (KWVI
   * a34b61: 51 kt on the runway, 327 s unheard, back on the runway at 80 kt) */
  contactStopS: number;
  /** s. a lift-off after the last runway point by more than this fell in a gap: extrapolated from the climb */
  contactGapS: number;
  /** s. first heard on the runway at its own ground reading after a gap of at most this: the touchdown was
   * in the gap and is placed there (a longer gap can hide a landing minutes earlier: monterey-0602 a6c29e) */
  touchGapS: number;
  /** ft/min assumed for that when the climb after the gap gives no rate (a light aircraft's ~700) */
  contactClimbFpm: number;
  // ---- landings heard only on final (lib/detector/final.ts) ----
  /** km from the runway and ft above the field (its level) the last point of a leg that goes quiet on final
   * may be: the locator's runway match distance, as firstKm; and the issue's "a few hundred feet" (the noisy
   * sim's MLAT is last heard 170-410 ft up, its small fields' coverage ends 350-700 ft up) */
  finalKm: number;
  finalAglFt: number;
  /** s, ft and share: over the last finalS the leg came down finalDescentFt and closed on the runway by
   * finalClosing of the distance it flew (a 3-degree final at 90-160 kt loses ~150-250 ft in 30 s and
   * closes at ~1.0; a pass beside the field or a turn onto base closes slower) */
  finalS: number;
  finalDescentFt: number;
  finalClosing: number;
}

export const DEFAULT_DETECTOR: DetectorOptions = {
  fields: null,
  fieldAglFt: 500,
  hoverS: 300,
  belowFieldFt: 1500,
  flagAglFt: 1500,
  fieldSlowKt: 45,
  firstAglFt: 1000,
  firstKm: 2.0,
  fieldClimbFt: 200,
  firstClimbFpm: 250,
  settleS: 30,
  runwayEndKm: 0.5,
  lastAglFt: 100,
  lastDescentFt: 200,
  lastDescentS: 300,
  groundAltFt: null,
  groundMaxKt: 200,
  taxiKt: 40,
  minGroundPoints: 2,
  minGroundS: 20,
  maxVertFpm: 4000,
  maxFieldFt: 9000,
  fieldPressureFt: 1000,
  minAirS: 30,
  airMinKt: 50,
  takeoffGapMaxS: 300,
  maxFirstAltFt: 5000,
  climbMinFt: 500,
  climbWindowS: 600,
  gapMinS: 600,
  unheardStopGapS: 90,
  unheardStopAglFt: 300,
  unheardTurnS: 180,
  gapStretch: 1.5,
  gapSlackS: 1800,
  gapRefKt: 250,
  groundJumpNm: 3,
  levelKm: 0.5,
  levelApartS: 600,
  contactKm: 0.3,
  contactRiseFt: 200,
  contactWindowS: 180,
  contactSlowFrac: 0.12,
  contactStopS: 45,
  contactGapS: 20,
  contactClimbFpm: 700,
  touchGapS: 120,
  finalKm: 2.0,
  finalAglFt: 500,
  finalS: 30,
  finalDescentFt: 100,
  finalClosing: 0.8,
};
