// readsb globe_history days from the simulated sky: YYYY/MM/DD/traces/xx/trace_full_<hex>.json,
// gzip bytes under a .json name, laid out and formatted as readsb writes them (rows of
// [dt, lat, lon, alt|'ground', gs, track, flags, baro_rate, details|null, source, alt_geom,
// geom_rate, ias, roll], dt from the day's midnight). each file is written to a temporary name
// and renamed. the pure part (traceDay) also returns the ground truth of the day's flights.
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { stateAt } from './fly.ts';
import { unit } from '../lib/random.ts';
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
function sampleStep(alt: number | 'ground', rate: number): number {
  if (alt === 'ground') return 8;
  if (alt < 10000) return 20;
  return rate !== 0 ? 40 : 90;
}

const r = (x: number, d: number) => Math.round(x * 10 ** d) / 10 ** d;
const fixed = (x: number, d: number) => x.toFixed(d);

/** One airframe's trace_full text for the UTC day starting at dayStart (null when it was not heard), and its legs. */
function traceDay(sky: Sky, af: Airframe, dayStart: number): { text: string | null; truth: TruthLeg[] } {
  const dayEnd = dayStart + 86400;
  const rows: string[] = [];
  const truth: TruthLeg[] = [];
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
        hex: af.hex, callsign: f.callsign, org: f.org.ident, dst: f.dst.ident, off, on,
        heardOrg: heardAtGround(f.plan.offAt - 10), heardDst: heardAtGround(f.plan.onAt + 10),
      });
    }
    flightRows(sky, f, dayStart, dayEnd, rows);
  }
  if (rows.length === 0) return { text: null, truth };
  const head = [`{"icao":"${af.hex}",`];
  if (af.reg) head.push(`"r":"${af.reg}",`);
  head.push(`"t":"${af.perf.type}",`, `"dbFlags":0,`, `"desc":"${af.perf.desc.toUpperCase()}",`);
  if (af.ownOp) head.push(`"ownOp":${JSON.stringify(af.ownOp)},`);
  if (af.year) head.push(`"year":"${af.year}",`);
  head.push(`"timestamp": ${fixed(dayStart, 3)},`, `"trace":[ `);
  return { text: `${head.join('\n')}\n${rows.join(',\n')} ]\n }\n`, truth };
}

function flightRows(sky: Sky, f: Flight, dayStart: number, dayEnd: number, rows: string[]): void {
  let dt = 0;
  let first = true;
  let n = 0;
  while (dt <= f.plan.duration) {
    const s = stateAt(f.plan, dt)!;
    const t = f.offBlock + dt + unit(sky.seed, f.af.hex, f.offBlock, dt) * 0.9;
    const step = sampleStep(s.alt, s.rate);
    if (t >= dayStart && t < dayEnd && sky.coverage.heard(s.lat, s.lon, s.alt)) {
      const ground = s.alt === 'ground';
      const em = f.emergency && t >= f.emergency.at ? f.emergency : null;
      // details every ~10 rows and on a leg's first row, as readsb does
      const details = first || n % 10 === 0
        ? JSON.stringify({
          type: 'adsb_icao', flight: f.callsign.padEnd(8, ' '), ...(ground ? {} : { alt_geom: (s.alt as number) + 250, track: s.track, baro_rate: s.rate }),
          squawk: em?.squawk ?? f.squawk, emergency: em?.kind ?? 'none', category: f.af.perf.category, nic: 8, rc: 186, version: 2, nac_p: 9, sil: 3, sil_type: 'perhour',
        })
        : 'null';
      // flags: bit 1 = a new leg starts here (readsb's guess; the detector makes its own)
      const flags = first ? 2 : 0;
      const alt = ground ? '"ground"' : String(s.alt);
      const track = ground ? 'null' : fixed(s.track, 1);
      const geom = ground ? 'null' : String((s.alt as number) + 250);
      rows.push(`[${fixed(t - dayStart, 2)},${fixed(r(s.lat, 6), 6)},${fixed(r(s.lon, 6), 6)},${alt},${fixed(s.gs, 1)},${track},${flags},${ground ? 0 : s.rate},${details},"adsb_icao",${geom},null,null,null]`);
      first = false;
      n++;
    }
    if (dt === f.plan.duration) break;
    dt = Math.min(f.plan.duration, dt + step);
  }
}

/** path of one trace file inside a globe_history root */
function tracePath(root: string, day: string, hex: string): string {
  return join(root, day.slice(0, 4), day.slice(5, 7), day.slice(8, 10), 'traces', hex.slice(-2), `trace_full_${hex}.json`);
}

export interface HistoryResult { days: string[]; files: number; truth: TruthLeg[] }

/** Writes `days` UTC days starting at `firstDay` (YYYY-MM-DD). */
export function writeHistory(sky: Sky, root: string, firstDay: string, days: number, onDay: (day: string, files: number) => void = () => {}): HistoryResult {
  const result: HistoryResult = { days: [], files: 0, truth: [] };
  const start = Date.parse(`${firstDay}T00:00:00Z`) / 1000;
  for (let d = 0; d < days; d++) {
    const dayStart = start + d * 86400;
    const day = new Date(dayStart * 1000).toISOString().slice(0, 10);
    let files = 0;
    for (const af of sky.fleet) {
      const { text, truth } = traceDay(sky, af, dayStart);
      for (const t of truth) result.truth.push(t);
      if (text === null) continue;
      const path = tracePath(root, day, af.hex);
      mkdirSync(join(path, '..'), { recursive: true });
      writeFileSync(`${path}.tmp`, gzipSync(text));
      renameSync(`${path}.tmp`, path);
      files++;
    }
    mkdirSync(join(root, day.slice(0, 4), day.slice(5, 7), day.slice(8, 10), 'traces'), { recursive: true });
    result.days.push(day);
    result.files += files;
    onDay(day, files);
  }
  return result;
}
