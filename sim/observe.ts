// what the network hears of a flight at an instant, pure: the true state (sim/fly.ts) through the
// receiver faults of sim/faults.ts. null when no station hears it (the coverage model, the floor
// at small fields, MLAT's poor low coverage). with the faults all off, exactly the true state:
// the simulator's output is then what it was before faults existed.
import { destinationPoint, distanceNm } from '../lib/geo.ts';
import { HASH_START, hashOn, unitOf } from '../lib/random.ts';
import { stateAt, type State } from './fly.ts';
import { coverageFloorFt, fieldFeeder, flightTraits, pressureOffsetFt, type AirframeTraits, type FaultConfig, type FlightTraits } from './faults.ts';
import type { Flight } from './schedule.ts';
import type { SimAirport } from './world.ts';

type Source = 'adsb_icao' | 'mlat' | 'tisb_trackfile';
/** a fault on one position, for the truth file's classes */
export type Glitch = 'outlier' | 'alt-spike' | 'alt-null';

export interface Obs {
  /** the address it is heard under */
  hex: string;
  lat: number;
  lon: number;
  /** ft, the string 'ground', or null (no altitude in the message) */
  alt: number | 'ground' | null;
  gs: number;
  track: number;
  rate: number;
  callsign: string;
  source: Source;
  /** the true state, and the height above the flight's nearer field (0 on the ground; null far from both) */
  state: State;
  agl: number | null;
  glitch: Glitch | null;
}

/** what observe needs of the simulated network */
export interface Ears {
  seed: number;
  faults: FaultConfig;
  /** false with every rate 0: observe returns the true state */
  faultsOn: boolean;
  traits: readonly AirframeTraits[];
  coverage: { heard(lat: number, lon: number, alt: number | 'ground'): boolean };
}

/** nm from a field within which its coverage floor and ground readings apply */
const NEAR_NM = 4;
/** ft: MLAT needs four stations in view, seldom the case low down (per airframe, 150-800 ft above the field) */
const MLAT_FLOOR_FT = [150, 650] as const;
/** nm: a feeder on the field hears this far, down to the runway */
const FEEDER_NM = 3;
/** m, the spread of an MLAT position; s, how far behind it runs */
const MLAT_NOISE_M = 100;
const MLAT_LAG_S = [1, 2] as const;

const memo = new WeakMap<Flight, FlightTraits>();
export function traitsOfFlight(ears: Ears, f: Flight): FlightTraits {
  let ft = memo.get(f);
  if (!ft) memo.set(f, (ft = flightTraits(ears.seed, f, ears.faults)));
  return ft;
}

/** what observe needs of a flight at every row, worked out at its first: hashes of the key's fixed
 * part, the MLAT lag and floor, and each field's feeder and coverage floor (sim/faults.ts) */
interface FlightEars {
  ft: FlightTraits;
  /** hash32(seed, hex): every per-row draw continues it (lib/random.ts hashOn) */
  hexHash: number;
  lag: number;
  mlatFloor: number;
  orgFeeder: boolean;
  dstFeeder: boolean;
  orgFloor: number;
  dstFloor: number;
}
const earsMemo = new WeakMap<Flight, FlightEars>();
function earsOf(ears: Ears, f: Flight, tr: AirframeTraits): FlightEars {
  let fe = earsMemo.get(f);
  if (fe) return fe;
  const { seed, faults: cfg } = ears;
  const hexHash = hashOn(hashOn(HASH_START, seed), f.af.hex);
  const feeder = (ap: SimAirport) => fieldFeeder(seed, ap.ident, cfg);
  const floor = (ap: SimAirport) => coverageFloorFt(seed, ap.ident, ap.kind, cfg);
  fe = {
    ft: traitsOfFlight(ears, f),
    hexHash,
    lag: tr.mlat ? MLAT_LAG_S[0] + MLAT_LAG_S[1] * unitOf(hashOn(hexHash, 'mlat-lag')) : 0,
    mlatFloor: tr.mlat ? MLAT_FLOOR_FT[0] + MLAT_FLOOR_FT[1] * unitOf(hashOn(hexHash, 'mlat-floor')) : 0,
    orgFeeder: feeder(f.org),
    dstFeeder: feeder(f.dst),
    orgFloor: floor(f.org),
    dstFloor: floor(f.dst),
  };
  earsMemo.set(f, fe);
  return fe;
}

/** a standard normal draw (Box-Muller) from a key's hash: the key continued by 'n1' and 'n2' */
function normalOf(h: number): number {
  const u1 = Math.max(1e-12, unitOf(hashOn(h, 'n1')));
  return Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * unitOf(hashOn(h, 'n2')));
}

/** unit(...key, what) from the key's hash */
const draw = (kh: number, what: string) => unitOf(hashOn(kh, what));

/** ft in the encoder's steps */
const asAltitude = (ft: number, step: number) => Math.round(ft / step) * step;

/**
 * What the network hears of flight f dt seconds after off-block, or null. `state`, when given, is
 * stateAt(f.plan, dt) already worked out by the caller (used when there is no MLAT lag).
 * per-row draws are unit(seed, hex, round(t * 10), what) (lib/random.ts), hashed from the flight's
 * prefix: this runs for every row of every simulated day (docs/perf-log/demo-startup.md).
 */
export function observe(ears: Ears, f: Flight, dt: number, state?: State | null): Obs | null {
  const tr = ears.traits[f.af.index]!;
  if (!ears.faultsOn) {
    const s = state !== undefined ? state : stateAt(f.plan, dt);
    if (!s || !ears.coverage.heard(s.lat, s.lon, s.alt)) return null;
    return {
      hex: f.af.hex,
      lat: s.lat,
      lon: s.lon,
      alt: s.alt,
      gs: s.gs,
      track: s.track,
      rate: s.rate,
      callsign: f.callsign,
      source: 'adsb_icao',
      state: s,
      agl: null,
      glitch: null,
    };
  }
  const cfg = ears.faults;
  const fe = earsOf(ears, f, tr);
  const t = f.offBlock + dt;
  const kh = hashOn(fe.hexHash, Math.round(t * 10));
  const s = fe.lag === 0 && state !== undefined ? state : stateAt(f.plan, Math.max(0, dt - fe.lag));
  if (!s) return null;
  // the nearer of the flight's fields within NEAR_NM, or none
  const dOrg = distanceNm(s.lat, s.lon, f.org.lat, f.org.lon);
  const dDst = f.dst === f.org ? Infinity : distanceNm(s.lat, s.lon, f.dst.lat, f.dst.lon);
  const nearOrg = dOrg <= dDst;
  const field = Math.min(dOrg, dDst) > NEAR_NM ? null : nearOrg ? f.org : f.dst;
  const feeder = field !== null && (nearOrg ? fe.orgFeeder : fe.dstFeeder) && (nearOrg ? dOrg : dDst) <= FEEDER_NM;
  if (!feeder && !ears.coverage.heard(s.lat, s.lon, s.alt)) return null;
  const elev = field?.elevation_ft ?? 0;
  const agl = field ? (s.alt === 'ground' ? 0 : s.alt - elev) : null;
  if (agl !== null && !feeder) {
    const floor = Math.max(nearOrg ? fe.orgFloor : fe.dstFloor, fe.mlatFloor);
    if (agl < floor) return null;
  }
  const ft = fe.ft;
  let glitch: Glitch | null = null;
  // position: noise, and now and then a jump of kilometres
  const sigma = tr.mlat ? MLAT_NOISE_M : cfg.posNoiseM;
  let lat = s.lat + (normalOf(hashOn(kh, 'lat')) * sigma) / 111320;
  let lon = s.lon + (normalOf(hashOn(kh, 'lon')) * sigma) / (111320 * Math.max(0.05, Math.cos((s.lat * Math.PI) / 180)));
  if (draw(kh, 'outlier') < cfg.outlierRate) {
    const p = destinationPoint(lat, lon, 360 * draw(kh, 'out-b'), (2 + 28 * draw(kh, 'out-d')) / 1.852);
    lat = p.lat;
    lon = p.lon;
    glitch = 'outlier';
  }
  // altitude: pressure altitude in the encoder's steps; the ground as the transponder reports it
  const off = pressureOffsetFt(ears.seed, s.lat, s.lon, t, cfg);
  const step = tr.stepFt;
  const stuckOff = ft.stickOffS > 0 && dt >= f.plan.offAt && dt <= f.plan.offAt + ft.stickOffS;
  const lateOn = ft.stickOnS > 0 && dt >= f.plan.onAt && dt <= f.plan.onAt + ft.stickOnS;
  let alt: number | 'ground' | null;
  if (s.alt === 'ground') {
    if (tr.ground !== 'flag') alt = tr.ground === 'zero' ? 0 : asAltitude(elev + off + normalOf(hashOn(kh, 'gnd')) * 12, step);
    // GA transponders without a squat switch say ground only when slow; a flapping flag now and then says air
    else if ((f.af.kind === 'ga' && s.gs >= 50) || lateOn || (ft.flap && draw(kh, 'flap') < 0.2)) alt = asAltitude(elev + off, step);
    else alt = 'ground';
  } else {
    alt = asAltitude(s.alt + off, step);
    if (stuckOff && tr.ground !== 'altitude') alt = tr.ground === 'zero' ? 0 : 'ground';
    else if (ft.flap && tr.ground === 'flag' && agl !== null && agl < 300 && s.gs < 90 && draw(kh, 'flap') < 0.2) alt = 'ground';
    else if (draw(kh, 'spike') < cfg.altSpikeRate) {
      alt += (draw(kh, 'spike-s') < 0.5 ? -1 : 1) * asAltitude(500 + 3500 * draw(kh, 'spike-ft'), step);
      glitch ??= 'alt-spike';
    }
  }
  if (draw(kh, 'null') < cfg.altNullRate) {
    alt = null;
    glitch ??= 'alt-null';
  }
  const gs = tr.mlat ? Math.max(0, Math.round((s.gs + normalOf(hashOn(kh, 'gs')) * 5) * 10) / 10) : s.gs;
  const callsign = ft.callsignAt !== null && dt >= ft.callsignAt ? ft.callsign2 : f.callsign;
  const source: Source = tr.nonIcao ? 'tisb_trackfile' : tr.mlat ? 'mlat' : 'adsb_icao';
  return { hex: tr.outHex, lat, lon, alt, gs, track: s.track, rate: s.rate, callsign, source, state: s, agl, glitch };
}
