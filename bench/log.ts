// benchmark (by hand, not a test): readsb globe_history traces -> Parquet flight log.
//   npx tsx bench/log.ts [--files 3000] [--days 2] [--runs 3]
// input: the 22 real sample traces and the real ac671b trace, replicated with new hexes and
// seeded time shifts into a generated tree under .bench/log (kept between runs).
import './help.ts';
import { mulberry32 } from '../lib/random.ts';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { performance } from 'node:perf_hooks';
import { buildLog } from '../build/log/build.ts';
import { loadAirfieldRows } from '../lib/reference/fields.ts';
import { airfieldTables, logAirfields } from '../build/log/airfields.ts';
import { addDays } from '../build/history/scan.ts';
import { numberFlag } from './flags.ts';

const FILES = numberFlag('files', 3000);
const DAYS = numberFlag('days', 2);
const RUNS = numberFlag('runs', 3);
const ROOT = join(import.meta.dirname, '..');
const BENCH = join(ROOT, '.bench', 'log');
const FIRST_DAY = '2025-03-01';

const rng = mulberry32;

type Doc = { icao: string; timestamp: number; trace: unknown[][] } & Record<string, unknown>;

function sources(): Doc[] {
  const fx = join(ROOT, 'test', 'fixtures', 'traffic');
  const docs: Doc[] = [JSON.parse(gunzipSync(readFileSync(join(fx, 'trace_full_ac671b.json.gz'))).toString('utf8'))];
  const day = join(ROOT, 'data', 'sample', 'globe_history', '2023', '08', '30', 'traces');
  for (const sub of readdirSync(day)) {
    for (const f of readdirSync(join(day, sub))) docs.push(JSON.parse(gunzipSync(readFileSync(join(day, sub, f))).toString('utf8')));
  }
  return docs;
}

/** one file per (day, airframe): a source trace moved onto that day, keeping its time of day */
function generate(root: string): { files: number; bytes: number } {
  const docs = sources();
  const rand = rng(42);
  let files = 0;
  let bytes = 0;
  for (let d = 0; d < DAYS; d++) {
    const day = addDays(FIRST_DAY, d);
    const midnight = Date.parse(`${day}T00:00:00Z`) / 1000;
    for (let i = 0; i < FILES; i++) {
      const src = docs[Math.floor(rand() * docs.length)]!;
      const hex = (0xa00000 + i).toString(16);
      const t0 = src.timestamp + (src.trace[0]![0] as number);
      // same time of day, on this day, shifted up to +-30 min
      const base = midnight + (t0 % 86400) + Math.round((rand() - 0.5) * 3600);
      const doc = { ...src, icao: hex, timestamp: base, trace: src.trace.map((r) => [(r[0] as number) - (src.trace[0]![0] as number), ...r.slice(1)]) };
      const dir = join(root, day.slice(0, 4), day.slice(5, 7), day.slice(8, 10), 'traces', hex.slice(-2));
      mkdirSync(dir, { recursive: true });
      const gz = gzipSync(JSON.stringify(doc));
      writeFileSync(join(dir, `trace_full_${hex}.json`), gz);
      files++;
      bytes += gz.length;
    }
  }
  return { files, bytes };
}

const history = join(BENCH, `history-${FILES}x${DAYS}`);
if (!existsSync(history)) {
  const g = generate(history);
  console.log(`generated ${g.files} files (${(g.bytes / 1e6).toFixed(1)} MB gzip) in ${history}`);
}
const rows = loadAirfieldRows(join(ROOT, 'data', 'ref'));
const airfields = logAirfields(airfieldTables(rows.airports, rows.runways, rows.types));
const times: number[] = [];
let last = { files: 0, legs: 0 };
for (let r = 0; r <= RUNS; r++) {
  const log = join(BENCH, 'out');
  rmSync(log, { recursive: true, force: true });
  const t = performance.now();
  const res = await buildLog({ history, log, select: { all: true }, ...airfields, threads: 2, onSkip: () => {} });
  const s = (performance.now() - t) / 1000;
  if (r > 0) times.push(s); // run 0 warms up
  last = res;
}
times.sort((a, b) => a - b);
const med = times[Math.floor(times.length / 2)]!;
const min = times[0]!;
console.log(`node ${process.version}, ${FILES} files x ${DAYS} days, ${last.legs} legs`);
console.log(`min ${min.toFixed(2)} s, median ${med.toFixed(2)} s`);
console.log(`files/s ${(last.files / med).toFixed(0)} (median), legs/s ${(last.legs / med).toFixed(0)}`);
console.log(`peak rss ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`);
