// benchmark (by hand, not a test): the log step on a night of readsb globe_history, against its floor.
//   npx tsx bench/log-day.ts [--aircraft 12000] [--history <globe_history>] [--workers N] [--serial 1] [--keep]
// without --history it writes the seeded global day (sim/cli.ts history --days 1 --aircraft N --start
// 2025-06-02, seed 1) under the OS temp folder, and deletes it at the end unless --keep (a kept day
// is used again by the next run with the same --aircraft). then, on the newest day of the tree:
// - floor: the same files read, gunzipped and JSON.parse'd on --workers threads (the simplest code:
//   readFileSync, gunzipSync, JSON.parse; files dealt round-robin), before and after the log step;
// - log: the log command (build/log/cli.ts --workers N) as a child process, its wall time, the
//   time of its cut (its own progress line), its CPU time and peak RSS (process.resourceUsage, all threads);
// - with --serial 1 (the default) the same command with --workers 0 (the in-thread path), whose
//   legs must equal the workers' (a digest of every row, and the Parquet bytes).
// prints the machine, Node, the load average around each figure, both figures and their ratio, by
// the wall clock and by CPU time (on a shared machine a session gets its share of the cores however
// many threads it runs: the CPU ratio is the work's, the wall ratio what this run was given).
// targets (issue 45): log step <= 2x the floor, peak RSS <= 2 GB.
import './help.ts';
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { listDay, listDays } from '../build/history/scan.ts';
import { defaultLogWorkers } from '../build/log/leg-pool.ts';
import { openLog } from '../build/log/read.ts';
import { dayFile } from '../build/log/write.ts';
import { consoleProgress } from '../build/progress.ts';
import { flag, numberFlag } from './flags.ts';

const ROOT = join(import.meta.dirname, '..');
const AIRCRAFT = numberFlag('aircraft', 12000);
const WORKERS = numberFlag('workers', defaultLogWorkers());
const SERIAL = numberFlag('serial', 1) === 1;
const KEEP = process.argv.includes('--keep');
const START = '2025-06-02';
const given = flag('history', '');
const history = given || join(tmpdir(), `contrail-log-day-${AIRCRAFT}`);

const progress = consoleProgress();
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
const say = (s: string) => console.log(s);

if (!given && !existsSync(join(history, ...START.split('-')))) {
  say(`writing the seeded day (${AIRCRAFT} aircraft) into ${history} ...`);
  const r = spawnSync(
    process.execPath,
    ['--import', 'tsx', 'sim/cli.ts', 'history', '--days', '1', '--aircraft', String(AIRCRAFT), '--start', START, '--out', history],
    { cwd: ROOT, stdio: 'inherit' },
  );
  if (r.status !== 0) throw new Error(`sim/cli.ts history failed (${r.status})`);
}
const days = await listDays(history);
if (!days.length) throw new Error(`${history}: no YYYY/MM/DD/traces day in it`);
const day = days[days.length - 1]!;
// the log step reads the day before too when the tree has it (the legs open at its midnight): the cut alone is then the fair figure
if (days.length > 1) say(`note: ${history} holds ${days.length} days; the log step builds ${day} and reads the day before it for the carry`);
const files = (await listDay(history, day)).files.map((f) => f.path);
const gz = files.reduce((n, f) => n + statSync(f).size, 0);
say(`${cpus().length} x ${cpus()[0]?.model ?? '?'}, ${(totalmem() / 2 ** 30).toFixed(0)} GB; node ${process.version}; ${WORKERS} workers`);
say(`day ${day} of ${history}: ${files.length} trace files, ${(gz / 1e6).toFixed(0)} MB gzipped`);

// the floor's worker: its share of the files, read, gunzipped, parsed; the row count is the sink
const FLOOR = `
const { parentPort, workerData } = require('node:worker_threads');
const { readFileSync } = require('node:fs');
const { gunzipSync } = require('node:zlib');
let rows = 0, bytes = 0, n = 0;
for (const f of workerData) {
  if (++n % 256 === 0) parentPort.postMessage({ tick: 256 });
  const raw = readFileSync(f);
  const text = (raw[0] === 0x1f && raw[1] === 0x8b ? gunzipSync(raw) : raw).toString('utf8');
  bytes += text.length;
  rows += JSON.parse(text).trace.length;
}
parentPort.postMessage({ rows, bytes });`;

interface Timed {
  wall: number;
  cpu: number;
}

async function floor(label: string): Promise<Timed> {
  const before = load();
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  const shares = Array.from({ length: Math.max(1, WORKERS) }, (_, k) => files.filter((_, i) => i % Math.max(1, WORKERS) === k));
  progress.start(`floor (${label})`, files.length);
  const out = await Promise.all(
    shares.map(
      (share) =>
        new Promise<{ rows: number; bytes: number }>((resolve, reject) => {
          const w = new Worker(FLOOR, { eval: true, workerData: share });
          w.on('message', (m: { tick: number } | { rows: number; bytes: number }) => ('tick' in m ? progress.tick(m.tick) : resolve(m)));
          w.once('error', reject);
        }),
    ),
  );
  progress.done(`${files.length} files`);
  const s = (performance.now() - t0) / 1000;
  const c = process.cpuUsage(c0);
  const cpu = (c.user + c.system) / 1e6;
  const rows = out.reduce((n, o) => n + o.rows, 0);
  const json = out.reduce((n, o) => n + o.bytes, 0);
  say(
    `floor (${label}): ${s.toFixed(1)} s on ${Math.max(1, WORKERS)} threads (${cpu.toFixed(1)} s of CPU), ${(files.length / s).toFixed(0)} files a second, ${(json / 1e9).toFixed(2)} GB of JSON, ${(rows / 1e6).toFixed(1)} M rows; load ${before} -> ${load()}`,
  );
  return { wall: s, cpu };
}

interface LogRun {
  wall: number;
  cpu: number;
  cut: number;
  rssGb: number;
  summary: string;
}

/** the log command as a child; its peak RSS is printed by a preload at exit */
function logStep(workers: number, out: string): Promise<LogRun> {
  const before = load();
  const atExit = `data:text/javascript,process.on('exit',()=>{const u=process.resourceUsage();process.stderr.write('maxrss '+u.maxRSS+' cpu '+(u.userCPUTime+u.systemCPUTime)+'\\n')})`;
  const args = [
    '--import',
    'tsx',
    '--import',
    atExit,
    'build/log/cli.ts',
    '--history',
    history,
    '--log',
    out,
    '--from',
    day,
    '--to',
    day,
    '--workers',
    String(workers),
  ];
  const t0 = performance.now();
  const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'inherit', 'pipe'] });
  let err = '';
  child.stderr.on('data', (b: Buffer) => {
    err += b.toString();
    process.stderr.write(b);
  });
  return new Promise((resolve, reject) =>
    child.on('close', (code) => {
      const wall = (performance.now() - t0) / 1000;
      if (code !== 0) return reject(new Error(`build/log/cli.ts exited ${code}`));
      const cut = Number(/^legs \S+: .* in ([\d.]+) s$/m.exec(err)?.[1] ?? NaN);
      const usage = /^maxrss (\d+) cpu (\d+)$/m.exec(err);
      const rss = Number(usage?.[1] ?? NaN) * 1024;
      const cpu = Number(usage?.[2] ?? NaN) / 1e6;
      const summary = /^log: .*$/m.exec(err)?.[0] ?? '';
      say(
        `log (--workers ${workers}): ${wall.toFixed(1)} s for the command (${cpu.toFixed(1)} s of CPU; the cut ${cut.toFixed(1)} s, ${(files.length / cut).toFixed(0)} files a second), peak RSS ${(rss / 2 ** 30).toFixed(2)} GB; load ${before} -> ${load()}`,
      );
      resolve({ wall, cpu, cut, rssGb: rss / 2 ** 30, summary });
    }),
  );
}

/** sha256 over every leg of the day's file, in a total order of all columns, and the rows counted */
async function digest(log: string): Promise<{ sha: string; rows: number; bytes: string }> {
  const l = await openLog(log, { threads: 2 });
  try {
    const rows = await l.rows('SELECT * EXCLUDE (day) FROM legs ORDER BY ALL');
    const h = createHash('sha256');
    for (const r of rows) h.update(JSON.stringify(r)).update('\n');
    return {
      sha: h.digest('hex').slice(0, 16),
      rows: rows.length,
      bytes: createHash('sha256')
        .update(readFileSync(dayFile(log, day)))
        .digest('hex')
        .slice(0, 16),
    };
  } finally {
    l.close();
  }
}

const scratch = mkdtempSync(join(tmpdir(), 'contrail-log-day-out-'));
try {
  let t0 = performance.now();
  for (const f of files) readFileSync(f); // the page cache holds the day for every run below
  say(`warm-up read: ${((performance.now() - t0) / 1000).toFixed(1)} s; load ${load()}`);
  const f1 = await floor('before');
  const run = await logStep(WORKERS, join(scratch, 'workers'));
  const f2 = await floor('after');
  const fl = (f1.wall + f2.wall) / 2;
  const flCpu = (f1.cpu + f2.cpu) / 2;
  const dw = await digest(join(scratch, 'workers'));
  say(`legs (--workers ${WORKERS}): ${dw.rows} rows, digest ${dw.sha}, parquet sha256 ${dw.bytes}`);
  // CPU time as well as wall: on a shared machine the wall clock says how much of it this run was given
  say(
    `ratio log/floor: ${(run.wall / fl).toFixed(2)} by the wall clock (command), ${(run.cut / fl).toFixed(2)} (the cut alone), ${(run.cpu / flCpu).toFixed(2)} by CPU time (command); target <= 2; peak RSS ${run.rssGb.toFixed(2)} GB, target <= 2`,
  );
  if (SERIAL) {
    t0 = performance.now();
    const s = await logStep(0, join(scratch, 'serial'));
    const ds = await digest(join(scratch, 'serial'));
    say(`legs (--workers 0): ${ds.rows} rows, digest ${ds.sha}, parquet sha256 ${ds.bytes}`);
    say(
      `workers vs in-thread: ${(s.wall / run.wall).toFixed(2)}x as fast by the wall clock, ${(run.cpu / s.cpu).toFixed(2)}x the CPU time; legs ${ds.sha === dw.sha ? 'equal' : 'DIFFER'}, parquet bytes ${ds.bytes === dw.bytes ? 'equal' : 'differ'}`,
    );
    if (ds.sha !== dw.sha) process.exitCode = 1;
  }
  say(run.summary);
} finally {
  rmSync(scratch, { recursive: true, force: true });
  if (!given && !KEEP) rmSync(history, { recursive: true, force: true });
}
