// the map at 15,000 aircraft in headless Chromium: first paint (navigation to the first frame with
// aircraft drawn on the offline basemap's tiles), main-thread time per stream update (every aircraft
// moved, so each update carries the whole sky: Performance.getMetrics' TaskDuration over --updates
// snapshots), frame time while panning (each pan step is a full redraw of the canvas layer) and the
// page's JS heap. the real app serves a seeded sky fed through the real feed path; the page follows
// it by the push stream. figures: docs/performance.md "The map".
//   npx tsx bench/map.ts [--aircraft 15000] [--frames 120] [--updates 10] [--view 5/48/9]
// --help prints this.
import { chromium } from 'playwright-core';
import { mulberry32 } from '../lib/random.ts';
import { startMapSky } from '../test/helpers/map-sky.ts';
import { flag, numberFlag } from './flags.ts';

if (process.argv.includes('--help')) {
  console.log('npx tsx bench/map.ts [--aircraft 15000] [--frames 120] [--updates 10] [--view <zoom>/<lat>/<lon>] [--chromium /usr/bin/chromium]');
  process.exit(0);
}
const N = numberFlag('aircraft', 15_000);
const FRAMES = numberFlag('frames', 120);
const UPDATES = numberFlag('updates', 10);
const VIEWS = flag('view', '5/48/9,3/30/0').split(',');
const CHROMIUM = flag('chromium', '/usr/bin/chromium');

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

const stats = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const q = (p: number) => s[Math.min(s.length - 1, Math.floor(p * s.length))]!;
  return { median: q(0.5), p95: q(0.95), max: s[s.length - 1]! };
};
const ms = (x: number) => `${x.toFixed(1)} ms`;

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
const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run'] });
try {
  console.log(`${N.toLocaleString('en')} aircraft, ${FRAMES} frames per view, Chromium ${browser.version()}, 1400x900 viewport`);
  for (const view of VIEWS) {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    await page.goto(`${s.base}/#${view}`);
    // first paint: aircraft drawn over the offline basemap's first tiles, ms since navigation began
    await page.waitForFunction(() => (window as any).__contrail?.drawnHexes().length > 0 && (window as any).__contrail.basemap().tiles > 0, undefined, {
      timeout: 60_000,
      polling: 'raf',
    });
    const firstPaint = await page.evaluate(() => performance.now());
    const fcp = await page.evaluate(() => performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? Number.NaN);
    await page.waitForFunction(() => (window as any).__contrail?.mode() === 'stream', undefined, { timeout: 60_000 });
    // let the basemap and the estimates arrive before measuring
    await page.waitForTimeout(2000);
    const drawn = await page.evaluate(() => (window as any).__contrail.drawnHexes().length);
    // main-thread time per stream update: the page's task time across UPDATES snapshots, each moving every aircraft
    const cdpU = await page.context().newCDPSession(page);
    await cdpU.send('Performance.enable');
    const task = async () =>
      ((await cdpU.send('Performance.getMetrics')).metrics as { name: string; value: number }[]).find((m) => m.name === 'TaskDuration')!.value;
    const perUpdate: number[] = [];
    for (let u = 0; u < UPDATES; u++) {
      const before = await page.evaluate(() => (window as any).__contrail.updates());
      const t0 = await task();
      await step();
      await page.waitForFunction((b) => (window as any).__contrail.updates() > b, before, { timeout: 30_000 });
      // the frame and the list that follow the update
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
      perUpdate.push((await task()) - t0);
    }
    const r = await page.evaluate(async (frames) => {
      const map = (window as any).__contrail.map;
      const redraw: number[] = [];
      const gaps: number[] = [];
      let last = performance.now();
      for (let i = 0; i < frames; i++) {
        await new Promise<void>((done) =>
          requestAnimationFrame(() => {
            const t = performance.now();
            gaps.push(t - last);
            last = t;
            // a pan step: Leaflet moves the pane and fires moveend, the layer redraws all aircraft
            map.panBy([i % 40 < 20 ? 25 : -25, 0], { animate: false });
            redraw.push(performance.now() - t);
            done();
          }),
        );
      }
      const layer: number[] = [];
      for (let i = 0; i < 30; i++) layer.push((window as any).__contrail.redrawMs());
      return { redraw, gaps: gaps.slice(1), layer };
    }, FRAMES);
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('HeapProfiler.collectGarbage');
    await cdp.send('Performance.enable');
    const metrics = (await cdp.send('Performance.getMetrics')).metrics as { name: string; value: number }[];
    const heap = metrics.find((m) => m.name === 'JSHeapUsedSize')!.value / 2 ** 20;
    const rd = stats(r.redraw);
    const gp = stats(r.gaps);
    console.log(`view #${view}: ${drawn.toLocaleString('en')} aircraft in view`);
    console.log(`  first paint (aircraft on the basemap's tiles) ${ms(firstPaint)} after navigation; first contentful paint ${ms(fcp)}`);
    const up = stats(perUpdate.map((x) => x * 1000));
    console.log(
      `  main-thread time per stream update of ${N.toLocaleString('en')} moved aircraft (${UPDATES} updates) median ${ms(up.median)}, max ${ms(up.max)}`,
    );
    console.log(`  pan step (Leaflet's move, the basemap's and the aircraft layer's redraw) median ${ms(rd.median)}, p95 ${ms(rd.p95)}, max ${ms(rd.max)}`);
    console.log(`  frame interval   median ${ms(gp.median)}, p95 ${ms(gp.p95)}, max ${ms(gp.max)}`);
    const ly = stats(r.layer);
    console.log(`  aircraft layer redraw alone (30 runs) median ${ms(ly.median)}, p95 ${ms(ly.p95)}`);
    console.log(`  JS heap after GC ${heap.toFixed(1)} MB`);
    await page.close();
  }
} finally {
  await browser.close();
  s.stop();
}
