// the map at / in headless Chromium (Debian's `chromium`, driven by playwright-core; never a
// downloaded browser) against the whole app with a fed sky and the clock pinned: it draws exactly
// the aircraft /v1/aircraft returns for its view, shows the estimate as an estimate, opens a trace
// with its take-off and landing and the airframe and airport history on click, and shows the stale
// banner (never an empty sky) when the feed stops; by the push stream and by polling alike.
// screenshots go to var/screenshots/ (gitignored) for a person to look at.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { startMapSky, T_END, type MapSky } from '../../helpers/map-sky.ts';
import { eventually, ROOT } from '../../helpers/processes.ts';

process.env.TZ = 'UTC';
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const SHOTS = join(ROOT, 'var/screenshots');

const hook = <T,>(page: Page, fn: string, ...args: unknown[]): Promise<T> =>
  page.evaluate(([f, a]) => (window as any).__contrail[f as string](...(a as unknown[])), [fn, args] as const);

/** the page's view as the API's bbox: longitudes wrapped into [-180, 180) (west > east crosses the antimeridian), 6 decimals */
async function viewBbox(page: Page): Promise<string> {
  const [w, s, e, n] = await page.evaluate(() => {
    const b = (window as any).__contrail.map.getBounds();
    return [b.getWest(), b.getSouth(), b.getEast(), b.getNorth()] as number[];
  });
  const wrap = (lon: number) => ((((lon + 180) % 360) + 360) % 360) - 180;
  return [wrap(w!), s!, wrap(e!), n!].map((x) => x.toFixed(6)).join(',');
}

async function open(browser: Browser, s: MapSky, hash: string): Promise<{ page: Page; outside: string[] }> {
  const page = await browser.newPage({ viewport: { width: 1200, height: 800 } });
  const outside: string[] = [];
  // the page's Content-Security-Policy (server/http/security.ts) refuses nothing the map needs: a refusal is listed as if it went outside
  page.on('console', (m) => /Content Security Policy|Refused to/.test(m.text()) && outside.push(`refused: ${m.text()}`));
  page.on('request', (r) => {
    if (!r.url().startsWith(s.base + '/') && !r.url().startsWith(s.base.replace('http', 'ws') + '/') && !r.url().startsWith('data:')) outside.push(r.url());
  });
  await page.goto(`${s.base}/${hash}`);
  await page.waitForFunction(() => (window as any).__contrail?.drawnHexes().length > 0, undefined, { timeout: 30_000 });
  return { page, outside };
}

/** the hexes /v1/aircraft lists with a position inside the page's view */
async function expectedHexes(s: MapSky, page: Page): Promise<string[]> {
  const r = await fetch(`${s.base}/v1/aircraft?bbox=${await viewBbox(page)}`);
  assert.equal(r.status, 200);
  const body = (await r.json()) as { aircraft: { hex: string; lat?: number }[] };
  return body.aircraft.filter((a) => a.lat !== undefined).map((a) => a.hex).sort();
}

async function clickOn(page: Page, kind: string, id: string): Promise<void> {
  const p = await hook<{ x: number; y: number } | null>(page, 'pointOf', kind, id);
  assert.ok(p, `${kind} ${id} is drawn`);
  await page.mouse.click(p.x, p.y);
}

test('the map in Chromium: the view\'s aircraft by the push stream, the estimate as an estimate, traces, history and the stale banner', { timeout: 180_000 }, async () => {
  assert.ok(existsSync(CHROMIUM), `no Chromium at ${CHROMIUM}: install Debian's package with \`apt-get update && apt-get install -y chromium\` (or set CHROMIUM_PATH)`);
  mkdirSync(SHOTS, { recursive: true });
  const s = await startMapSky();
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
  try {
    // a regional view: the Zurich story and some of the real sample's aircraft
    const { page, outside } = await open(browser, s, '#6/47.5/8.5');
    await page.waitForFunction(() => (window as any).__contrail.mode() === 'stream', undefined, { timeout: 15_000 });
    const drawn = await hook<string[]>(page, 'drawnHexes');
    const expected = await expectedHexes(s, page);
    assert.ok(expected.includes('4b1814') && expected.includes('4b1815'), 'the story is in view');
    assert.deepEqual(drawn, expected, 'exactly the aircraft /v1/aircraft lists for the view are drawn');

    // a view far away: the map asks the stream for a new box and draws that view's aircraft
    const all = (await (await fetch(`${s.base}/v1/aircraft`)).json()) as { aircraft: { lat?: number; lon?: number }[] };
    const far = all.aircraft.find((a) => a.lat !== undefined && Math.abs(a.lat) < 60 && Math.abs(a.lon! - 8.5) > 40)!;
    await page.evaluate(([lat, lon]) => (window as any).__contrail.map.setView([lat, lon], 6, { animate: false }), [far.lat!, far.lon!]);
    await eventually(async () => assert.deepEqual(await hook<string[]>(page, 'drawnHexes'), await expectedHexes(s, page)), 15_000);
    assert.ok((await hook<string[]>(page, 'drawnHexes')).length > 0, '(await hook<string[]>(page, \'drawnHexes\')).length > 0');
    assert.equal(await hook<string>(page, 'mode'), 'stream');
    await page.evaluate(() => (window as any).__contrail.map.setView([47.5, 8.5], 6, { animate: false }));

    // the estimate: drawn as an estimate, never among the aircraft, and its panel says so
    await page.waitForFunction(() => (window as any).__contrail.drawnEstimates().includes('3c6444'), undefined, { timeout: 15_000 });
    assert.ok(!drawn.includes('3c6444'), 'an estimate is never drawn as a live aircraft');
    await page.screenshot({ path: join(SHOTS, 'map-live.png') });
    await clickOn(page, 'estimate', '3c6444');
    await page.locator('#panel .estimate .warning').waitFor({ timeout: 10_000 });
    assert.match(await page.locator('#panel .estimate').innerText(), /not an observation/);

    // a take-off: the trace is drawn with its take-off marked, the airframe's legs with route_source
    await page.evaluate(() => (window as any).__contrail.map.setView([47.5, 8.55], 10, { animate: false }));
    await page.waitForFunction(() => (window as any).__contrail.drawnHexes().includes('4b1814'));
    await clickOn(page, 'aircraft', '4b1814');
    await page.waitForFunction(() => (window as any).__contrail.trace()?.hex === '4b1814', undefined, { timeout: 10_000 });
    const api = (await (await fetch(`${s.base}/v1/trace/4b1814`)).json()) as { points: unknown[]; departure: { at: number } };
    const shown = await hook<{ points: unknown[]; departure: { at: number } | null }>(page, 'trace');
    assert.equal(shown.points.length, api.points.length);
    assert.equal(shown.departure?.at, api.departure.at);
    assert.match(await page.locator('.leaflet-tooltip.trace-takeoff').innerText(), /^take-off \d\d:\d\d:\d\dZ$/);
    await page.locator('#panel table.legs').waitFor({ timeout: 10_000 });
    assert.deepEqual(await page.locator('#panel table.legs th').allInnerTexts(), ['date', 'from', 'to', 'callsign', 'route source']);
    const sources = await page.locator('#panel table.legs tbody td:nth-child(5)').allInnerTexts();
    assert.ok(sources.length > 0 && sources.every((x) => ['observed', 'observed+catalog', 'catalog'].includes(x)), sources.join(','));
    await page.screenshot({ path: join(SHOTS, 'map-trace-takeoff.png') });

    // a landing
    await clickOn(page, 'aircraft', '4b1815');
    await page.waitForFunction(() => (window as any).__contrail.trace()?.hex === '4b1815', undefined, { timeout: 10_000 });
    assert.match(await page.locator('.leaflet-tooltip.trace-landing').innerText(), /^landing \d\d:\d\d:\d\dZ$/);
    // first heard aloft: no take-off is drawn (the previous trace's label fades out within 200 ms)
    await page.locator('.leaflet-tooltip.trace-takeoff').waitFor({ state: 'detached', timeout: 5_000 });

    // an airport: observed totals and both boards, each row's source shown
    await clickOn(page, 'airport', 'ZRH');
    await page.locator('#panel .airport table.board').first().waitFor({ timeout: 10_000 });
    assert.match(await page.locator('#panel h2').innerText(), /^ZRH · LSZH · /);
    assert.match(await page.locator('#panel .airport').innerText(), /departures/);
    const heads = await page.locator('#panel .airport table.board').first().locator('th').allInnerTexts();
    assert.equal(heads.at(-1), 'source');
    await page.screenshot({ path: join(SHOTS, 'map-airport.png') });

    // the feed stops: past 60 s the stream says stale; the banner shows and the sky stays drawn
    s.clock.ms = T_END * 1000 + 61_000;
    await page.locator('#banner').waitFor({ state: 'visible', timeout: 15_000 });
    assert.match(await page.locator('#banner').innerText(), /stale/);
    assert.ok((await hook<string[]>(page, 'drawnHexes')).length > 0, 'never an empty sky');
    await page.screenshot({ path: join(SHOTS, 'map-stale.png') });

    // the feed is back: the banner goes
    await s.feed(T_END + 61, []);
    await page.locator('#banner').waitFor({ state: 'hidden', timeout: 15_000 });
    assert.deepEqual(outside, [], 'no CDN, no tracking: every request goes to the server itself');
  } finally {
    await browser.close();
    s.stop();
  }
});

test('the map falls back to polling /v1/aircraft: the same aircraft, and the stale banner from a 503', { timeout: 180_000 }, async () => {
  const s = await startMapSky();
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
  try {
    const { page, outside } = await open(browser, s, '#6/47.5/8.5/poll');
    assert.equal(await hook<string>(page, 'mode'), 'polling');
    assert.deepEqual(await hook<string[]>(page, 'drawnHexes'), await expectedHexes(s, page));
    s.clock.ms = T_END * 1000 + 61_000;
    // the next poll (every 5 s) answers 503 stale_snapshot
    await page.locator('#banner').waitFor({ state: 'visible', timeout: 20_000 });
    assert.match(await page.locator('#banner').innerText(), /stale_snapshot/);
    assert.ok((await hook<string[]>(page, 'drawnHexes')).length > 0, 'never an empty sky');
    await page.screenshot({ path: join(SHOTS, 'map-stale-polling.png') });
    assert.deepEqual(outside, []);
  } finally {
    await browser.close();
    s.stop();
  }
});
