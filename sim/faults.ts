// what real receivers and real pilots do to a trace, as rates (sim/README.md, "Receiver faults"):
// the simulator's flying (circuits, go-arounds, low passes, helicopters) and what the network makes
// of it (noise, outliers, MLAT, altitude glitches, ground flags, coverage, hexes, callsigns). every
// draw is a stateless hash of (seed, airframe, flight, time), so a fault never shifts another
// random stream: with NO_FAULTS the simulator writes the bytes it wrote before faults existed.
import { HASH_START, hash32, hashOn, unit, unitOf } from '../lib/random.ts';
import type { Airframe } from './fleet.ts';

export interface FaultConfig {
  /** m, standard deviation of an ADS-B position's error */
  posNoiseM: number;
  /** per position: a bad CPR decode that jumps 2-30 km for one point */
  outlierRate: number;
  /** of airframes: Mode S only, positioned by MLAT (jitter, a lag, no reported speed, no low coverage) */
  mlatShare: number;
  /** per position: one altitude off by 500-4,000 ft */
  altSpikeRate: number;
  /** per position: no altitude in the row */
  altNullRate: number;
  /** hPa: the day's sea-level pressure is within this of standard, so pressure altitude on the ground is off the elevation by up to 27 ft per hPa */
  qnhSpreadHpa: number;
  /** of GA airframes: a Gillham (mode C) encoder, altitude in 100 ft steps */
  alt100Share: number;
  /** of GA airframes: the ground sent as alt_baro 0 (88NV) */
  alt0Share: number;
  /** of GA airframes: no ground flag at all, the ground sent as pressure altitude (Monterey, KWVI) */
  noFlagShare: number;
  /** of flights: the ground flag flaps (air on the taxiway, ground low on final) */
  flagFlapRate: number;
  /** of flights: the ground flag sticks through a take-off (30-150 s) or comes late after a landing */
  flagStickRate: number;
  /** of small fields: nothing heard below a floor of 100-700 ft above them */
  lowCoverageShare: number;
  /** of GA home fields: a feeder on the field hears everything within 3 nm down to the runway (KWVI) */
  fieldFeederShare: number;
  /** readsb's trace near the ground: a row every 4-5 s within 2,000 ft of a field (the real day files' 1-7 s), not every 8-20 s */
  denseTrace: number;
  /** of airframes: broadcasting another airframe's hex (both in one trace) */
  dupHexShare: number;
  /** of GA airframes: heard only through TIS-B, under a non-ICAO '~' address */
  nonIcaoShare: number;
  /** of flights: the callsign changes once in the air */
  callsignChangeRate: number;
  /** of GA flights: a circuit session (2-6 laps, each a touch-and-go, a go-around or a low pass, then a full stop) */
  circuitShare: number;
  /** per lap of a circuit session: a go-around (down to 100-300 ft, climb away) */
  goAroundRate: number;
  /** per lap of a circuit session: a low pass (20-150 ft over the runway at speed) */
  lowPassRate: number;
  /** of GA airframes: a helicopter */
  heliShare: number;
}

/** the simulator as it was before faults: exact positions, ground flags, full coverage down to the runway */
export const NO_FAULTS: FaultConfig = {
  posNoiseM: 0,
  outlierRate: 0,
  mlatShare: 0,
  altSpikeRate: 0,
  altNullRate: 0,
  qnhSpreadHpa: 0,
  alt100Share: 0,
  alt0Share: 0,
  noFlagShare: 0,
  flagFlapRate: 0,
  flagStickRate: 0,
  lowCoverageShare: 0,
  fieldFeederShare: 0,
  denseTrace: 0,
  dupHexShare: 0,
  nonIcaoShare: 0,
  callsignChangeRate: 0,
  circuitShare: 0,
  goAroundRate: 0,
  lowPassRate: 0,
  heliShare: 0,
};

/** `make demo`'s defaults, each from the real traffic the detector is measured on (bench/detector/README.md) */
export const DEMO_FAULTS: FaultConfig = {
  // NACp 8-9 positions scatter by tens of metres; the real traces jitter by ~10-20 m on a runway
  posNoiseM: 15,
  // readsb's speed check lets a bad CPR decode through now and then: a few a day in the real day files
  outlierRate: 0.001,
  // Mode S-only GA in the US, where MLAT is the only position
  mlatShare: 0.05,
  altSpikeRate: 0.001,
  // rows without altitude: ~1 % of the globe_history sample's rows
  altNullRate: 0.01,
  // the labelled days: 1013-1019 hPa (KWVI ground read 75-100 ft at 163 ft)
  qnhSpreadHpa: 8,
  // half the KWVI day's aircraft report in 100 ft steps
  alt100Share: 0.4,
  // 88NV: most gliders and tow planes write the ground as 0
  alt0Share: 0.2,
  // the Monterey and KWVI days: 92 ground flags in 41,294 positions
  noFlagShare: 0.4,
  flagFlapRate: 0.05,
  // 88NV's tow plane wrote 0 for 2.5 minutes of its climb
  flagStickRate: 0.03,
  // Monterey: coverage at small fields often ends on final, 100-1,000 ft up
  lowCoverageShare: 0.5,
  // the KWVI day: a feeder near the field heard circuits on the runway; most small fields have none
  fieldFeederShare: 0.3,
  denseTrace: 1,
  dupHexShare: 0.005,
  // the KWVI day: 5 of 218 aircraft under a '~' address
  nonIcaoShare: 0.03,
  callsignChangeRate: 0.02,
  // the KWVI day: 20 touch-and-goes among 96 events
  circuitShare: 0.3,
  goAroundRate: 0.08,
  lowPassRate: 0.05,
  // Monterey: two helicopters among ~150 aircraft heard low
  heliShare: 0.1,
};

/** what an airframe is like all day (from its hex, never from the order of the fleet) */
export interface AirframeTraits {
  /** the address the network files it under: its own, another airframe's, or a '~' one */
  outHex: string;
  mlat: boolean;
  ground: 'flag' | 'zero' | 'altitude';
  stepFt: 25 | 100;
  nonIcao: boolean;
  /** the hex of the airframe it shares an address with, when it does */
  dupOf: string | null;
}

export function airframeTraits(seed: number, af: Airframe, fleet: readonly Airframe[], cfg: FaultConfig): AirframeTraits {
  const u = (k: string) => unit(seed, af.hex, 'fault', k);
  const ga = af.kind === 'ga';
  const nonIcao = ga && u('tisb') < cfg.nonIcaoShare;
  const prev = af.index > 0 ? fleet[af.index - 1] : undefined;
  const dupOf = !nonIcao && prev && u('dup') < cfg.dupHexShare ? prev.hex : null;
  const g = u('ground');
  return {
    outHex: nonIcao ? `~${(hash32(seed, af.hex, 'tisb-hex') & 0xffffff).toString(16).padStart(6, '0')}` : (dupOf ?? af.hex),
    mlat: !nonIcao && u('mlat') < cfg.mlatShare,
    ground: !ga ? 'flag' : g < cfg.alt0Share ? 'zero' : g < cfg.alt0Share + cfg.noFlagShare ? 'altitude' : 'flag',
    stepFt: ga && u('gillham') < cfg.alt100Share ? 100 : 25,
    nonIcao,
    dupOf,
  };
}

/** what happens to one flight */
export interface FlightTraits {
  flap: boolean;
  /** s the ground flag sticks after the first lift-off, or lags the last touch-down; 0 = not */
  stickOffS: number;
  stickOnS: number;
  /** s after off-block the callsign changes, and to what; null = not */
  callsignAt: number | null;
  callsign2: string;
}

/** what the traits of a flight are drawn from (a sim/schedule.ts Flight; named here, so this file imports no schedule) */
interface TraitKey {
  af: { hex: string };
  callsign: string;
  offBlock: number;
  plan: { offAt: number; onAt: number };
}

export function flightTraits(seed: number, f: TraitKey, cfg: FaultConfig): FlightTraits {
  const u = (k: string) => unit(seed, f.af.hex, f.offBlock, 'fault', k);
  const stick = u('stick') < cfg.flagStickRate;
  const which = u('stick-end') < 0.5;
  const change = u('callsign') < cfg.callsignChangeRate;
  return {
    flap: u('flap') < cfg.flagFlapRate,
    stickOffS: stick && which ? 30 + 120 * u('stick-s') : 0,
    stickOnS: stick && !which ? 20 + 60 * u('stick-s') : 0,
    callsignAt: change ? f.plan.offAt + (0.2 + 0.6 * u('callsign-at')) * (f.plan.onAt - f.plan.offAt) : null,
    callsign2: otherCallsign(f.callsign, hash32(seed, f.af.hex, f.offBlock, 'callsign-2')),
  };
}

/** a different callsign of the same look: a flight number for a registration, another number for a flight number */
function otherCallsign(c: string, h: number): string {
  const m = /^([A-Z]{3})(\d+)$/.exec(c);
  if (m) return `${m[1]}${1 + (h % 9000)}`;
  return `${c.slice(0, 3)}${100 + (h % 900)}`.slice(0, 8);
}

/** whether a feeder sits on the field: everything within 3 nm is heard, down to the runway */
export const fieldFeeder = (seed: number, ident: string, cfg: FaultConfig) => unit(seed, 'feeder', ident) < cfg.fieldFeederShare;

/** ft above the flight's field below which nothing is heard near it (0 = heard to the ground) */
export function coverageFloorFt(seed: number, ident: string, kind: string, cfg: FaultConfig): number {
  if (kind !== 'small_airport' || fieldFeeder(seed, ident, cfg) || unit(seed, 'floor', ident) >= cfg.lowCoverageShare) return 0;
  return 100 + 600 * unit(seed, 'floor-ft', ident);
}

/** ft: pressure altitude minus true altitude on a day near a place (27 ft per hPa below standard) */
export function pressureOffsetFt(seed: number, lat: number, lon: number, t: number, cfg: FaultConfig): number {
  if (!cfg.qnhSpreadHpa) return 0;
  // unit(seed, 'qnh', day, lat / 5, lon / 5) without an array a call: this runs for every trace row
  const u = unitOf(hashOn(hashOn(hashOn(hashOn(hashOn(HASH_START, seed), 'qnh'), Math.floor(t / 86400)), Math.floor(lat / 5)), Math.floor(lon / 5)));
  return Math.round(-(u - 0.5) * 2 * cfg.qnhSpreadHpa * 27);
}
