// what the network hears of a flight at an instant, pure: the true state (sim/fly.ts) through the
// receiver faults of sim/faults.ts. null when no station hears it (the coverage model, the floor
// at small fields, MLAT's poor low coverage). with the faults all off, exactly the true state:
// the simulator's output is then what it was before faults existed.
import { destinationPoint, distanceNm } from '../lib/geo.ts';
import { unit } from '../lib/random.ts';
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

/** the nearer of the flight's fields within NEAR_NM, or null */
function fieldNear(f: Flight, lat: number, lon: number): SimAirport | null {
  const a = distanceNm(lat, lon, f.org.lat, f.org.lon);
  const b = f.dst === f.org ? Infinity : distanceNm(lat, lon, f.dst.lat, f.dst.lon);
  if (Math.min(a, b) > NEAR_NM) return null;
  return a <= b ? f.org : f.dst;
}

/** a standard normal draw from two hashes (Box-Muller) */
function normal(...key: (number | string)[]): number {
  const u1 = Math.max(1e-12, unit(...key, 'n1'));
  return Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * unit(...key, 'n2'));
}

/** What the network hears of flight f dt seconds after off-block, or null. */
export function observe(ears: Ears, f: Flight, dt: number): Obs | null {
  const tr = ears.traits[f.af.index]!;
  if (!ears.faultsOn) {
    const s = stateAt(f.plan, dt);
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
  const seed = ears.seed;
  const t = f.offBlock + dt;
  const key = [seed, f.af.hex, Math.round(t * 10)] as const;
  const lag = tr.mlat ? MLAT_LAG_S[0] + MLAT_LAG_S[1] * unit(seed, f.af.hex, 'mlat-lag') : 0;
  const s = stateAt(f.plan, Math.max(0, dt - lag));
  if (!s) return null;
  const field = fieldNear(f, s.lat, s.lon);
  const feeder = field !== null && fieldFeeder(seed, field.ident, cfg) && distanceNm(s.lat, s.lon, field.lat, field.lon) <= FEEDER_NM;
  if (!feeder && !ears.coverage.heard(s.lat, s.lon, s.alt)) return null;
  const elev = field?.elevation_ft ?? 0;
  const agl = field ? (s.alt === 'ground' ? 0 : s.alt - elev) : null;
  if (agl !== null && !feeder) {
    const floor = Math.max(
      coverageFloorFt(seed, field!.ident, field!.kind, cfg),
      tr.mlat ? MLAT_FLOOR_FT[0] + MLAT_FLOOR_FT[1] * unit(seed, f.af.hex, 'mlat-floor') : 0,
    );
    if (agl < floor) return null;
  }
  const ft = traitsOfFlight(ears, f);
  let glitch: Glitch | null = null;
  // position: noise, and now and then a jump of kilometres
  const sigma = tr.mlat ? MLAT_NOISE_M : cfg.posNoiseM;
  let lat = s.lat + (normal(...key, 'lat') * sigma) / 111320;
  let lon = s.lon + (normal(...key, 'lon') * sigma) / (111320 * Math.max(0.05, Math.cos((s.lat * Math.PI) / 180)));
  if (unit(...key, 'outlier') < cfg.outlierRate) {
    const p = destinationPoint(lat, lon, 360 * unit(...key, 'out-b'), (2 + 28 * unit(...key, 'out-d')) / 1.852);
    lat = p.lat;
    lon = p.lon;
    glitch = 'outlier';
  }
  // altitude: pressure altitude in the encoder's steps; the ground as the transponder reports it
  const off = pressureOffsetFt(seed, s.lat, s.lon, t, cfg);
  const step = tr.stepFt;
  const asAltitude = (ft: number) => Math.round(ft / step) * step;
  const groundReading = (): number | 'ground' => (tr.ground === 'zero' ? 0 : asAltitude(elev + off + normal(...key, 'gnd') * 12));
  const stuckOff = ft.stickOffS > 0 && dt >= f.plan.offAt && dt <= f.plan.offAt + ft.stickOffS;
  const lateOn = ft.stickOnS > 0 && dt >= f.plan.onAt && dt <= f.plan.onAt + ft.stickOnS;
  let alt: number | 'ground' | null;
  if (s.alt === 'ground') {
    if (tr.ground !== 'flag') alt = groundReading();
    // GA transponders without a squat switch say ground only when slow; a flapping flag now and then says air
    else if ((f.af.kind === 'ga' && s.gs >= 50) || lateOn || (ft.flap && unit(...key, 'flap') < 0.2)) alt = asAltitude(elev + off);
    else alt = 'ground';
  } else {
    alt = asAltitude(s.alt + off);
    if (stuckOff && tr.ground !== 'altitude') alt = tr.ground === 'zero' ? 0 : 'ground';
    else if (ft.flap && tr.ground === 'flag' && agl !== null && agl < 300 && s.gs < 90 && unit(...key, 'flap') < 0.2) alt = 'ground';
    else if (unit(...key, 'spike') < cfg.altSpikeRate) {
      alt += (unit(...key, 'spike-s') < 0.5 ? -1 : 1) * asAltitude(500 + 3500 * unit(...key, 'spike-ft'));
      glitch ??= 'alt-spike';
    }
  }
  if (unit(...key, 'null') < cfg.altNullRate) {
    alt = null;
    glitch ??= 'alt-null';
  }
  const gs = tr.mlat ? Math.max(0, Math.round((s.gs + normal(...key, 'gs') * 5) * 10) / 10) : s.gs;
  const callsign = ft.callsignAt !== null && dt >= ft.callsignAt ? ft.callsign2 : f.callsign;
  const source: Source = tr.nonIcao ? 'tisb_trackfile' : tr.mlat ? 'mlat' : 'adsb_icao';
  return { hex: tr.outHex, lat, lon, alt, gs, track: s.track, rate: s.rate, callsign, source, state: s, agl, glitch };
}
