// the aircraft types the simulator flies: real ICAO designators with round-number performance
// (cruise speed and level, climb gradient, lift-off speed) and their ADS-B emitter category.
// figures are typical published values rounded; good enough for plausible tracks, not for ops.

export interface Perf {
  type: string;
  desc: string;
  /** kt, true airspeed ~ ground speed in still air */
  cruiseKt: number;
  /** ft */
  cruiseFt: number;
  /** ft per nm climbed (2,000 fpm at 300 kt is ~400 ft/nm) */
  climbFtNm: number;
  /** kt at lift-off and on final */
  vLoKt: number;
  /** ADS-B emitter category (A1 light, A2 small, A3 large, A5 heavy) */
  category: string;
  /** turnaround at the gate, minutes */
  turnMin: number;
}

const p = (type: string, desc: string, cruiseKt: number, cruiseFt: number, climbFtNm: number, vLoKt: number, category: string, turnMin: number): Perf =>
  ({ type, desc, cruiseKt, cruiseFt, climbFtNm, vLoKt, category, turnMin });

/** short sectors (under ~500 nm) */
const REGIONAL: readonly Perf[] = [
  p('AT76', 'ATR 72-600', 275, 23000, 450, 110, 'A2', 35),
  p('DH8D', 'DHC-8-400', 300, 25000, 450, 120, 'A2', 35),
  p('CRJ9', 'CRJ-900', 450, 35000, 380, 145, 'A3', 40),
  p('E75L', 'ERJ-170-200', 450, 37000, 380, 140, 'A3', 40),
  p('E190', 'ERJ-190', 460, 37000, 380, 140, 'A3', 40),
];

/** single-aisle, up to ~3,300 nm */
const NARROW: readonly Perf[] = [
  p('A320', 'Airbus A320', 450, 37000, 350, 150, 'A3', 45),
  p('A20N', 'Airbus A320neo', 450, 37000, 360, 150, 'A3', 45),
  p('A321', 'Airbus A321', 450, 36000, 320, 155, 'A3', 50),
  p('A319', 'Airbus A319', 450, 37000, 380, 145, 'A3', 45),
  p('B738', 'Boeing 737-800', 455, 37000, 340, 155, 'A3', 45),
  p('B38M', 'Boeing 737 MAX 8', 455, 37000, 350, 155, 'A3', 45),
];

/** twin-aisle long haul */
const WIDE: readonly Perf[] = [
  p('B77W', 'Boeing 777-300ER', 490, 37000, 280, 165, 'A5', 120),
  p('A359', 'Airbus A350-900', 488, 39000, 300, 160, 'A5', 110),
  p('B789', 'Boeing 787-9', 488, 39000, 300, 160, 'A5', 110),
  p('B788', 'Boeing 787-8', 488, 39000, 310, 155, 'A5', 100),
  p('A333', 'Airbus A330-300', 470, 37000, 290, 155, 'A5', 100),
];

/** general aviation: circuits and local flights */
export const LIGHT: readonly Perf[] = [
  p('C172', 'Cessna 172 Skyhawk', 110, 4500, 550, 60, 'A1', 30),
  p('PA28', 'Piper PA-28 Cherokee', 115, 4500, 550, 65, 'A1', 30),
  p('SR22', 'Cirrus SR22', 170, 8500, 500, 75, 'A1', 30),
  p('DA40', 'Diamond DA40', 130, 6500, 550, 65, 'A1', 30),
  p('C182', 'Cessna 182 Skylane', 140, 6500, 550, 65, 'A1', 30),
];

const ALL_PERF: readonly Perf[] = [...REGIONAL, ...NARROW, ...WIDE, ...LIGHT];
const BY_TYPE = new Map(ALL_PERF.map((x) => [x.type, x]));
export const perfOf = (type: string): Perf | null => BY_TYPE.get(type) ?? null;

/** the types plausible for a sector length */
export function typesFor(nm: number): readonly Perf[] {
  if (nm < 450) return REGIONAL;
  if (nm < 3000) return NARROW;
  return WIDE;
}
