// readsb globe_history days from the simulated sky: YYYY/MM/DD/traces/xx/trace_full_<hex>.json,
// gzip bytes under a .json name, laid out and formatted as readsb writes them (rows of
// [dt, lat, lon, alt|'ground', gs, track, flags, baro_rate, details|null, source, alt_geom,
// geom_rate, ias, roll], dt from the day's midnight). each file is written to a temporary name
// and renamed. the pure part (historyDay) also returns the ground truth of the day's flights: the
// legs (tests) and the events with their fault classes (sim/truth.ts), written beside the traces.
// positions go through the receiver faults (sim/observe.ts); airframes heard under one address
// (a duplicated hex) share a file, their rows in time order.
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { stateAt } from './fly.ts';
import { distanceNm } from '../lib/geo.ts';
import { HASH_START, hashOn, unitOf } from '../lib/random.ts';
import { coverageFloorFt } from './faults.ts';
import { observe, traitsOfFlight } from './observe.ts';
import { flightTruth, type TruthEvent, type Written } from './truth.ts';
import type { Flight } from './schedule.ts';
import type { Sky } from './sky.ts';
import type { Airframe } from './fleet.ts';

/** what the simulator flew, for scoring the log against */
export interface TruthLeg {
  hex: string;
  callsign: string;
  org: string;
  dst: string;
  /** unix s of lift-off and touch-down */
  off: number;
  on: number;
  /** whether a station heard the aircraft on the ground at each end */
  heardOrg: boolean;
  heardDst: boolean;
}

/** s between trace rows by phase: readsb writes more often when things change */
export function sampleStep(alt: number | 'ground', rate: number): number {
  if (alt === 'ground') return 8;
  if (alt < 10000) return 20;
  return rate !== 0 ? 40 : 90;
}

/** ft above a field within which readsb writes a row every few seconds (sim/faults.ts denseTrace) */
const DENSE_AGL_FT = 2000;

type DenseState = { lat: number; lon: number; alt: number | 'ground'; rate: number; gs: number };
const nearField = (s: DenseState, ap: Flight['org']) =>
  distanceNm(s.lat, s.lon, ap.lat, ap.lon) < 6 && (s.alt === 'ground' || s.alt - (ap.elevation_ft ?? 0) < DENSE_AGL_FT);

/** s to the next row with faults on: denser near a field, as readsb writes it (altitude and track change fast there) */
function denseStep(f: Flight, s: DenseState): number {
  if (!nearField(s, f.org) && !nearField(s, f.dst)) return sampleStep(s.alt, s.rate);
  if (s.alt === 'ground') return s.gs > 1 ? 5 : 30;
  return 4;
}

/** zlib options of the trace files: level 1, a third of level 6's CPU for a day of the demo's files
 * (bench/sim-history-day.ts; docs/perf-log/demo-startup.md); the log step reads either alike */
export const TRACE_GZIP = { level: 1 };

const r = (x: number, d: number) => Math.round(x * 10 ** d) / 10 ** d;
const fixed = (x: number, d: number) => x.toFixed(d);

/** one airframe's rows of a UTC day (each with its time, for merging), the legs it flew and its events */
function airframeDay(sky: Sky, af: Airframe, dayStart: number): { rows: [number, string][]; truth: TruthLeg[]; events: TruthEvent[] } {
  const dayEnd = dayStart + 86400;
  const rows: [number, string][] = [];
  const truth: TruthLeg[] = [];
  const events: TruthEvent[] = [];
  for (const f of sky.schedule.flightsIn(af, dayStart, dayEnd)) {
    const heardAtGround = (dt: number) => {
      const s = stateAt(f.plan, dt)!;
      return sky.coverage.heard(s.lat, s.lon, s.alt);
    };
    const off = f.offBlock + f.plan.offAt;
    const on = f.offBlock + f.plan.onAt;
    // the truth is kept by the day of touch-down (the log files a leg by its first point; the checks match across days)
    if (on >= dayStart && on < dayEnd) {
      truth.push({
        hex: af.hex,
        callsign: f.callsign,
        org: f.org.ident,
        dst: f.dst.ident,
        off,
        on,
        heardOrg: heardAtGround(f.plan.offAt - 10),
        heardDst: heardAtGround(f.plan.onAt + 10),
      });
    }
    const written = flightRows(sky, f, dayStart, dayEnd, rows);
    if (sky.faultsOn) {
      const floor = (ident: string) => coverageFloorFt(sky.seed, ident, sky.world.byIdent.get(ident)?.kind ?? '', sky.faults);
      for (const e of flightTruth(f, sky.traits[af.index]!, traitsOfFlight(sky, f), written, floor)) if (e.t >= dayStart && e.t < dayEnd) events.push(e);
    }
  }
  return { rows, truth, events };
}

/** the trace_full text of one address for a day: the header of the airframe it belongs to, the rows in time order */
function traceText(sky: Sky, hex: string, af: Airframe, rows: [number, string][], dayStart: number): string {
  const head = [`{"icao":"${hex}",`];
  // a TIS-B address has no registry entry behind it
  const known = !hex.startsWith('~');
  if (af.reg && known) head.push(`"r":"${af.reg}",`);
  if (known) head.push(`"t":"${af.perf.type}",`);
  head.push(`"dbFlags":0,`);
  if (known) head.push(`"desc":"${af.perf.desc.toUpperCase()}",`);
  if (af.ownOp && known) head.push(`"ownOp":${JSON.stringify(af.ownOp)},`);
  if (af.year && known) head.push(`"year":"${af.year}",`);
  head.push(`"timestamp": ${fixed(dayStart, 3)},`, `"trace":[ `);
  return `${head.join('\n')}\n${rows.map((r) => r[1]).join(',\n')} ]\n }\n`;
}

/** one UTC day of the sky: trace texts by the address heard, the legs flown and the events with their fault classes */
export function historyDay(sky: Sky, dayStart: number): { traces: { hex: string; text: string }[]; truth: TruthLeg[]; events: TruthEvent[] } {
  const byHex = new Map<string, { af: Airframe; rows: [number, string][]; events: TruthEvent[]; airframes: number }>();
  const truth: TruthLeg[] = [];
  const events: TruthEvent[] = [];
  for (const af of sky.fleet) {
    const d = airframeDay(sky, af, dayStart);
    for (const t of d.truth) truth.push(t);
    if (d.rows.length === 0 && d.events.length === 0) continue;
    const hex = sky.traits[af.index]!.outHex;
    const g = byHex.get(hex);
    if (!g) byHex.set(hex, { af, rows: d.rows, events: d.events, airframes: 1 });
    else {
      // readsb files whatever it hears under the address: two airframes' rows, merged in time order
      if (af.hex === hex) g.af = af;
      g.rows = g.rows.concat(d.rows).sort((a, b) => a[0] - b[0]);
      g.events.push(...d.events);
      g.airframes++;
    }
  }
  const traces: { hex: string; text: string }[] = [];
  for (const [hex, g] of byHex) {
    if (g.airframes > 1) for (const e of g.events) if (!e.classes.includes('dup-hex')) e.classes.push('dup-hex');
    events.push(...g.events);
    if (g.rows.length) traces.push({ hex, text: traceText(sky, hex, g.af, g.rows, dayStart) });
  }
  return { traces, truth, events: events.sort((a, b) => a.t - b.t || (a.hex < b.hex ? -1 : 1)) };
}

/** one flight's rows within the day, appended to `rows`; what was written of it, for the truth */
function flightRows(sky: Sky, f: Flight, dayStart: number, dayEnd: number, rows: [number, string][]): Written[] {
  const written: Written[] = [];
  let dt = 0;
  let first = true;
  let n = 0;
  // unit(seed, hex, offBlock, dt) continued from the flight's part (lib/random.ts hashOn)
  const jitterHash = hashOn(hashOn(hashOn(HASH_START, sky.seed), f.af.hex), f.offBlock);
  while (dt <= f.plan.duration) {
    const s = stateAt(f.plan, dt)!;
    const t = f.offBlock + dt + unitOf(hashOn(jitterHash, dt)) * 0.9;
    const step = sky.faultsOn && sky.faults.denseTrace ? denseStep(f, s) : sampleStep(s.alt, s.rate);
    // the state at dt, written at t (readsb's row times jitter by under a second)
    const o = t >= dayStart && t < dayEnd ? observe(sky, f, dt, s) : null;
    if (o) {
      const ground = o.alt === 'ground';
      const em = f.emergency && t >= f.emergency.at ? f.emergency : null;
      const airAlt = typeof o.alt === 'number' ? o.alt : null;
      // details every ~10 rows and on a leg's first row, as readsb does
      const details =
        first || n % 10 === 0
          ? JSON.stringify({
              type: o.source,
              flight: o.callsign.padEnd(8, ' '),
              ...(ground ? {} : { ...(airAlt !== null ? { alt_geom: airAlt + 250 } : {}), track: o.track, baro_rate: o.rate }),
              squawk: em?.squawk ?? f.squawk,
              emergency: em?.kind ?? 'none',
              category: f.af.perf.category,
              nic: 8,
              rc: 186,
              version: 2,
              nac_p: 9,
              sil: 3,
              sil_type: 'perhour',
            })
          : 'null';
      // flags: bit 1 = a new leg starts here (readsb's guess; the detector makes its own)
      const flags = first ? 2 : 0;
      const alt = ground ? '"ground"' : airAlt === null ? 'null' : String(airAlt);
      const track = ground ? 'null' : fixed(o.track, 1);
      const geom = ground || airAlt === null ? 'null' : String(airAlt + 250);
      rows.push([
        t,
        `[${fixed(t - dayStart, 2)},${fixed(r(o.lat, 6), 6)},${fixed(r(o.lon, 6), 6)},${alt},${fixed(o.gs, 1)},${track},${flags},${ground ? 0 : o.rate},${details},"${o.source}",${geom},null,null,null]`,
      ]);
      written.push({ t, agl: o.agl, glitch: o.glitch });
      first = false;
      n++;
    }
    if (dt === f.plan.duration) break;
    dt = Math.min(f.plan.duration, dt + step);
  }
  return written;
}

/** path of one trace file inside a globe_history root */
function tracePath(root: string, day: string, hex: string): string {
  return join(root, day.slice(0, 4), day.slice(5, 7), day.slice(8, 10), 'traces', hex.slice(-2), `trace_full_${hex}.json`);
}

export interface HistoryResult {
  days: string[];
  files: number;
  truth: TruthLeg[];
  events: number;
}

/** the truth file of a day (sim/truth.ts), beside its traces/ folder */
export const truthPath = (root: string, day: string) => join(root, day.slice(0, 4), day.slice(5, 7), day.slice(8, 10), 'sim_truth.jsonl');

/** Writes `days` UTC days starting at `firstDay` (YYYY-MM-DD), and each day's truth file when faults are on. */
export function writeHistory(sky: Sky, root: string, firstDay: string, days: number, onDay: (day: string, files: number) => void = () => {}): HistoryResult {
  const result: HistoryResult = { days: [], files: 0, truth: [], events: 0 };
  const start = Date.parse(`${firstDay}T00:00:00Z`) / 1000;
  for (let d = 0; d < days; d++) {
    const dayStart = start + d * 86400;
    const day = new Date(dayStart * 1000).toISOString().slice(0, 10);
    const h = historyDay(sky, dayStart);
    for (const t of h.truth) result.truth.push(t);
    for (const { hex, text } of h.traces) {
      const path = tracePath(root, day, hex);
      mkdirSync(join(path, '..'), { recursive: true });
      writeFileSync(`${path}.tmp`, gzipSync(text, TRACE_GZIP));
      renameSync(`${path}.tmp`, path);
    }
    mkdirSync(join(root, day.slice(0, 4), day.slice(5, 7), day.slice(8, 10), 'traces'), { recursive: true });
    if (sky.faultsOn) {
      const path = truthPath(root, day);
      writeFileSync(`${path}.tmp`, h.events.map((e) => JSON.stringify(e)).join('\n') + (h.events.length ? '\n' : ''));
      renameSync(`${path}.tmp`, path);
      result.events += h.events.length;
    }
    result.days.push(day);
    result.files += h.traces.length;
    onDay(day, h.traces.length);
  }
  return result;
}
