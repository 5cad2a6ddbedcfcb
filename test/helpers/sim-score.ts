// scores take-offs and landings found on the simulator's noisy history against its truth file
// (sim/truth.ts): precision and recall at ±30 s, overall and per fault class, and how often the
// airport is right. used by bench/detector/sim.ts (prints the table) and test/sim/faults.slow.test.ts.
//
// which truth events count for recall (the rest may still match, and then are no false detection):
// - a touch-and-go's landing and take-off when its roll was heard (a point on the runway within
//   120 s, sim/truth.ts): heard only in the air, it cannot be told from a go-around or a low pass;
// - any other take-off or landing heard within 120 s at most OBSERVABLE_AGL_FT above the
//   field: a landing heard down to a few hundred feet is expected to be found.
// a detection that matches no truth event is false; it is charged to the classes of the nearest
// truth event of its address within CHARGE_S (a go-around or low pass among them), else to none.
// the runway is scored on the matched events whose truth names one: named (the detection gives a
// runway end) and right (the same end).
import type { FaultClass, TruthEvent } from '../../sim/truth.ts';
import { FAULT_CLASSES } from '../../sim/truth.ts';

export const SIM_TOLERANCE_S = 30;
/** ft: a take-off or landing heard this low near it is one the detector should find */
export const OBSERVABLE_AGL_FT = 500;
/** s: a false detection this close to a truth event is charged to that event's classes */
const CHARGE_S = 300;

export interface SimFound {
  hex: string;
  kind: 'dep' | 'arr';
  t: number;
  airport: string | null;
  /** the runway end placed (lib/reference/place.ts), null when none */
  runway: string | null;
}

export interface ClassScore {
  labelled: number;
  found: number;
  matched: number;
  correct: number;
  airportOk: number;
  /** matched events whose truth names a runway end, those given one, and those given the right one */
  runwayKnown: number;
  runwayNamed: number;
  runwayOk: number;
}
export interface SimScore {
  all: ClassScore;
  byKind: Record<'dep' | 'arr', ClassScore>;
  byClass: Record<FaultClass | 'none', ClassScore>;
  /** truth events left out of recall (not observable), by kind */
  unobservable: number;
  /** one line per miss and false detection (for --verbose) */
  notes: string[];
}

const kindOf = (e: TruthEvent): 'dep' | 'arr' | null => (e.kind === 'takeoff' ? 'dep' : e.kind === 'landing' ? 'arr' : null);

export function observable(e: TruthEvent): boolean {
  if (kindOf(e) === null || e.lowest_agl_ft === null) return false;
  return e.touch_and_go ? e.lowest_agl_ft === 0 : e.lowest_agl_ft <= OBSERVABLE_AGL_FT;
}

const empty = (): ClassScore => ({ labelled: 0, found: 0, matched: 0, correct: 0, airportOk: 0, runwayKnown: 0, runwayNamed: 0, runwayOk: 0 });
const hhmmss = (t: number) => new Date(t * 1000).toISOString().slice(5, 19).replace('T', ' ');

export function scoreSim(truth: readonly TruthEvent[], found: readonly SimFound[]): SimScore {
  const s: SimScore = {
    all: empty(),
    byKind: { dep: empty(), arr: empty() },
    byClass: Object.fromEntries([...FAULT_CLASSES, 'none'].map((c) => [c, empty()])) as SimScore['byClass'],
    unobservable: 0,
    notes: [],
  };
  const byHex = new Map<string, SimFound[]>();
  for (const f of found) byHex.set(f.hex, [...(byHex.get(f.hex) ?? []), f]);
  const truthByHex = new Map<string, TruthEvent[]>();
  for (const e of truth) truthByHex.set(e.hex, [...(truthByHex.get(e.hex) ?? []), e]);
  const used = new Map<SimFound, TruthEvent>();
  const tally = (e: TruthEvent, k: 'dep' | 'arr', fn: (c: ClassScore) => void) => {
    fn(s.all);
    fn(s.byKind[k]);
    for (const c of e.classes.length ? e.classes : ['none' as const]) fn(s.byClass[c]);
  };
  // observable events first, so that one never loses its detection to an event nobody could time
  const order = [...truth].filter((e) => kindOf(e)).sort((a, b) => Number(observable(b)) - Number(observable(a)) || a.t - b.t);
  for (const e of order) {
    const k = kindOf(e)!;
    const obs = observable(e);
    if (!obs) s.unobservable++;
    let best: SimFound | null = null;
    for (const f of byHex.get(e.hex) ?? []) {
      if (used.has(f) || f.kind !== k || Math.abs(f.t - e.t) > SIM_TOLERANCE_S) continue;
      if (!best || Math.abs(f.t - e.t) < Math.abs(best.t - e.t)) best = f;
    }
    if (obs) tally(e, k, (c) => c.labelled++);
    if (best) {
      used.set(best, e);
      tally(e, k, (c) => {
        c.found++;
        c.correct++;
        if (obs) c.matched++;
        if (best.airport === e.airport) c.airportOk++;
        if (e.runway === null) return;
        c.runwayKnown++;
        if (best.runway !== null) c.runwayNamed++;
        if (best.runway === e.runway && best.airport === e.airport) c.runwayOk++;
      });
      if (best.airport !== e.airport) s.notes.push(`${e.hex} ${k} ${hhmmss(e.t)} ${e.airport}: airport ${best.airport ?? '-'} [${e.classes.join(' ')}]`);
      else if (best.runway !== null && e.runway !== null && best.runway !== e.runway)
        s.notes.push(`${e.hex} ${k} ${hhmmss(e.t)} ${e.airport}: runway ${best.runway} (flew ${e.runway}) [${e.classes.join(' ')}]`);
    } else if (obs) s.notes.push(`${e.hex} ${k} ${hhmmss(e.t)} ${e.airport}: MISSED, lowest ${e.lowest_agl_ft} ft [${e.classes.join(' ')}]`);
  }
  for (const f of found) {
    if (used.has(f)) continue;
    let near: TruthEvent | null = null;
    for (const e of truthByHex.get(f.hex) ?? []) if (Math.abs(e.t - f.t) <= CHARGE_S && (!near || Math.abs(e.t - f.t) < Math.abs(near.t - f.t))) near = e;
    const classes: (FaultClass | 'none')[] = near?.classes.length ? near.classes : ['none'];
    s.all.found++;
    s.byKind[f.kind].found++;
    for (const c of classes) s.byClass[c].found++;
    s.notes.push(
      `${f.hex} ${f.kind} ${hhmmss(f.t)} ${f.airport ?? '-'}: FALSE${near ? ` (near ${near.kind} ${hhmmss(near.t)} [${near.classes.join(' ')}])` : ''}`,
    );
  }
  return s;
}
