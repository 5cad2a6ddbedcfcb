// benchmark, run by hand: how long the live server's serving thread stalls while it takes a new
// 12k-aircraft snapshot every second, as the server itself measures it (perf_hooks
// monitorEventLoopDelay, sampled every 1 ms, reported in /metrics as contrail_event_loop_stall_seconds
// per 5 s window). --root with an older checkout needs that metric: commits from 2026-11-25 on.
//   npx tsx bench/stall.ts [--seconds 40] [--root <another checkout>] [--wrk] [--server-args "A B"] [--node-args "A B"]
// --root runs another checkout's server on the same feed (e.g. a worktree of an older commit);
// --wrk loads it meanwhile with `wrk -t2 -c64` on /v2/point/50/8.5/25 (wrk's p99 is printed too).
// beside it runs a bare Node process that does nothing but measure its own event-loop delay the same
// way: the machine's floor, what the OS scheduler alone costs a thread that never works (the machine
// is shared; a server's stall can be no lower than this floor, whatever the server does).
import { spawn, execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir, loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { flag, numberFlag } from './flags.ts';

if (process.argv.includes('--help')) {
  console.log(
    'Usage: npx tsx bench/stall.ts [--seconds 40] [--root DIR] [--wrk] [--port 8047] [--server-args "A B"] [--node-args "A B"]\n\nThe serving thread\'s event-loop stalls while a 12k snapshot arrives every second.\n--server-args: extra server flags (e.g. "--serve-threads 2"); --node-args: extra node flags (e.g. "--trace-gc").',
  );
  process.exit(0);
}
const SECONDS = numberFlag('seconds', 40);
const ROOT = resolve(flag('root', new URL('..', import.meta.url).pathname));
const PORT = numberFlag('port', 8047);
const WRK = process.argv.includes('--wrk');
const words = (name: string) => flag(name, '').split(/\s+/).filter(Boolean);

const raw = JSON.parse(gunzipSync(readFileSync(new URL('./data/readsb_aircraft_12k.json.gz', import.meta.url))).toString());
const dir = mkdtempSync(join(tmpdir(), 'contrail-stall-'));
const feed = join(dir, 'aircraft.json');
let tick = 0;
const writeFeed = () => {
  raw.now = Date.now() / 1000;
  // every aircraft moves a little each second, as a real sky does: the trace store takes points
  tick++;
  for (const a of raw.aircraft) if (typeof a.lat === 'number') a.lat += tick % 2 ? 0.001 : -0.0009;
  writeFileSync(`${feed}.tmp`, JSON.stringify(raw));
  renameSync(`${feed}.tmp`, feed);
};

const get = (path: string): Promise<{ status: number; text: string }> =>
  new Promise((ok, fail) => {
    const req = request(`http://127.0.0.1:${PORT}${path}`, { agent: false }, (res) => {
      let text = '';
      res.on('data', (c) => (text += c));
      res.on('end', () => ok({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', fail);
    req.end();
  });

writeFeed();
const child = spawn(
  'node',
  [
    ...words('node-args'),
    '--import',
    'tsx',
    join(ROOT, 'server/main.ts'),
    '--host',
    '127.0.0.1',
    '--port',
    String(PORT),
    '--feed',
    feed,
    '--no-rate-limits',
    ...words('server-args'),
  ],
  { cwd: ROOT, stdio: ['ignore', process.argv.includes('--node-args') ? 'inherit' : 'ignore', 'inherit'] },
);
const refresher = setInterval(writeFeed, 1000);
// the floor: an idle process's own event-loop delay per 5 s window, one JSON line per window
const FLOOR = `const h = require('node:perf_hooks').monitorEventLoopDelay({ resolution: 1 }); h.enable();
setInterval(() => { console.log(JSON.stringify({ max: h.max / 1e6, p99: h.percentile(99) / 1e6 })); h.reset(); }, 5000);`;
const floor = spawn('node', ['-e', FLOOR], { stdio: ['ignore', 'pipe', 'inherit'] });
const floorWindows: { max: number; p99: number }[] = [];
let floorOn = false;
let floorText = '';
floor.stdout.setEncoding('utf8').on('data', (c: string) => {
  floorText += c;
  for (let nl = floorText.indexOf('\n'); nl >= 0; nl = floorText.indexOf('\n')) {
    const line = floorText.slice(0, nl);
    floorText = floorText.slice(nl + 1);
    if (floorOn) floorWindows.push(JSON.parse(line) as { max: number; p99: number });
  }
});
try {
  for (let i = 0; ; i++) {
    if (i > 300 || child.exitCode !== null) throw new Error('the server did not come up');
    if ((await get('/v1/now').catch(() => ({ status: 0 }))).status === 200) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  // warm-up: the trace store and the estimator fill, the JIT settles
  await new Promise((r) => setTimeout(r, 10_000));
  floorOn = true;
  const load = WRK
    ? new Promise<string>((ok) =>
        execFile('wrk', ['-t2', '-c64', `-d${SECONDS}s`, '--latency', `http://127.0.0.1:${PORT}/v2/point/50.0/8.5/25`], (_e, out) => ok(out)),
      )
    : null;
  // per serving thread (0: the main thread; each --serve-threads worker reports its own window)
  const windows = new Map<string, { max: number; p99: number }[]>();
  const blocking = new Map<string, number[]>();
  for (let s = 0; s < SECONDS; s += 5) {
    await new Promise((r) => setTimeout(r, 5000));
    const m = (await get('/metrics')).text;
    const at = new Map<string, { max: number; p99: number }>();
    // older servers (before the thread label) report the main thread only
    for (const x of m.matchAll(/^contrail_event_loop_stall_seconds\{(?:thread="(\d+)",)?stat="(max|p99)"\} (\S+)$/gm)) {
      const w = at.get(x[1] ?? '0') ?? { max: NaN, p99: NaN };
      w[x[2] as 'max' | 'p99'] = Number(x[3]) * 1000;
      at.set(x[1] ?? '0', w);
    }
    for (const [thread, w] of at) windows.set(thread, [...(windows.get(thread) ?? []), w]);
    // the server's own work per snapshot (commits from 2026-11-26 on): taking it, and the followers' slices
    for (const x of m.matchAll(/^contrail_snapshot_blocking_seconds\{thread="(\d+)",step="(\w+)"\} (\S+)$/gm)) {
      const k = `${x[1]} ${x[2]}`;
      blocking.set(k, [...(blocking.get(k) ?? []), Number(x[3]) * 1000]);
    }
  }
  console.log(
    `root ${ROOT}; node ${process.version}; ${SECONDS} s, a 12,400-aircraft snapshot every second; load average ${loadavg()[0]!.toFixed(1)}${WRK ? '; under wrk -t2 -c64 (point 25 nm)' : ''}`,
  );
  const summary = (name: string, ws: { max: number; p99: number }[]) => {
    const maxes = ws.map((w) => w.max).sort((a, b) => a - b);
    console.log(`${name}: event-loop delay, per 5 s window: max ${maxes.map((v) => v.toFixed(1)).join(' ')} ms`);
    if (maxes.length)
      console.log(
        `  median of window maxima ${maxes[maxes.length >> 1]!.toFixed(1)} ms, worst ${maxes.at(-1)!.toFixed(1)} ms; p99 of samples ${ws.map((w) => w.p99.toFixed(1)).join(' ')} ms`,
      );
  };
  summary('floor (an idle Node process beside it, measuring itself)', floorWindows);
  for (const [thread, ws] of [...windows].sort()) {
    summary(`thread ${thread} (${thread === '0' ? 'main' : 'worker'})`, ws);
    for (const [k, v] of [...blocking].filter(([k]) => k.startsWith(`${thread} `)).sort()) {
      console.log(`  its own work, longest per window, ${k.slice(thread.length + 1)}: ${v.map((x) => x.toFixed(1)).join(' ')} ms`);
    }
  }
  if (load) {
    const out = await load;
    console.log(`  wrk: ${/Requests\/sec:\s+\S+/.exec(out)?.[0]}; latency ${/\s50%\s+\S+/.exec(out)?.[0]?.trim()}, ${/\s99%\s+\S+/.exec(out)?.[0]?.trim()}`);
  }
} finally {
  clearInterval(refresher);
  floor.kill('SIGTERM');
  child.kill('SIGTERM');
  rmSync(dir, { recursive: true, force: true });
}
