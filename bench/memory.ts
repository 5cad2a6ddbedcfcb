// benchmark, run by hand: the live server's memory at 12,400 aircraft with a FULL trace store
// (30 minutes of feed; --turning is the share of aircraft that turn all the time, 1 being the worst
// case; the rest fly straight and level, which the trace thins to one point every 30 s).
//   node --expose-gc --import tsx bench/memory.ts [--minutes 30] [--step-s 2] [--turning 1]
// the whole app runs in this process (createApp, polling by hand); the feed is written by a child
// process (bench/memory-feed.ts: the real 12k readsb snapshot fast-forwarded, each step moving
// the feed clock on by --step-s seconds), so the RSS printed is the server's alone.
import { fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp } from '../server/app.ts';
import { loadServerConfig } from '../server/config.ts';
import { numberFlag } from './flags.ts';

if (process.argv.includes('--help')) {
  console.log(
    "Usage: node --expose-gc --import tsx bench/memory.ts [--minutes 30] [--step-s 2] [--turning 1] [--serve-threads 1]\n\nServer memory at 12,400 aircraft with a full trace store (--turning: share of aircraft turning all the time; 1 is the worst case; --serve-threads: the server's serving threads, workers included in the RSS).",
  );
  process.exit(0);
}
const MINUTES = numberFlag('minutes', 30);
const STEP_S = numberFlag('step-s', 2);
const TURNING = numberFlag('turning', 1);
const THREADS = numberFlag('serve-threads', 1);
const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});
const mb = (n: number) => `${(n / 1048576).toFixed(0)} MB`;

const dir = mkdtempSync(join(tmpdir(), 'contrail-memory-'));
const feed = join(dir, 'aircraft.json');
const writer = fork(new URL('./memory-feed.ts', import.meta.url).pathname, [feed, String(STEP_S), String(TURNING)], { execArgv: ['--import', 'tsx'] });
const replies: ((m: { ready?: number; hexes?: string[]; nowS?: number }) => void)[] = [];
writer.on('message', (m) => replies.shift()?.(m as { nowS?: number }));
const ask = (msg?: { step: number }) =>
  new Promise<{ ready?: number; hexes?: string[]; nowS?: number }>((r) => {
    replies.push(r);
    if (msg) writer.send(msg);
  });
const hello = await ask();
const T0 = hello.ready!;
const hexes = hello.hexes!;
let nowS = T0;
gc();
const before = process.memoryUsage();
console.log(`start: RSS ${mb(before.rss)} (node and the app's modules), heap ${mb(before.heapUsed)}`);
const { config } = loadServerConfig(['--port', '0', '--feed', feed, '--no-rate-limits', '--state', join(dir, 'state'), '--serve-threads', String(THREADS)], {});
const app = await createApp(config, { log: () => {}, clock: () => nowS * 1000, workersOnSystemClock: true, poll: false });
const steps = Math.ceil((MINUTES * 60) / STEP_S) + 1;
const started = performance.now();
try {
  for (let k = 0; k < steps; k++) {
    nowS = (await ask({ step: k })).nowS!;
    await app.services.feed!.pollOnce();
    // the followers take the snapshot in slices: wait until the last one is in
    while (app.services.tracker.lastSnapshotS !== nowS) await new Promise((r) => setImmediate(r));
    if (k % 100 === 0 || k === steps - 1) {
      const m = process.memoryUsage();
      console.log(
        `step ${k + 1}/${steps} (${((k * STEP_S) / 60).toFixed(0)} min of feed, ${((performance.now() - started) / 1000).toFixed(0)} s): RSS ${mb(m.rss)}, heap ${mb(m.heapUsed)}, array buffers ${mb(m.arrayBuffers)}, aircraft traced ${app.services.traces.size}`,
      );
    }
  }
  gc();
  const m = process.memoryUsage();
  const pts = hexes.map((h) => app.services.traces.get(h, nowS)?.points.length ?? 0);
  console.log(
    `full: RSS ${mb(m.rss)} (${mb(m.rss - before.rss)} over the start), heap ${mb(m.heapUsed)}, array buffers ${mb(m.arrayBuffers)}; ${app.services.traces.size} aircraft traced, ${(pts.reduce((a, b) => a + b, 0) / pts.length).toFixed(0)} points each on average (of ${hexes.length} sampled)`,
  );
} finally {
  await app.stop();
  writer.kill();
  rmSync(dir, { recursive: true, force: true });
}
process.exit(0);
