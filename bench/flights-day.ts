// benchmark (run by hand, never a test): the flights and movements steps on the seeded global day
// (issue 44 item 7), beside the floor of writing the same documents' bytes, measured in the same run.
//
//   node --import tsx bench/flights-day.ts [--aircraft 12000] [--seed 1] [--out DIR] [--keep-out]
//
// --aircraft N: about N airborne at a busy hour, as `sim history --aircraft N`: 12,000 is the
// simulator's global day (~122,000 flights; 1,000 for a quick run). the fast log (sim/log.ts, with
// tracks) writes three days; legs a day scale as 122,000/12,000 per N, airframes as
// FLEET_PER_AIRBORNE per N, but at least half the legs: the fast log flies an airframe at most one
// out-and-back a day, so the global day has more (and smaller) airframe-days than the trace path's.
//
// night 1 (the real nightly, runNightly, --skip-log) builds the first two days fresh; then the third
// day is added to the log and night 2 builds the increment: its flights and movements must write
// the new day and the day before (flights that crossed midnight) and keep the first day's objects
// as they are. printed: the documents and bytes (raw JSON and gzipped) a day, wall and CPU (the whole
// process: DuckDB and the write pool's threads too) of each step each night, the floor (the
// objects of the days night 2 built, gunzipped in memory first, then one loop of zlib.gzipSync + writeFileSync)
// and the ratio; how many of the first day's objects night 2 wrote (by the steps' counts and by
// inode: a kept object is the previous version's file), and the publish lines (what was linked).
// machine, node, load and commit head the output.
import './help.ts';
import { execSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { flag, numberFlag } from './flags.ts';
import { parseConfig } from '../lib/cli.ts';
import { NIGHTLY_SPECS } from '../build/nightly-config.ts';
import { runNightly } from '../build/nightly.ts';
import { consoleProgress, type Progress } from '../build/progress.ts';
import { currentVersion } from '../artifacts/tree.ts';
import { loadWorld } from '../sim/world.ts';
import { writeFastLog } from '../sim/log.ts';
import { FLEET_PER_AIRBORNE } from '../sim/sky.ts';

const AIRCRAFT = numberFlag('aircraft', 12000);
const SEED = numberFlag('seed', 1);
const LEGS = Math.round((AIRCRAFT * 122000) / 12000);
const AIRFRAMES = Math.max(Math.ceil(AIRCRAFT * FLEET_PER_AIRBORNE), Math.ceil(LEGS / 2));
const DAYS = ['2025-06-01', '2025-06-02', '2025-06-03'];
const root = flag('out', '') || mkdtempSync(join(tmpdir(), 'contrail-flights-day-'));
const log = join(root, 'log');
const artifacts = join(root, 'artifacts');
const console_ = consoleProgress(process.stderr, 15000);

const commit = (() => {
  try {
    return execSync('git rev-parse --short HEAD', { encoding: 'utf8' }).trim();
  } catch {
    return 'unknown';
  }
})();
console.log(
  `machine: ${cpus()[0]?.model ?? '?'} x${cpus().length}, node ${process.version}, load ${loadavg()
    .map((x) => x.toFixed(1))
    .join(' ')}, commit ${commit}`,
);
console.log(`input: --aircraft ${AIRCRAFT}: ${LEGS} legs a day over ${AIRFRAMES} airframes, seed ${SEED}, days ${DAYS.join(', ')}; work in ${root}`);

const cpuS = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};

// the log: days 1-2 in place, day 3 beside it until night 2
const world = loadWorld({ ref: 'data/ref', routeRows: 0 });
const sim = { seed: SEED, legsPerDay: LEGS, airframes: AIRFRAMES, threads: 2 };
const logDay = (d: string, n: number) => console.error(`fast log: ${d}: ${n} legs`);
let t = Date.now();
const two = await writeFastLog(world, { ...sim, out: log, start: DAYS[0]!, days: 2 }, logDay);
const third = await writeFastLog(world, { ...sim, out: join(root, 'later'), start: DAYS[2]!, days: 1 }, logDay);
console.log(`fast log: ${two.legs + third.legs} legs, ${two.points + third.points} track points in ${((Date.now() - t) / 1000).toFixed(0)} s`);

/** wall and CPU of each step a night names through its progress (the flights step starts 'flights: ...') */
interface Span {
  step: string;
  wallS: number;
  cpuS: number;
  summary: string;
}
async function night(nowMs: number): Promise<{ spans: Span[]; said: string[]; counts: Record<string, number>; wallS: number; cpuS: number }> {
  const spans: Span[] = [];
  const said: string[] = [];
  let open: { step: string; t: number; cpu: number } | null = null;
  const progress: Progress = {
    start: (step, total) => {
      open = { step, t: Date.now(), cpu: cpuS() };
      console_.start(step, total);
    },
    tick: (n) => console_.tick(n),
    done: (summary) => {
      if (open) spans.push({ step: open.step, wallS: (Date.now() - open.t) / 1000, cpuS: cpuS() - open.cpu, summary });
      open = null;
      console_.done(summary);
    },
  };
  const c = parseConfig(NIGHTLY_SPECS, ['--log', log, '--artifacts', artifacts, '--bundles', '', '--no-accuracy', '--skip-log'], {}).config;
  const [t0, c0] = [Date.now(), cpuS()];
  const r = await runNightly(c, progress, (line) => void said.push(line), nowMs);
  return { spans, said, counts: r.counts, wallS: (Date.now() - t0) / 1000, cpuS: cpuS() - c0 };
}

/** every flights and movements object of a version's days: key -> file */
function dayObjects(dir: string): Map<string, { kind: 'flights' | 'movements'; day: string; file: string }> {
  const out = new Map<string, { kind: 'flights' | 'movements'; day: string; file: string }>();
  const list = (d: string) => {
    try {
      return readdirSync(d);
    } catch {
      return [];
    }
  };
  for (const hex of list(join(dir, 'v1/flights')))
    for (const f of list(join(dir, 'v1/flights', hex)))
      out.set(`v1/flights/${hex}/${f.slice(0, -3)}`, { kind: 'flights', day: f.slice(0, -3), file: join(dir, 'v1/flights', hex, f) });
  for (const code of list(join(dir, 'v1/airports')))
    for (const f of list(join(dir, 'v1/airports', code, 'movements')))
      out.set(`v1/airports/${code}/movements/${f.slice(0, -3)}`, {
        kind: 'movements',
        day: f.slice(0, -3),
        file: join(dir, 'v1/airports', code, 'movements', f),
      });
  return out;
}

const steps = (s: Span[]) => s.filter((x) => x.step.startsWith('flights') || x.step.startsWith('movements'));
const show = (name: string, n: Awaited<ReturnType<typeof night>>) => {
  console.log(`${name}: the whole night ${n.wallS.toFixed(1)} s wall, ${n.cpuS.toFixed(1)} s CPU`);
  for (const s of steps(n.spans)) console.log(`  ${s.step}: ${s.wallS.toFixed(1)} s wall, ${s.cpuS.toFixed(1)} s CPU (${s.summary})`);
  for (const l of n.said.filter((l) => /hard-link|taken over|published build/.test(l))) console.log(`  ${l}`);
};

const n1 = await night(Date.UTC(2025, 5, 3, 3));
show('night 1 (days 1-2, fresh)', n1);
const v1 = currentVersion(artifacts)!;
const before = dayObjects(v1.dir);
const ino1 = new Map([...before].map(([k, o]) => [k, statSync(o.file).ino]));

renameSync(join(root, 'later', `day=${DAYS[2]}`), join(log, `day=${DAYS[2]}`));
const n2 = await night(Date.UTC(2025, 5, 4, 3));
show('night 2 (adds day 3)', n2);
const v2 = currentVersion(artifacts)!;
const after = dayObjects(v2.dir);

// documents and bytes a day, and which of them night 2 wrote (a new inode) or kept (night 1's file)
interface Tally {
  docs: number;
  raw: number;
  gz: number;
  rewritten: number;
}
const tally = new Map<string, Tally>();
const c2 = n2.counts;
// the floor writes what the steps built: the days they rebuilt (every day of a kind that kept nothing)
const builtAll = { flights: (c2['flights.kept'] ?? 0) === 0, movements: (c2['movements.kept'] ?? 0) === 0 };
const built: string[] = [];
for (const [k, o] of after) {
  const id = `${o.kind} ${o.day}`;
  const x = tally.get(id) ?? { docs: 0, raw: 0, gz: 0, rewritten: 0 };
  tally.set(id, x);
  const st = statSync(o.file);
  x.docs++;
  x.gz += st.size;
  x.raw += gunzipSync(readFileSync(o.file)).length;
  if (ino1.get(k) !== st.ino) x.rewritten++;
  if (o.day !== DAYS[0] || builtAll[o.kind]) built.push(k);
}
console.log('documents a day in version 2 (movements: the IATA and the ICAO spelling both counted):');
// the floor: the documents night 2 built, gunzipped first (not timed), then gzipSync + writeFileSync, a batch at a time
const floorDir = join(root, 'floor');
let [floorWall, floorCpu, floorRaw, floorGz] = [0, 0, 0, 0];
const dirs = new Set<string>();
for (let i = 0; i < built.length; i += 2000) {
  const batch = built.slice(i, i + 2000).map((k) => ({ k, raw: gunzipSync(readFileSync(after.get(k)!.file)) }));
  const [w0, c0] = [Date.now(), cpuS()];
  for (const b of batch) {
    const path = join(floorDir, `${b.k}.gz`);
    const d = path.slice(0, path.lastIndexOf('/'));
    if (!dirs.has(d)) mkdirSync(d, { recursive: true }), dirs.add(d);
    const gz = gzipSync(b.raw);
    writeFileSync(path, gz);
    floorRaw += b.raw.length;
    floorGz += gz.length;
  }
  floorWall += (Date.now() - w0) / 1000;
  floorCpu += cpuS() - c0;
}
for (const [id, x] of [...tally].sort()) {
  console.log(
    `  ${id}: ${x.docs} documents, ${(x.raw / 1e6).toFixed(1)} MB raw, ${(x.gz / 1e6).toFixed(1)} MB gzipped; changed by night 2 (a new file): ${x.rewritten}`,
  );
}
console.log(
  `night 2's counts: flights ${c2['flights.documents'] ?? 0} written, ${c2['flights.kept'] ?? 0} kept; movements ${c2['movements.documents'] ?? 0} written, ${c2['movements.kept'] ?? 0} kept`,
);
const closed = [...tally].filter(([id]) => id.endsWith(DAYS[0]!)).reduce((n, [, x]) => n + x.rewritten, 0);
console.log(`closed day ${DAYS[0]}: ${closed} of its objects changed by night 2 (must be 0: a closed day is frozen, docs/api.md)`);
const stepWall = steps(n2.spans).reduce((s, x) => s + x.wallS, 0);
const stepCpu = steps(n2.spans).reduce((s, x) => s + x.cpuS, 0);
console.log(
  `floor (the ${built.length} objects of the days night 2 built, ${(floorRaw / 1e6).toFixed(1)} MB raw -> ${(floorGz / 1e6).toFixed(1)} MB, gzipSync + writeFileSync): ${floorWall.toFixed(1)} s wall, ${floorCpu.toFixed(1)} s CPU`,
);
console.log(
  `night 2's flights + movements steps: ${stepWall.toFixed(1)} s wall, ${stepCpu.toFixed(1)} s CPU; ratio to the floor ${(stepWall / floorWall).toFixed(2)}x wall, ${(stepCpu / floorCpu).toFixed(2)}x CPU`,
);
console.log(
  `load at the end ${loadavg()
    .map((x) => x.toFixed(1))
    .join(' ')}`,
);
if (!process.argv.includes('--keep-out')) rmSync(root, { recursive: true, force: true });
