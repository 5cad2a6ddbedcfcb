// the map at / in headless Chromium (Debian's `chromium`, driven by playwright-core; never a
// downloaded browser) against the whole app with a fed sky and the clock pinned: it draws exactly
// the aircraft /v1/aircraft returns for its view, shows the estimate as an estimate, opens a trace
// with its take-off and landing and the airframe and airport history on click, and shows the stale
// banner (never an empty sky) when the feed stops; by the push stream and by polling alike. and the
// issue-46 targets: the first view fits the network, counts equal what is drawn, search by each key,
// the list sorts and selects, the trail, the offline basemap's coasts and names, URL state, dark mode,
// and no request to any host but the loopback one. screenshots are kept as the run's artifacts in a
// temporary folder whose path the test prints (never committed).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../../helpers/chromium.ts';
import { startMapSky, T_END, type MapSky } from '../../helpers/map-sky.ts';
import { eventually } from '../../helpers/processes.ts';

process.env.TZ = 'UTC';
const SHOTS = mkdtempSync(join(tmpdir(), 'contrail-map-screenshots-'));
console.log(`map screenshots: ${SHOTS}`);

const hook = <T>(page: Page, fn: string, ...args: unknown[]): Promise<T> =>
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

async function open(browser: Browser, s: MapSky, hash: string, init?: () => void): Promise<{ page: Page; outside: string[] }> {
  const page = await browser.newPage({ viewport: { width: 1200, height: 800 } });
  if (init) await page.addInitScript(init);
  const outside: string[] = [];
  // the page's Content-Security-Policy (server/http/security.ts) refuses nothing the map needs: a refusal is listed as if it went outside
  page.on('console', (m) => /Content Security Policy|Refused to/.test(m.text()) && outside.push(`refused: ${m.text()}`));
  page.on('request', (r) => {
    if (!r.url().startsWith(s.base + '/') && !r.url().startsWith(s.base.replace('http', 'ws') + '/') && !r.url().startsWith('data:')) outside.push(r.url());
    // and whatever the page's own origin: nothing to a host that is not this machine's loopback
    if (!r.url().startsWith('data:') && !/^(127\.\d+\.\d+\.\d+|localhost|\[::1\])$/.test(new URL(r.url()).hostname)) outside.push(r.url());
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
  return body.aircraft
    .filter((a) => a.lat !== undefined)
    .map((a) => a.hex)
    .sort();
}

async function clickOn(page: Page, kind: string, id: string): Promise<void> {
  const p = await hook<{ x: number; y: number } | null>(page, 'pointOf', kind, id);
  assert.ok(p, `${kind} ${id} is drawn`);
  await page.mouse.click(p.x, p.y);
}

test("the map in Chromium: the view's aircraft by the push stream, the estimate as an estimate, traces, history and the stale banner", {
  timeout: 180_000,
}, async () => {
  mkdirSync(SHOTS, { recursive: true });
  const s = await startMapSky();
  const browser = await launchChromium();
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
    assert.ok((await hook<string[]>(page, 'drawnHexes')).length > 0, "(await hook<string[]>(page, 'drawnHexes')).length > 0");
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
  const browser = await launchChromium();
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

test('the sky layer is drawn in its worker where OffscreenCanvas exists, and on the page where it does not: the same aircraft, clicks select', {
  timeout: 180_000,
}, async () => {
  const s = await startMapSky();
  const browser = await launchChromium();
  try {
    for (const [path, init] of [
      ['worker', undefined],
      // a browser without OffscreenCanvas (Safari before 16.4): today's path on the page
      ['page', () => void delete (globalThis as any).OffscreenCanvas],
    ] as const) {
      const { page, outside } = await open(browser, s, '#6/47.5/8.5', init);
      assert.equal(await hook<string>(page, 'skyPath'), path);
      const workers = page.workers().map((w) => new URL(w.url()).pathname);
      assert.deepEqual(workers, path === 'worker' ? ['/map/sky-worker.js'] : [], `${path}: the worker runs only on the worker path`);
      await page.waitForFunction(() => (window as any).__contrail.mode() === 'stream', undefined, { timeout: 15_000 });
      await eventually(async () => assert.deepEqual(await hook<string[]>(page, 'drawnHexes'), await expectedHexes(s, page), path), 15_000);
      // the hit test reads what the frame drew, wherever it was drawn
      await clickOn(page, 'aircraft', '4b1814');
      await page.waitForFunction(() => (window as any).__contrail.selected() === '4b1814', undefined, { timeout: 10_000 });
      const counts = await hook<{ inView: number }>(page, 'counts');
      assert.equal(counts.inView, (await hook<string[]>(page, 'drawnHexes')).length, `${path}: the count is what is drawn`);
      await page.screenshot({ path: join(SHOTS, `map-sky-${path}.png`) });
      assert.deepEqual(outside, [], path);
      await page.close();
    }
  } finally {
    await browser.close();
    s.stop();
  }
});

/** the aircraft /v1/aircraft lists for the page's view, as records */
async function expectedRecords(s: MapSky, page: Page): Promise<Record<string, any>[]> {
  const body = (await (await fetch(`${s.base}/v1/aircraft?bbox=${await viewBbox(page)}`)).json()) as { aircraft: Record<string, any>[] };
  return body.aircraft.filter((a) => a.lat !== undefined);
}

/** what share of a drawn basemap tile's pixels are land and sea (each tile a canvas) */
async function tileColours(page: Page): Promise<{ land: number; sea: number }> {
  return page.evaluate(() => {
    let land = 0;
    let sea = 0;
    for (const c of document.querySelectorAll<HTMLCanvasElement>('.vector-basemap canvas')) {
      const d = c.getContext('2d')!.getImageData(0, 0, c.width, c.height).data;
      for (let i = 0; i < d.length; i += 16) {
        const [r, g, b] = [d[i]!, d[i + 1]!, d[i + 2]!];
        if (r === 0xec && g === 0xea && b === 0xe3) land++;
        else if (r === 0xc9 && g === 0xdb && b === 0xe6) sea++;
      }
    }
    return { land, sea };
  });
}

test('the map a person would choose: the first view, counts, search, list, trail, basemap, URL state, dark mode', { timeout: 300_000 }, async () => {
  const s = await startMapSky();
  const browser = await launchChromium();
  try {
    // no view in the URL: the first view fits where the network's aircraft are (/v1/map/extent)
    const { page, outside } = await open(browser, s, '');
    const extent = (await (await fetch(`${s.base}/v1/map/extent`)).json()) as { box: [number, number, number, number] };
    const b = await page.evaluate(() => {
      const x = (window as any).__contrail.map.getBounds();
      return [x.getWest(), x.getSouth(), x.getEast(), x.getNorth()] as number[];
    });
    const [w, so, e, n] = extent.box;
    assert.ok(b[1]! <= so && b[3]! >= n, `the view ${b} holds the network's latitudes ${extent.box}`);
    assert.ok(b[0]! <= w + 0.01 && b[2]! >= (e < w ? e + 360 : e) - 0.01, `the view ${b} holds the network's longitudes ${extent.box}`);
    await page.screenshot({ path: join(SHOTS, 'map-first-view.png') });

    // counts: at each view the aircraft drawn are exactly those the API lists, and the status line says that many
    for (const view of [
      [47.5, 8.5, 6],
      [-33.9, 151.2, 9],
      [50, 10, 4],
    ] as const) {
      await page.evaluate(([lat, lon, z]) => (window as any).__contrail.map.setView([lat, lon], z, { animate: false }), view);
      await eventually(
        async () => assert.deepEqual(await hook<string[]>(page, 'drawnHexes'), (await expectedRecords(s, page)).map((a) => a.hex).sort()),
        15_000,
      );
      const drawn = await hook<string[]>(page, 'drawnHexes');
      const counts = await hook<{ inView: number; network: number }>(page, 'counts');
      assert.equal(counts.inView, drawn.length, `${view}: the count is what is drawn`);
      assert.match(await page.locator('.status').innerText(), new RegExp(`^${drawn.length.toLocaleString('en')} aircraft in view · [\\d,]+ in the network`));
      const now = (await (await fetch(`${s.base}/v1/now`)).json()) as { aircraft_with_pos: number };
      assert.equal(counts.network, now.aircraft_with_pos, "the network's count is /v1/now's");
    }
    await page.screenshot({ path: join(SHOTS, 'map-sydney-9.png') });

    // the offline basemap: coasts (land and sea both drawn) and place names, at Sydney and round Zurich
    await page.waitForFunction(() => (window as any).__contrail.basemap().ready);
    assert.equal((await hook<{ layer: string }>(page, 'basemap')).layer, 'offline');
    await page.evaluate(() => (window as any).__contrail.map.setView([-33.86, 151.2], 9, { animate: false }));
    await eventually(async () => {
      const c = await tileColours(page);
      assert.ok(c.land > 1000 && c.sea > 1000, `land ${c.land}, sea ${c.sea}: a coast in view`);
    }, 10_000);
    assert.ok((await hook<{ labels: string[] }>(page, 'basemap')).labels.includes('Sydney'), 'Sydney is named at zoom 9');
    await page.evaluate(() => (window as any).__contrail.map.setView([47, 8.5], 6, { animate: false }));
    const names = (await hook<{ labels: string[] }>(page, 'basemap')).labels;
    assert.ok(names.includes('SWITZERLAND') && names.includes('Zurich'), names.join(', '));
    await page.screenshot({ path: join(SHOTS, 'map-basemap-6.png') });

    // the list: the aircraft in view, sorted by a header's click, and a row's click selects on the map
    await page.evaluate(() => (window as any).__contrail.map.setView([47.5, 8.5], 6, { animate: false }));
    await eventually(async () => assert.deepEqual([...(await hook<string[]>(page, 'listOrder'))].sort(), await hook<string[]>(page, 'drawnHexes')), 10_000);
    await page.locator('table.list th[data-key="altitude"] button').click();
    const records = new Map((await expectedRecords(s, page)).map((a) => [a.hex, a]));
    const alt = (h: string) => (records.get(h)!.alt_baro === 'ground' ? 0 : (records.get(h)!.alt_baro ?? -1));
    await eventually(async () => {
      const order = await hook<string[]>(page, 'listOrder');
      for (let i = 1; i < order.length; i++) if (alt(order[i]!) >= 0) assert.ok(alt(order[i - 1]!) >= alt(order[i]!), `altitude descending at ${i}`);
      const shown = await page.locator('table.list tbody tr').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-hex')));
      assert.deepEqual(shown, order.slice(0, shown.length), 'the table shows that order');
    }, 5_000);
    assert.equal(await page.locator('table.list th[data-key="altitude"]').getAttribute('aria-sort'), 'descending');
    await page.locator('table.list tr[data-hex="4b1815"]').click();
    assert.equal(await hook<string>(page, 'selected'), '4b1815');
    await page.waitForFunction(() => (window as any).__contrail.trace()?.hex === '4b1815', undefined, { timeout: 10_000 });
    assert.match(await page.locator('#panel h2').innerText(), /SWR101 · 4b1815/);
    // and back: a click on the map marks its row
    await page.locator('#panel .close').click();
    await clickOn(page, 'aircraft', '4b1814');
    await page.locator('table.list tr.selected[data-hex="4b1814"]').waitFor({ timeout: 5_000 });
    assert.match(page.url(), /[?&]icao=4b1814/);
    // the trail is drawn (and has the trace's points), the details spell the type out
    await page.waitForFunction(() => (window as any).__contrail.trace()?.hex === '4b1814', undefined, { timeout: 10_000 });
    await page.locator('#panel .route dl').waitFor({ timeout: 10_000 });
    assert.match(await page.locator('#panel .live').innerText(), /A320 · Airbus A-320/);
    assert.match(await page.locator('#panel .route').innerText(), /route source\s+observed/);
    assert.equal(await page.locator('#panel a[href="/v1/airframes/4b1814"]').count(), 1);
    await page.evaluate(() => (window as any).__contrail.map.setView([47.5, 8.55], 11, { animate: false }));
    await page.screenshot({ path: join(SHOTS, 'map-list-trail.png') });

    // search by each key: hex, callsign, registration, squawk, type; each selects and centres its aircraft
    const sky = (await (await fetch(`${s.base}/v1/aircraft`)).json()) as { aircraft: Record<string, any>[] };
    const bySquawk = sky.aircraft.find((a) => a.squawk && a.lat !== undefined && sky.aircraft.filter((x) => x.squawk === a.squawk).length === 1)!;
    const byType = sky.aircraft.find((a) => a.t && a.lat !== undefined && a.t !== 'A320')!;
    for (const [text, hex] of [
      ['4b1815', '4b1815'],
      ['swr100', '4b1814'],
      ['HB-JLT', '4b1814'],
      [bySquawk.squawk, bySquawk.hex],
      [byType.t, byType.hex],
    ] as const) {
      await page
        .locator('#panel .close')
        .click()
        .catch(() => {});
      await page.locator('#search').fill(text);
      await page.locator('#search').press('Enter');
      // one hit selects at once; several are listed to pick from
      await page.waitForFunction((h) => (window as any).__contrail.selected() === h || !!document.querySelector(`.results li[data-hex="${h}"]`), hex, {
        timeout: 10_000,
      });
      if ((await hook<string | null>(page, 'selected')) !== hex) await page.locator(`.results li[data-hex="${hex}"]`).click();
      assert.equal(await hook<string>(page, 'selected'), hex, `search ${text}`);
      await eventually(async () => assert.ok(await hook(page, 'pointOf', 'aircraft', hex), `${text}: ${hex} is drawn in the centred view`), 10_000);
      const c = await page.evaluate(() => (window as any).__contrail.map.getCenter());
      const r = sky.aircraft.find((a) => a.hex === hex)!;
      if (hex !== '4b1814' && hex !== '4b1815')
        assert.ok(Math.abs(c.lat - r.lat) < 0.01 && Math.abs(((c.lng - r.lon + 540) % 360) - 180) < 0.01, `${text}: centred`);
    }
    await page.screenshot({ path: join(SHOTS, 'map-search.png') });

    // the military filter keeps only military addresses, and says so
    await page.evaluate(() => (window as any).__contrail.map.setView([30, 0], 2, { animate: false }));
    const mil = new Set(((await (await fetch(`${s.base}/v2/mil`)).json()) as { ac: { hex: string }[] }).ac.map((a) => a.hex));
    await page.locator('.filters summary').click();
    await page.locator('#f-mil').check();
    await eventually(async () => {
      const drawn = await hook<string[]>(page, 'drawnHexes');
      assert.ok(
        drawn.every((h) => mil.has(h)),
        drawn.join(','),
      );
      assert.match(await page.locator('.status').innerText(), /aircraft in view \(filtered\)/);
    }, 5_000);
    assert.match(page.url(), /[?&]mil=1/);
    assert.deepEqual(outside, [], 'no request leaves the host');
    await page.close();

    // URL state as tar1090's users write it: ?icao= selects and centres, a type filter and dark mode ride along
    const second = await open(browser, s, '?icao=4b1814&type=A320&theme=dark');
    await second.page.waitForFunction(() => (window as any).__contrail.selected() === '4b1814', undefined, { timeout: 15_000 });
    await eventually(async () => {
      const drawn = await hook<string[]>(second.page, 'drawnHexes');
      assert.ok(drawn.includes('4b1814'), 'the selected aircraft is drawn');
      for (const h of drawn) assert.equal(records.get(h)?.t ?? sky.aircraft.find((a) => a.hex === h)?.t, 'A320', h);
    }, 10_000);
    assert.ok(await second.page.evaluate(() => document.body.classList.contains('dark')), '?theme=dark is dark');
    // keys: D back to light, Escape closes the panel and clears the selection
    await second.page.locator('#map').click({ position: { x: 5, y: 300 } });
    await second.page.keyboard.press('d');
    assert.ok(!(await second.page.evaluate(() => document.body.classList.contains('dark'))), 'D turns it light');
    await second.page.keyboard.press('d');
    await second.page.waitForTimeout(500);
    await second.page.screenshot({ path: join(SHOTS, 'map-dark.png') });
    await second.page.keyboard.press('Escape');
    assert.equal(await hook(second.page, 'selected'), null);
    assert.ok(await second.page.locator('#panel').isHidden(), 'Escape closes the panel');
    await second.page.keyboard.press('/');
    assert.equal(await second.page.evaluate(() => document.activeElement?.id), 'search');
    assert.deepEqual(second.outside, [], 'no request leaves the host');

    // the stale banner takes its own strip: it never covers the zoom control
    s.clock.ms = T_END * 1000 + 61_000;
    await second.page.locator('#banner').waitFor({ state: 'visible', timeout: 15_000 });
    const [banner, zoom] = await Promise.all([second.page.locator('#banner').boundingBox(), second.page.locator('.leaflet-control-zoom').boundingBox()]);
    assert.ok(banner!.y + banner!.height <= zoom!.y, `the banner (${banner!.y}+${banner!.height}) ends above the zoom control (${zoom!.y})`);
    assert.match(await second.page.locator('#banner').innerText(), /^Live data is stale: .*\. The live snapshot is/);
    await second.page.screenshot({ path: join(SHOTS, 'map-stale-banner.png') });
  } finally {
    await browser.close();
    s.stop();
  }
});
