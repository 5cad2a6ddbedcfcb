// the simulator's ground truth beside the history it writes: one JSON line per event each flight
// really had (sim/fly.ts PlanEvent), with the fault classes that touched it, so a scorer can hold a
// detector against it (bench/detector/sim.ts). a touch-and-go is two lines, a landing and a take-off
// (touch_and_go on both); a go-around and a low pass are lines of their own kinds that must not be
// found as either. written per UTC day as YYYY/MM/DD/sim_truth.jsonl, next to readsb's traces/.
import type { PlanEvent } from './fly.ts';
import type { Glitch } from './observe.ts';
import type { AirframeTraits, FlightTraits } from './faults.ts';
import type { Flight } from './schedule.ts';

/** the classes a scorer reports figures for (sim/README.md, "Receiver faults") */
export const FAULT_CLASSES = [
  'outlier',
  'alt-spike',
  'alt-null',
  'mlat',
  'alt100',
  'alt0-ground',
  'no-ground-flag',
  'flag-flap',
  'flag-stuck',
  'low-coverage',
  'touch-and-go',
  'go-around',
  'low-pass',
  'circuit',
  'helicopter',
  'dup-hex',
  'non-icao',
  'callsign-change',
] as const;
export type FaultClass = (typeof FAULT_CLASSES)[number];

export interface TruthEvent {
  /** the address the network heard it under (the trace file's), and the airframe's own */
  hex: string;
  airframe: string;
  callsign: string;
  kind: PlanEvent['kind'];
  /** unix s */
  t: number;
  /** OurAirports ident */
  airport: string;
  /** the runway end used (OurAirports designator); null when not known or the event is no take-off or landing */
  runway: string | null;
  touch_and_go: boolean;
  classes: FaultClass[];
  /** ft above the field of the lowest position written within LOW_WINDOW_S of the event (0: on the ground); null: none */
  lowest_agl_ft: number | null;
}

/** s either side of an event in which a point fault, or the lowest point heard, counts for it */
const LOW_WINDOW_S = 120;

/** one position the history wrote: when, how high above the field, and what went wrong with it */
export interface Written {
  t: number;
  agl: number | null;
  glitch: Glitch | null;
}

/** the truth lines of one flight, from its plan and what was written of it */
export function flightTruth(
  f: Flight,
  tr: AirframeTraits,
  ft: FlightTraits,
  written: readonly Written[],
  coverageFloor: (ident: string) => number,
): TruthEvent[] {
  const circuit = f.plan.events.length > 2;
  return f.plan.events.map((e) => {
    const t = f.offBlock + e.at;
    const near = written.filter((w) => Math.abs(w.t - t) <= LOW_WINDOW_S);
    const classes = new Set<FaultClass>();
    for (const w of near) if (w.glitch) classes.add(w.glitch);
    if (tr.mlat) classes.add('mlat');
    if (tr.stepFt === 100) classes.add('alt100');
    if (tr.ground === 'zero') classes.add('alt0-ground');
    if (tr.ground === 'altitude') classes.add('no-ground-flag');
    if (ft.flap) classes.add('flag-flap');
    if ((ft.stickOffS && e.at === f.plan.offAt) || (ft.stickOnS && e.at === f.plan.onAt)) classes.add('flag-stuck');
    if (coverageFloor(e.airport) > 0) classes.add('low-coverage');
    if (e.touchAndGo) classes.add('touch-and-go');
    if (e.kind === 'go-around' || e.kind === 'low-pass') classes.add(e.kind);
    if (circuit) classes.add('circuit');
    if (f.af.perf.cls === 'heli') classes.add('helicopter');
    if (tr.dupOf) classes.add('dup-hex');
    if (tr.nonIcao) classes.add('non-icao');
    if (ft.callsignAt !== null) classes.add('callsign-change');
    const lows = near.map((w) => w.agl).filter((a): a is number => a !== null);
    return {
      hex: tr.outHex,
      airframe: f.af.hex,
      callsign: f.callsign,
      kind: e.kind,
      t: Math.round(t * 10) / 10,
      airport: e.airport,
      runway: e.kind === 'takeoff' || e.kind === 'landing' ? e.runway : null,
      touch_and_go: e.touchAndGo ?? false,
      classes: FAULT_CLASSES.filter((c) => classes.has(c)),
      lowest_agl_ft: lows.length ? Math.max(0, Math.min(...lows)) : null,
    };
  });
}
