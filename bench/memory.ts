// benchmark, run by hand: the live server's memory at 12,400 aircraft with a FULL trace store
// (30 minutes, every aircraft turning all the time, so every point is kept: the worst case).
//   node --expose-gc --import tsx bench/memory.ts [--minutes 30] [--step-s 2] [--turning 1]
// --turning is the share of aircraft that turn all the time (1: all of them, the worst case; the
// rest fly straight and level, which the trace thins to one point every 30 s)
// the whole app runs in this process (createApp, polling by hand), fed the real 12k readsb
// snapshot fast-forwarded: each step moves the feed clock on by --step-s seconds (the trace keeps
// at most one point per 2 s) and every aircraft turns 5 degrees and flies on. the RSS printed is
// this process's: the server plus the bench's own copy of the snapshot (measured apart, at start).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { createApp } from '../server/app.ts';
import { loadServerConfig } from '../server/config.ts';
import { numberFlag } from './flags.ts';

if (process.argv.includes('--help')) {
  console.log('Usage: node --expose-gc --import tsx bench/memory.ts [--minutes 30] [--step-s 2] [--turning 1]\n\nServer memory at 12,400 aircraft with a full trace store (--turning: share of aircraft turning all the time; 1 is the worst case).');
  process.exit(0);
}
const MINUTES = numberFlag('minutes', 30);
const STEP_S = numberFlag('step-s', 2);
const TURNING = numberFlag('turning', 1);
const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});
const mb = (n: number) => `${(n / 1048576).toFixed(0)} MB`;

const raw = JSON.parse(gunzipSync(readFileSync(new URL('./data/readsb_aircraft_12k.json.gz', import.meta.url))).toString());
const T0 = Math.floor(raw.now);
let nowS = T0;
const dir = mkdtempSync(join(tmpdir(), 'contrail-memory-'));
const feed = join(dir, 'aircraft.json');
gc();
const before = process.memoryUsage();
console.log(`start: RSS ${mb(before.rss)} (node, the bench and its copy of the snapshot), heap ${mb(before.heapUsed)}`);
const { config } = loadServerConfig(['--port', '0', '--feed', feed, '--no-rate-limits', '--state', join(dir, 'state')], {});
const app = await createApp(config, { log: () => {}, clock: () => nowS * 1000, poll: false });
const steps = Math.ceil((MINUTES * 60) / STEP_S) + 1;
const started = performance.now();
try {
  for (let k = 0; k < steps; k++) {
    nowS = T0 + k * STEP_S;
    raw.now = nowS;
    for (const [i, a] of raw.aircraft.entries()) {
      if (typeof a.lat !== 'number' || typeof a.lon !== 'number') continue;
      const turns = (i % 1000) < TURNING * 1000;
      const trk = ((a.track ?? 0) + (turns ? 5 : 0)) % 360;
      a.track = trk;
      const nm = ((a.gs ?? 300) * STEP_S) / 3600;
      a.lat = Math.max(-89, Math.min(89, a.lat + (nm / 60) * Math.cos((trk * Math.PI) / 180)));
      a.lon = ((a.lon + (nm / 60) * Math.sin((trk * Math.PI) / 180) + 540) % 360) - 180;
      a.seen_pos = 0;
      a.seen = 0;
    }
    writeFileSync(feed, JSON.stringify(raw));
    await app.services.feed!.pollOnce();
    // the followers take the snapshot in slices: wait until the last one is in
    while (app.services.tracker.lastSnapshotS !== nowS) await new Promise((r) => setImmediate(r));
    if (k % 100 === 0 || k === steps - 1) {
      const m = process.memoryUsage();
      console.log(`step ${k + 1}/${steps} (${((k * STEP_S) / 60).toFixed(0)} min of feed, ${((performance.now() - started) / 1000).toFixed(0)} s): RSS ${mb(m.rss)}, heap ${mb(m.heapUsed)}, array buffers ${mb(m.arrayBuffers)}, aircraft traced ${app.services.traces.size}`);
    }
  }
  gc();
  const m = process.memoryUsage();
  const hexes: string[] = raw.aircraft.filter((a: { lat?: number }) => typeof a.lat === 'number').map((a: { hex: string }) => a.hex.replace('~', '')).slice(0, 200);
  const pts = hexes.map((h) => app.services.traces.get(h, nowS)?.points.length ?? 0);
  console.log(`full: RSS ${mb(m.rss)} (${mb(m.rss - before.rss)} over the start), heap ${mb(m.heapUsed)}, array buffers ${mb(m.arrayBuffers)}; ${app.services.traces.size} aircraft traced, ${(pts.reduce((a, b) => a + b, 0) / pts.length).toFixed(0)} points each on average (of ${hexes.length} sampled)`);
} finally {
  app.stop();
  rmSync(dir, { recursive: true, force: true });
}
process.exit(0);
