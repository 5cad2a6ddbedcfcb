// the map at 12,000 aircraft in headless Chromium, judged against a baseline measured in the same run,
// alternating page by page (this machine is shared: only the ratio says much). per page: first paint
// (navigation to the first frame with aircraft drawn on the offline basemap's tiles) and main-thread
// time per stream update (Performance.getMetrics' TaskDuration from feeding a snapshot in which every
// aircraft moved to the second frame after the page took it). the baseline is either the floor (a
// page that only opens the same stream and JSON.parses its messages, drawing nothing) or the map's
// code at a git ref (web/ from `git archive`, bundled by esbuild and served in place of /map/map.js
// and /map/map.css on the same server). --profile writes the current map's CPU profile of first paint and of the
// updates, and prints where the self time went; where the map has its sky worker, the worker's own
// time per update is printed beside (not main-thread time, but a core's). figures: docs/performance.md "The map".
//   npx tsx bench/map.ts [--aircraft 12000] [--updates 6] [--rounds 3] [--view 5/48/9] [--baseline floor|<git ref>] [--profile <prefix>]
// --help prints this.
import { execFileSync } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildSync } from 'esbuild';
import type { Browser, CDPSession, Page } from 'playwright-core';
import { installed } from '../lib/install.ts';
import { mulberry32 } from '../lib/random.ts';
import { launchChromium } from '../test/helpers/chromium.ts';
import { startMapSky } from '../test/helpers/map-sky.ts';
import { flag, numberFlag } from './flags.ts';

if (process.argv.includes('--help')) {
  console.log(
    [
      'npx tsx bench/map.ts [--aircraft 12000] [--updates 6] [--rounds 3] [--view 5/48/9] [--baseline floor|<git ref>] [--profile <prefix>]',
      '  --baseline floor   a page that only parses the stream (default); a git ref: the map at that commit, bundled from `git archive`',
      '  --rounds N         pages per variant, alternating current and baseline (ABBA)',
      "  --profile P        the current map's CPU profiles to P-paint.cpuprofile and P-updates.cpuprofile, with the top self times, and P-updates.trace.json",
      "  --debug            print the pages' console",
      '  Chromium: test/helpers/chromium.ts (CHROMIUM_PATH to point elsewhere)',
    ].join('\n'),
  );
  process.exit(0);
}
const N = numberFlag('aircraft', 12_000);
const UPDATES = numberFlag('updates', 6);
const ROUNDS = numberFlag('rounds', 3);
const VIEW = flag('view', '5/48/9');
const BASELINE = flag('baseline', 'floor');
const PROFILE = flag('profile', '');
const DEBUG = process.argv.includes('--debug');

/** a seeded sky: 60 % over Europe (dense, like the real network), 40 % anywhere */
function seededSky(n: number): (Record<string, unknown> & { hex: string })[] {
  const rand = mulberry32(20261125);
  return Array.from({ length: n }, (_, i) => {
    const europe = rand() < 0.6;
    const ground = rand() < 0.05;
    return {
      hex: (0x100000 + i).toString(16),
      flight: `TST${i}`,
      lat: europe ? 35 + rand() * 25 : -60 + rand() * 130,
      lon: europe ? -10 + rand() * 40 : -180 + rand() * 360,
      alt_baro: ground ? 'ground' : Math.round(rand() * 42_000),
      gs: Math.round(100 + rand() * 400),
      track: Math.round(rand() * 3600) / 10,
      seen: 0,
      seen_pos: 0,
    };
  });
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
const load = () =>
  loadavg()
    .map((x) => x.toFixed(1))
    .join(' ');

/** the map's JS and CSS at a git ref: its web/ and lib/ and schemas/ (all web/ may import) bundled as the server would */
function bundleAt(ref: string): { js: Buffer; css: Buffer } {
  const dir = mkdtempSync(join(tmpdir(), 'contrail-map-base-'));
  try {
    const tar = execFileSync('git', ['archive', ref, 'web', 'lib', 'schemas'], { cwd: installed('.'), maxBuffer: 1 << 28 });
    execFileSync('tar', ['-x', '-C', dir], { input: tar });
    const r = buildSync({
      entryPoints: [join(dir, 'web/map/main.ts'), join(dir, 'web/map/style.css')],
      outdir: join(dir, 'out'),
      bundle: true,
      write: false,
      minify: true,
      format: 'iife',
      target: ['es2020'],
      loader: { '.png': 'dataurl', '.svg': 'dataurl' },
      nodePaths: [installed('node_modules')],
      logLevel: 'silent',
    });
    const out = (name: string) => Buffer.from(r.outputFiles.find((f) => f.path.endsWith(name))!.contents);
    return { js: out('main.js'), css: out('style.css') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** the floor: the same stream, each message parsed, nothing drawn; it answers the bench's questions like the map */
const FLOOR = (wsUrl: string) => `<!doctype html><meta charset="utf-8"><body><script>
let n = 0, keep = 0;
const ws = new WebSocket(${JSON.stringify(wsUrl)});
ws.onerror = () => console.log('floor: stream error'); ws.onclose = (e) => console.log('floor: closed ' + e.code);
ws.onmessage = (e) => { const m = JSON.parse(e.data); keep += m.type.length; if (m.type === 'end') n++; };
window.__contrail = { updates: () => n, painted: () => n > 0, mode: () => 'stream', drawn: () => keep };
</script>`;

let sky = seededSky(N);
const s = await startMapSky({ aircraft: () => sky });
/** the next snapshot: every aircraft a little further along, one second on */
let at = Math.round(s.clock.ms / 1000);
async function step(): Promise<void> {
  at += 1;
  s.clock.ms = at * 1000;
  sky = sky.map((a) => ({ ...a, lat: (a.lat as number) + 0.001, alt_baro: a.alt_baro === 'ground' ? 'ground' : (a.alt_baro as number) + 8 }));
  await s.feed(at, sky);
}

// the floor's page from a loopback server of its own (a page the bench fulfils itself counts as a
// public address, and Chromium then refuses its connection to the loopback stream)
const floorServer = createServer((_, res) => res.writeHead(200, { 'Content-Type': 'text/html' }).end(FLOOR(streamUrl ?? '')));
await new Promise<void>((r) => floorServer.listen(0, '127.0.0.1', r));
const floorBase = `http://127.0.0.1:${(floorServer.address() as AddressInfo).port}`;

type Variant = 'current' | 'baseline';
const baseJs = BASELINE === 'floor' ? null : bundleAt(BASELINE);
/** whether the baseline's map reads the packed basemap (it names lib/basemap-pack.ts's magic) */
const baseReadsPacked = baseJs?.js.includes('CTB1') ?? true;
/** the stream URL the current map opened for this view (the floor opens the same) */
let streamUrl: string | null = null;

async function selfTimes(cdp: CDPSession, file: string): Promise<void> {
  const { profile } = (await cdp.send('Profiler.stop')) as { profile: any };
  writeFileSync(file, JSON.stringify(profile));
  const dt = new Map<number, number>();
  const deltas: number[] = profile.timeDeltas;
  for (let i = 0; i < profile.samples.length; i++) dt.set(profile.samples[i], (dt.get(profile.samples[i]) ?? 0) + (deltas[i] ?? 0));
  const by = new Map<string, number>();
  for (const node of profile.nodes) {
    const f = node.callFrame;
    const key = `${f.functionName || '(anonymous)'} ${f.url.split('/').pop()}:${f.lineNumber + 1}:${f.columnNumber + 1}`;
    by.set(key, (by.get(key) ?? 0) + (dt.get(node.id) ?? 0));
  }
  const top = [...by].sort((a, b) => b[1] - a[1]).slice(0, 15);
  console.log(`  ${file}: top self time`);
  for (const [k, us] of top) console.log(`    ${(us / 1000).toFixed(1).padStart(8)} ms  ${k}`);
}

async function measure(browser: Browser, v: Variant, profile: boolean): Promise<{ paint: number; updates: number[]; worker: number[] }> {
  const page: Page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  try {
    if (v === 'baseline' && baseJs) {
      await page.route('**/map/map.js', (r) => r.fulfill({ body: baseJs.js, contentType: 'text/javascript' }));
      await page.route('**/map/map.css', (r) => r.fulfill({ body: baseJs.css, contentType: 'text/css' }));
      // a map from before the packed basemap (lib/basemap-pack.ts) reads the TopoJSON, still served:
      // its configuration names that, and the shell's preload of the packed file is refused, not paid for
      if (!baseReadsPacked) {
        await page.route('**/v1/map/config', async (r) => {
          const res = await r.fetch();
          const json = await res.json();
          json.offline.basemap = '/map/basemap-10m.json';
          await r.fulfill({ response: res, json });
        });
        await page.route('**/map/basemap-10m.bin', (r) => r.abort());
      }
    }
    if (DEBUG) page.on('console', (m) => console.error(`  ${v} console: ${m.text()}`));
    page.on('pageerror', (e) => console.error(`  ${v} page error: ${e.message}`));
    page.on('websocket', (ws) => {
      if (v === 'current') streamUrl ??= ws.url();
    });
    const cdp = await page.context().newCDPSession(page);
    if (profile) {
      await cdp.send('Profiler.enable');
      await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
      await cdp.send('Profiler.start');
    }
    await page.goto(v === 'baseline' && !baseJs ? `${floorBase}/floor.html` : `${s.base}/#${VIEW}`);
    await page.waitForFunction(
      () => {
        const c = (window as any).__contrail;
        if (!c) return false;
        if (c.painted) return c.painted();
        // when each half of the first paint came: the first basemap tile and the first aircraft
        const m = ((window as any).__benchMarks ??= {});
        const now = performance.now();
        if (m.tiles === undefined && c.basemap().tiles > 0) m.tiles = now;
        if (m.sky === undefined && c.drawnHexes().length > 0) m.sky = now;
        return m.tiles !== undefined && m.sky !== undefined;
      },
      undefined,
      { timeout: 60_000, polling: 'raf' },
    );
    const paint = await page.evaluate(() => performance.now());
    if (v === 'current') {
      const b = await page.evaluate(() => (window as any).__contrail.basemap?.());
      const m = await page.evaluate(() => (window as any).__benchMarks ?? {});
      if (b?.walked !== undefined)
        console.log(
          `  first paint: the first tile at ${m.tiles?.toFixed(0)} ms, the first aircraft at ${m.sky?.toFixed(0)} ms; ${b.tiles} tiles, ${b.walked.toLocaleString('en')} arc points walked`,
        );
    }
    if (profile) await selfTimes(cdp, `${PROFILE}-paint.cpuprofile`);
    await page.waitForFunction(() => (window as any).__contrail?.mode() === 'stream', undefined, { timeout: 60_000 });
    // let the basemap, the estimates and the deferred work arrive before measuring
    await page.waitForTimeout(1500);
    await cdp.send('Performance.enable');
    const task = async () =>
      ((await cdp.send('Performance.getMetrics')).metrics as { name: string; value: number }[]).find((m) => m.name === 'TaskDuration')!.value;
    if (profile) await cdp.send('Profiler.start');
    if (profile) await browser.startTracing(page, { categories: ['devtools.timeline', 'v8', 'blink', 'cc', 'gpu'] });
    const updates: number[] = [];
    // the sky worker's own time (web/map/sky-worker.ts), where the page has one: off the main thread, not off the machine
    const workerMs = () => page.evaluate(() => (window as any).__contrail.workerMs?.() ?? null) as Promise<number | null>;
    const worker: number[] = [];
    for (let u = 0; u < UPDATES; u++) {
      const before = await page.evaluate(() => (window as any).__contrail.updates());
      const w0 = await workerMs();
      const t0 = await task();
      await step();
      // polled every 50 ms, not per animation frame: a rAF loop of the bench's own would make the page
      // produce a frame (style, layout, paint of the whole page) 60 times a second while it waits
      await page.waitForFunction((b) => (window as any).__contrail.updates() > b, before, { timeout: 30_000, polling: 50 });
      // the frame and the list that follow the update
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
      updates.push(((await task()) - t0) * 1000);
      const w1 = await workerMs();
      if (w0 !== null && w1 !== null) worker.push(w1 - w0);
    }
    if (profile) await selfTimes(cdp, `${PROFILE}-updates.cpuprofile`);
    if (profile) {
      writeFileSync(`${PROFILE}-updates.trace.json`, await browser.stopTracing());
      console.log(`  ${PROFILE}-updates.trace.json: the updates' trace (chrome://tracing or Perfetto)`);
    }
    return { paint, updates, worker };
  } finally {
    await page.close();
  }
}

const browser = await launchChromium();
try {
  console.log(
    `${N.toLocaleString('en')} aircraft, view #${VIEW}, ${UPDATES} updates per page, ${ROUNDS} rounds, baseline ${BASELINE}, Chromium ${browser.version()}, Node ${process.version}, 1400x900; load ${load()}`,
  );
  const got: Record<Variant, { paint: number[]; update: number[]; worker: number[] }> = {
    current: { paint: [], update: [], worker: [] },
    baseline: { paint: [], update: [], worker: [] },
  };
  // the floor needs the stream URL the map opened: the current map goes first in round 1
  for (let r = 0; r < ROUNDS; r++) {
    const order: Variant[] = r % 2 === 0 ? ['current', 'baseline'] : ['baseline', 'current'];
    for (const v of order) {
      const m = await measure(browser, v, v === 'current' && r === 0 && PROFILE !== '');
      got[v].paint.push(m.paint);
      got[v].update.push(...m.updates);
      got[v].worker.push(...m.worker);
      console.log(
        `  round ${r + 1} ${v.padEnd(8)} first paint ${m.paint.toFixed(0)} ms, ` +
          `update median ${median(m.updates).toFixed(1)} ms (${m.updates.map((x) => x.toFixed(0)).join(' ')})${
            m.worker.length ? `, sky worker ${median(m.worker).toFixed(1)} ms` : ''
          }; load ${load()}`,
      );
    }
  }
  const row = (what: string, c: number[], b: number[]) =>
    console.log(
      `${what.padEnd(28)} current ${median(c).toFixed(1).padStart(8)} ms  baseline ${median(b).toFixed(1).padStart(8)} ms  ratio ${(median(c) / median(b)).toFixed(2)}`,
    );
  row('first paint, median', got.current.paint, got.baseline.paint);
  row('main thread per update, med.', got.current.update, got.baseline.update);
  for (const v of ['current', 'baseline'] as const)
    if (got[v].worker.length) console.log(`${v}: the sky worker per update, median ${median(got[v].worker).toFixed(1)} ms (not main-thread time)`);
  console.log(`load ${load()}`);
} finally {
  await browser.close();
  s.stop();
  floorServer.close();
}
