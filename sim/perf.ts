// the aircraft types the simulator flies: real ICAO designators with round-number performance
// (cruise speed and level, climb gradient, lift-off speed, still-air range) and their ADS-B emitter
// category. figures are typical published values rounded; good enough for plausible tracks and for
// choosing which of an airline's real types can fly a sector, not for ops.

type TypeClass = 'regional' | 'narrow' | 'wide' | 'light' | 'heli';

export interface Perf {
  type: string;
  desc: string;
  cls: TypeClass;
  /** kt, true airspeed ~ ground speed in still air */
  cruiseKt: number;
  /** ft */
  cruiseFt: number;
  /** ft per nm climbed (2,000 fpm at 300 kt is ~400 ft/nm) */
  climbFtNm: number;
  /** kt at lift-off and on final */
  vLoKt: number;
  /** ADS-B emitter category (A1 light, A2 small, A3 large, A4 B757, A5 heavy) */
  category: string;
  /** turnaround at the gate, minutes */
  turnMin: number;
  /** nm, typical still-air range with passengers: the longest sector the type is given */
  rangeNm: number;
}

type Row = [
  type: string,
  desc: string,
  cruiseKt: number,
  cruiseFt: number,
  climbFtNm: number,
  vLoKt: number,
  category: string,
  turnMin: number,
  rangeNm: number,
];
const table = (cls: TypeClass, rows: Row[]): Perf[] =>
  rows.map(([type, desc, cruiseKt, cruiseFt, climbFtNm, vLoKt, category, turnMin, rangeNm]) => ({
    type,
    desc,
    cls,
    cruiseKt,
    cruiseFt,
    climbFtNm,
    vLoKt,
    category,
    turnMin,
    rangeNm,
  }));

/** turboprops and regional jets */
const REGIONAL = table('regional', [
  ['AT76', 'ATR 72-600', 275, 23000, 450, 110, 'A2', 35, 800],
  ['AT75', 'ATR 72-500', 275, 23000, 450, 110, 'A2', 35, 800],
  ['AT72', 'ATR 72', 270, 23000, 450, 110, 'A2', 35, 750],
  ['AT45', 'ATR 42-500', 270, 23000, 450, 105, 'A2', 30, 700],
  ['AT46', 'ATR 42-600', 270, 23000, 450, 105, 'A2', 30, 700],
  ['DH8D', 'DHC-8-400', 300, 25000, 450, 120, 'A2', 35, 1100],
  ['SF34', 'Saab 340', 270, 25000, 450, 105, 'A2', 30, 900],
  ['E120', 'Embraer EMB-120 Brasilia', 270, 25000, 450, 110, 'A2', 30, 800],
  ['SB20', 'Saab 2000', 340, 27000, 450, 115, 'A2', 30, 1200],
  ['B190', 'Beech 1900D', 260, 20000, 500, 105, 'A2', 25, 600],
  ['SW4', 'Fairchild Metro', 260, 20000, 500, 105, 'A2', 25, 600],
  ['CRJ1', 'CRJ-100', 430, 35000, 380, 140, 'A2', 35, 1300],
  ['CRJ2', 'CRJ-200', 430, 35000, 380, 140, 'A2', 35, 1300],
  ['CRJ7', 'CRJ-700', 440, 35000, 380, 140, 'A3', 40, 1400],
  ['CRJ9', 'CRJ-900', 450, 35000, 380, 145, 'A3', 40, 1500],
  ['CRJX', 'CRJ-1000', 450, 35000, 370, 145, 'A3', 40, 1600],
  ['E135', 'Embraer ERJ-135', 430, 35000, 380, 135, 'A2', 35, 1500],
  ['E145', 'Embraer ERJ-145', 430, 35000, 380, 135, 'A2', 35, 1500],
  ['E170', 'Embraer 170', 450, 37000, 380, 140, 'A3', 40, 2000],
  ['E75L', 'Embraer 175 (long wing)', 450, 37000, 380, 140, 'A3', 40, 2000],
  ['E75S', 'Embraer 175 (short wing)', 450, 37000, 380, 140, 'A3', 40, 2000],
  ['E190', 'Embraer 190', 460, 37000, 380, 140, 'A3', 40, 2400],
  ['E195', 'Embraer 195', 460, 37000, 370, 145, 'A3', 40, 2300],
  ['E290', 'Embraer E190-E2', 460, 39000, 380, 140, 'A3', 40, 2800],
  ['E295', 'Embraer E195-E2', 460, 39000, 370, 145, 'A3', 40, 2600],
  ['SU95', 'Sukhoi Superjet 100', 450, 37000, 370, 145, 'A3', 40, 1700],
  ['AJ27', 'COMAC ARJ21', 440, 37000, 360, 145, 'A3', 40, 1200],
]);

/** single-aisle jets */
const NARROW = table('narrow', [
  ['BCS1', 'Airbus A220-100', 450, 37000, 380, 135, 'A3', 40, 3400],
  ['BCS3', 'Airbus A220-300', 450, 37000, 370, 140, 'A3', 40, 3300],
  ['A318', 'Airbus A318', 450, 37000, 390, 140, 'A3', 45, 3100],
  ['A319', 'Airbus A319', 450, 37000, 380, 145, 'A3', 45, 3700],
  ['A320', 'Airbus A320', 450, 37000, 350, 150, 'A3', 45, 3300],
  ['A321', 'Airbus A321', 450, 36000, 320, 155, 'A3', 50, 3200],
  ['A19N', 'Airbus A319neo', 450, 37000, 380, 145, 'A3', 45, 3700],
  ['A20N', 'Airbus A320neo', 450, 37000, 360, 150, 'A3', 45, 3500],
  ['A21N', 'Airbus A321neo', 450, 36000, 330, 155, 'A3', 50, 3500],
  ['B733', 'Boeing 737-300', 430, 35000, 340, 150, 'A3', 40, 2200],
  ['B734', 'Boeing 737-400', 430, 35000, 330, 150, 'A3', 40, 2100],
  ['B735', 'Boeing 737-500', 430, 35000, 350, 145, 'A3', 40, 2400],
  ['B737', 'Boeing 737-700', 450, 37000, 360, 150, 'A3', 40, 3000],
  ['B738', 'Boeing 737-800', 455, 37000, 340, 155, 'A3', 45, 2900],
  ['B739', 'Boeing 737-900', 455, 37000, 330, 155, 'A3', 45, 2900],
  ['B38M', 'Boeing 737 MAX 8', 455, 37000, 350, 155, 'A3', 45, 3500],
  ['B39M', 'Boeing 737 MAX 9', 455, 37000, 340, 155, 'A3', 45, 3300],
  ['B752', 'Boeing 757-200', 460, 37000, 360, 150, 'A4', 50, 3900],
  ['B753', 'Boeing 757-300', 460, 37000, 330, 155, 'A4', 55, 3300],
  ['C919', 'COMAC C919', 450, 37000, 340, 150, 'A3', 45, 2200],
  ['MD82', 'McDonnell Douglas MD-82', 440, 35000, 320, 150, 'A3', 45, 2000],
  ['MD83', 'McDonnell Douglas MD-83', 440, 35000, 320, 150, 'A3', 45, 2400],
]);

/** twin-aisle jets */
const WIDE = table('wide', [
  ['A306', 'Airbus A300-600', 470, 35000, 280, 155, 'A5', 90, 4000],
  ['A332', 'Airbus A330-200', 470, 37000, 300, 150, 'A5', 100, 7200],
  ['A333', 'Airbus A330-300', 470, 37000, 290, 155, 'A5', 100, 6300],
  ['A339', 'Airbus A330-900', 470, 39000, 300, 155, 'A5', 100, 7200],
  ['A343', 'Airbus A340-300', 470, 37000, 260, 160, 'A5', 110, 7300],
  ['A346', 'Airbus A340-600', 475, 37000, 250, 165, 'A5', 120, 7800],
  ['A359', 'Airbus A350-900', 488, 39000, 300, 160, 'A5', 110, 8100],
  ['A35K', 'Airbus A350-1000', 488, 39000, 290, 165, 'A5', 120, 8300],
  ['A388', 'Airbus A380-800', 490, 37000, 260, 165, 'A5', 150, 8000],
  ['B744', 'Boeing 747-400', 490, 35000, 260, 170, 'A5', 120, 7200],
  ['B748', 'Boeing 747-8', 490, 37000, 260, 170, 'A5', 120, 7700],
  ['B762', 'Boeing 767-200', 460, 37000, 320, 150, 'A5', 80, 6500],
  ['B763', 'Boeing 767-300', 460, 37000, 300, 155, 'A5', 90, 5900],
  ['B772', 'Boeing 777-200', 490, 37000, 280, 160, 'A5', 110, 7000],
  ['B773', 'Boeing 777-300', 490, 37000, 270, 165, 'A5', 120, 6000],
  ['B77L', 'Boeing 777-200LR / 777F', 490, 37000, 280, 165, 'A5', 110, 8300],
  ['B77W', 'Boeing 777-300ER', 490, 37000, 280, 165, 'A5', 120, 7400],
  ['B788', 'Boeing 787-8', 488, 39000, 310, 155, 'A5', 100, 7300],
  ['B789', 'Boeing 787-9', 488, 39000, 300, 160, 'A5', 110, 7600],
  ['B78X', 'Boeing 787-10', 488, 39000, 290, 160, 'A5', 110, 6300],
]);

/** general aviation: circuits and local flights */
export const LIGHT: readonly Perf[] = table('light', [
  ['C172', 'Cessna 172 Skyhawk', 110, 4500, 550, 60, 'A1', 30, 600],
  ['PA28', 'Piper PA-28 Cherokee', 115, 4500, 550, 65, 'A1', 30, 600],
  ['SR22', 'Cirrus SR22', 170, 8500, 500, 75, 'A1', 30, 1000],
  ['DA40', 'Diamond DA40', 130, 6500, 550, 65, 'A1', 30, 700],
  ['C182', 'Cessna 182 Skylane', 140, 6500, 550, 65, 'A1', 30, 800],
]);

/** helicopters (sim/faults.ts heliShare): lift-off and approach speed here is the climb-out speed; the
 * touch-down itself is at a walking pace (sim/fly.ts) */
export const HELI: readonly Perf[] = table('heli', [
  ['R44', 'Robinson R44', 105, 1500, 1100, 40, 'A7', 20, 300],
  ['R22', 'Robinson R22', 90, 1500, 1000, 40, 'A7', 20, 200],
  ['EC35', 'Airbus H135', 125, 2000, 1200, 45, 'A7', 20, 350],
]);

const ALL_PERF: readonly Perf[] = [...REGIONAL, ...NARROW, ...WIDE, ...LIGHT, ...HELI];
const BY_TYPE = new Map(ALL_PERF.map((x) => [x.type, x]));
export const perfOf = (type: string): Perf | null => BY_TYPE.get(type) ?? null;

/** the types plausible for a sector length when nothing is known of the airline (the fast log path) */
export function typesFor(nm: number): readonly Perf[] {
  if (nm < 450) return REGIONAL;
  if (nm < 3000) return NARROW;
  return WIDE;
}

/** no wide-body on a sector shorter than this, nm (when the registry knows only an airline's wide-bodies, its short hops are flown with types it does not list: the simulator leaves them out) */
const WIDE_MIN_NM = 300;

/** a sector this long or longer is long haul, nm */
export const LONG_HAUL_NM = 3000;

/**
 * Which of an airline's types can fly a sector: those whose range covers it; of those, on a
 * long-haul sector the wide-bodies when any reaches (a single-aisle crosses an ocean only where the
 * airline has nothing bigger), on a shorter one the single-aisle and regional ones when any reaches
 * (no wide-body on a hop its narrow-bodies fly). Empty when none fits.
 */
export function fittingTypes(types: readonly Perf[], nm: number): Perf[] {
  const reach = types.filter((p) => p.cls !== 'light' && p.cls !== 'heli' && p.rangeNm >= nm);
  const wide = reach.filter((p) => p.cls === 'wide');
  const small = reach.filter((p) => p.cls !== 'wide');
  if (nm >= LONG_HAUL_NM) return wide.length ? wide : small;
  return small.length ? small : nm < WIDE_MIN_NM ? [] : reach;
}
