// the fault model's command-line face (sim/faults.ts): one flag and one environment variable per
// rate, defaulting to the demo's realistic values; --faults off turns them all off (the simulator
// as it was: exact positions, ground flags, coverage to the runway, no circuits).
import type { Specs } from '../lib/cli.ts';
import { DEMO_FAULTS, NO_FAULTS, type FaultConfig } from './faults.ts';

export interface FaultFlags extends FaultConfig {
  /** false: every rate is 0, whatever the other flags say */
  faultsOn: boolean;
}

const share = (v: number) => (v >= 0 && v <= 1 ? undefined : 'must be within 0..1');
const metres = (v: number) => (v >= 0 && v <= 1000 ? undefined : 'must be within 0..1000');
const hpa = (v: number) => (v >= 0 && v <= 40 ? undefined : 'must be within 0..40');

const rate = (flag: string, key: keyof FaultConfig, help: string): Specs<FaultConfig>[keyof FaultConfig] => ({
  flag,
  env: `CONTRAIL_SIM_${flag.toUpperCase().replace(/-/g, '_')}`,
  kind: 'number',
  default: DEMO_FAULTS[key],
  help,
  check: key === 'posNoiseM' ? metres : key === 'qnhSpreadHpa' ? hpa : share,
});

export const faultSpecs: Specs<FaultFlags> = {
  faultsOn: {
    flag: 'faults',
    env: 'CONTRAIL_SIM_FAULTS',
    kind: 'bool',
    default: true,
    help: 'receiver faults and GA circuits at the rates below (--no-faults: none, the exact simulator)',
  },
  posNoiseM: rate('pos-noise-m', 'posNoiseM', 'm, spread of an ADS-B position'),
  outlierRate: rate('outlier-rate', 'outlierRate', 'per position: a bad decode that jumps 2-30 km'),
  mlatShare: rate('mlat-share', 'mlatShare', 'of airframes: positioned by MLAT (100 m jitter, 1-3 s lag, unheard below 500-1,500 ft)'),
  altSpikeRate: rate('alt-spike-rate', 'altSpikeRate', 'per position: an altitude 500-4,000 ft off'),
  altNullRate: rate('alt-null-rate', 'altNullRate', 'per position: no altitude'),
  qnhSpreadHpa: rate('qnh-spread-hpa', 'qnhSpreadHpa', "hPa: the day's pressure off standard, so the ground reads up to 27 ft/hPa off the elevation"),
  alt100Share: rate('alt100-share', 'alt100Share', 'of GA airframes: altitude in 100 ft steps (mode C)'),
  alt0Share: rate('alt0-share', 'alt0Share', 'of GA airframes: the ground sent as alt_baro 0 (as at 88NV)'),
  noFlagShare: rate('no-flag-share', 'noFlagShare', 'of GA airframes: no ground flag, the ground sent as pressure altitude'),
  flagFlapRate: rate('flag-flap-rate', 'flagFlapRate', 'of flights: the ground flag flaps'),
  flagStickRate: rate('flag-stick-rate', 'flagStickRate', 'of flights: the ground flag sticks through a take-off or comes late after a landing'),
  lowCoverageShare: rate('low-coverage-share', 'lowCoverageShare', 'of small fields: nothing heard below 100-700 ft above them'),
  fieldFeederShare: rate('field-feeder-share', 'fieldFeederShare', 'of GA home fields: a feeder on the field hears everything within 3 nm down to the runway'),
  denseTrace: rate('dense-trace', 'denseTrace', '1: a trace row every 4-5 s within 2,000 ft of a field, as readsb writes (0: every 8-20 s)'),
  dupHexShare: rate('dup-hex-share', 'dupHexShare', "of airframes: sending another airframe's hex"),
  nonIcaoShare: rate('non-icao-share', 'nonIcaoShare', 'of GA airframes: heard only through TIS-B, under a ~ address'),
  callsignChangeRate: rate('callsign-change-rate', 'callsignChangeRate', 'of flights: the callsign changes in the air'),
  circuitShare: rate('circuit-share', 'circuitShare', 'of GA flights: a circuit session (touch-and-goes, go-arounds, low passes)'),
  goAroundRate: rate('go-around-rate', 'goAroundRate', 'per lap of a circuit session: a go-around'),
  lowPassRate: rate('low-pass-rate', 'lowPassRate', 'per lap of a circuit session: a low pass'),
  heliShare: rate('heli-share', 'heliShare', 'of GA airframes: a helicopter'),
};

/** the rates the flags give (all 0 with --no-faults) */
export function faultsOf(f: FaultFlags): FaultConfig {
  if (!f.faultsOn) return NO_FAULTS;
  const { faultsOn: _, ...rates } = f;
  return rates;
}

/** the flags that reproduce a config in a child process (the demo's `sim history`) */
export function faultArgs(f: FaultFlags): string[] {
  if (!f.faultsOn) return ['--no-faults'];
  return (Object.keys(faultSpecs) as (keyof FaultFlags)[]).filter((k) => k !== 'faultsOn').flatMap((k) => [`--${faultSpecs[k].flag}`, String(f[k])]);
}
