// /docs in headless Chromium (Debian's `chromium` package, driven by playwright-core; never a
// downloaded browser): every operation is listed, no warning or error box stands above them, one
// try-it-out call succeeds against the real /v1/now over a real prepared snapshot, and the page
// asks nothing of any other host.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { launchChromium } from '../../helpers/chromium.ts';
import { serve } from '../../helpers/http.ts';
import { parseFeed } from '../../../server/feed/parse.ts';
import { LiveState } from '../../../server/live/state.ts';
import { nowRoutes } from '../../../server/handlers/now.ts';
import { docsRoutes } from '../../../server/handlers/docs.ts';
import { loadCredits, CREDITS_DEFAULTS } from '../../../server/credits.ts';
import { OPERATIONS } from '../../../schemas/operations.ts';

process.env.TZ = 'UTC';

test('/docs in headless Chromium lists every operation, shows no warning box, and a try-it-out call to /v1/now answers 200', { timeout: 120_000 }, async () => {
  const parsed = parseFeed(readFileSync(new URL('../../fixtures/feed/readsb_sample.json', import.meta.url)));
  if (!parsed.ok) throw new Error(parsed.detail);
  const live = new LiveState();
  live.accept(parsed.snapshot, parsed.snapshot.now);
  let base = '';
  const routes = [
    ...nowRoutes({ live, stationCount: () => 3, archiveThrough: () => null }),
    ...docsRoutes({ baseUrl: () => base, credits: loadCredits(CREDITS_DEFAULTS) }),
  ];
  // the clock pinned 10 s after the snapshot: fresh, so /v1/now answers 200
  const s = await serve(routes, { clock: () => parsed.snapshot.now * 1000 + 10_000 });
  base = s.base;
  const browser = await launchChromium();
  try {
    const page = await browser.newPage();
    const requested: string[] = [];
    page.on('request', (r) => requested.push(r.url()));
    // the page's Content-Security-Policy (server/http/security.ts) must block nothing it needs
    const refused: string[] = [];
    page.on('console', (m) => /Content Security Policy|Refused to/.test(m.text()) && refused.push(m.text()));
    await page.goto(`${s.base}/docs`);
    await page.waitForSelector('.opblock-summary-path', { timeout: 60_000 });
    const listed = await page.$$eval('.opblock-get .opblock-summary-path', (els) => els.map((e) => e.getAttribute('data-path')));
    assert.deepEqual([...listed].sort(), OPERATIONS.map((o) => o.path).sort(), 'every operation is on the page');
    const blocks = await page.$$eval('.opblock-get', (els) => els.length);
    assert.equal(blocks, OPERATIONS.length);
    // each path's CORS preflight, under its own tag
    const preflights = await page.$$eval('.opblock-options .opblock-summary-path', (els) => els.map((e) => e.getAttribute('data-path')));
    assert.deepEqual([...preflights].sort(), OPERATIONS.map((o) => o.path).sort(), 'every preflight is on the page');
    // the document loaded whole: Swagger UI draws its warnings and its parser and resolver errors
    // in an .errors-wrapper box above the operations (a jsonSchemaDialect it does not support did)
    const boxes = await page.$$eval('.errors-wrapper, .errors, .loading-container .error', (els) => els.map((e) => (e as HTMLElement).innerText.trim()));
    assert.deepEqual(boxes, [], 'no warning or error box on /docs');
    assert.equal(await page.locator('.swagger-ui .information-container .title').count(), 1, 'the title of the document is shown');

    const op = page.locator('#operations-live-getNow');
    await op.locator('.opblock-summary-control').click();
    const tryOut = op.locator('button.try-out__btn');
    // tryItOutEnabled opens the form already; click only when the button still offers it
    if ((await tryOut.count()) && (await tryOut.innerText()).trim() === 'Try it out') await tryOut.click();
    await op.locator('button.execute').click();
    const code = op.locator('.live-responses-table .response .response-col_status').first();
    await code.waitFor({ timeout: 30_000 });
    assert.equal((await code.innerText()).trim().slice(0, 3), '200');
    const body = await op.locator('.live-responses-table .response-col_description pre').first().innerText();
    assert.equal(JSON.parse(body).aircraft_count, parsed.snapshot.aircraft.length);

    // the check can fail: the same page over the document as it was (the 2020-12 dialect URL) shows the box
    const before = await browser.newPage();
    await before.route(`${s.base}/openapi.json`, async (r) => {
      const doc = (await (await r.fetch()).json()) as Record<string, unknown>;
      await r.fulfill({ contentType: 'application/json', body: JSON.stringify({ ...doc, jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema' }) });
    });
    await before.goto(`${s.base}/docs`);
    await before.waitForSelector('.opblock-summary-path', { timeout: 60_000 });
    const warned = await before.$$eval('.errors-wrapper', (els) => els.map((e) => (e as HTMLElement).innerText));
    assert.match(warned.join(' '), /jsonSchemaDialect/, 'the box the old document drew');
    await before.close();

    const outside = requested.filter((u) => !u.startsWith(s.base + '/'));
    assert.deepEqual(outside, [], 'no CDN, no telemetry: every request goes to the server itself');
    assert.deepEqual(refused, [], 'the content security policy refused nothing');
    assert.ok(requested.includes(`${s.base}/openapi.json`), 'requested.includes(`${s.base}/openapi.json`)');
  } finally {
    await browser.close();
    s.close();
  }
});
