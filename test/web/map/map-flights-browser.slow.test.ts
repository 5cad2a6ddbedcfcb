// the map's flight-log panels in headless Chromium (issue 44 item 5), against the whole app over a
// published tree with flights and movements and the clock pinned: a clicked airframe lists its days
// (its legs' dates), a day draws each flight's track (the layer's state and the canvas's pixels)
// with its take-off and landing labelled with airport and runway and lists the flights, a refused
// day is said in words, and a clicked airport shows yesterday's (UTC) movements with the runway in
// use. screenshots go to a temporary folder whose path the test prints.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { launchChromium } from '../../helpers/chromium.ts';
import { startMapSky, STORY_RUNWAYS, T_END } from '../../helpers/map-sky.ts';

process.env.TZ = 'UTC';
const SHOTS = mkdtempSync(join(tmpdir(), 'contrail-map-flights-screenshots-'));
console.log(`map flights screenshots: ${SHOTS}`);

const hook = <T>(page: Page, fn: string, ...args: unknown[]): Promise<T> =>
  page.evaluate(([f, a]) => (window as any).__contrail[f as string](...(a as unknown[])), [fn, args] as const);

async function clickOn(page: Page, kind: string, id: string): Promise<void> {
  const p = await hook<{ x: number; y: number } | null>(page, 'pointOf', kind, id);
  assert.ok(p, `${kind} ${id} is drawn`);
  await page.mouse.click(p.x, p.y);
}

/** how many pixels near the screen point (a 7 px square) are the flight line's violet, over every canvas the map draws */
function violetNear(page: Page, lat: number, lon: number): Promise<number> {
  return page.evaluate(
    ([lat, lon]) => {
      const c = (window as any).__contrail;
      const p = c.map.latLngToContainerPoint([lat, lon]);
      const box = c.map.getContainer().getBoundingClientRect();
      const [x, y] = [box.left + p.x, box.top + p.y];
      let n = 0;
      for (const cv of document.querySelectorAll<HTMLCanvasElement>('#map canvas')) {
        const r = cv.getBoundingClientRect();
        if (x < r.left || x >= r.right || y < r.top || y >= r.bottom || !r.width) continue;
        const [sx, sy] = [cv.width / r.width, cv.height / r.height];
        // the aircraft layer's canvas is drawn by the sky worker (transferred offscreen): it holds no flight line
        let ctx: CanvasRenderingContext2D | null;
        try {
          ctx = cv.getContext('2d');
        } catch {
          continue;
        }
        const d = ctx!.getImageData(Math.round((x - r.left) * sx) - 3, Math.round((y - r.top) * sy) - 3, 7, 7).data;
        // the line's colour (#7a3cc7 at 0.85 opacity) over any basemap colour: far more blue than green
        for (let i = 0; i < d.length; i += 4) if (d[i + 3]! > 0 && d[i + 2]! - d[i + 1]! > 80 && d[i]! < 190) n++;
      }
      return n;
    },
    [lat, lon] as const,
  );
}

test("the map's flight log: an airframe's days, a day's tracks with take-off and landing, an error in words, an airport's movements", {
  timeout: 240_000,
}, async () => {
  const s = await startMapSky();
  const browser = await launchChromium();
  try {
    const page = await browser.newPage({ viewport: { width: 1200, height: 800 } });
    const outside: string[] = [];
    page.on(
      'request',
      (r) =>
        !r.url().startsWith(s.base + '/') && !r.url().startsWith(s.base.replace('http', 'ws') + '/') && !r.url().startsWith('data:') && outside.push(r.url()),
    );
    await page.goto(`${s.base}/#10/47.5/8.55`);
    await page.waitForFunction(() => (window as any).__contrail?.drawnHexes().includes('4b1814'), undefined, { timeout: 30_000 });

    // the airframe's days: its legs' dates, newest first
    const frame = (await (await fetch(`${s.base}/v1/airframes/4b1814`)).json()) as { legs: { date: string }[] };
    const days = [...new Set(frame.legs.map((l) => l.date))].sort().reverse();
    assert.ok(days.length >= 2, `the fixture airframe has days: ${days}`);
    await clickOn(page, 'aircraft', '4b1814');
    await page.locator('#panel .flights button.flight-day').first().waitFor({ timeout: 10_000 });
    assert.deepEqual(await page.locator('#panel .flights button.flight-day').allInnerTexts(), days);
    assert.equal(await hook(page, 'flights'), null, 'nothing is drawn before a day is picked');

    // a day: its flights drawn (one line per flight, every track point) and listed, the ends labelled
    const day = days[0]!;
    const doc = (await (await fetch(`${s.base}/v1/flights/4b1814/${day}`)).json()) as {
      flights: { callsign: string | null; track: [number, number, number][]; departure: unknown; arrival: unknown; route_source: string }[];
    };
    assert.ok(doc.flights.length > 0, 'the fixture airframe flew that day');
    await page.locator(`#panel button.flight-day[data-date="${day}"]`).click();
    await page.locator('#panel table.flights tbody tr').first().waitFor({ timeout: 10_000 });
    const shown = await hook<{ hex: string; date: string; lines: { points: [number, number][] }[] }>(page, 'flights');
    assert.equal(shown.hex, '4b1814');
    assert.equal(shown.date, day);
    assert.deepEqual(
      shown.lines.map((l) => l.points.length),
      doc.flights.map((f) => f.track.length),
      'each flight is one line with all its track points',
    );
    assert.equal(await page.locator('#panel table.flights tbody tr').count(), doc.flights.length);
    assert.equal(await page.locator(`#panel button.flight-day[data-date="${day}"]`).getAttribute('aria-pressed'), 'true');
    const own = await page.locator('#panel table.flights tbody tr', { hasText: 'SWR100' }).first().locator('td').allInnerTexts();
    assert.deepEqual([own[0], own[1], own[5]], ['SWR100', 'ZRH → LHR', STORY_RUNWAYS['4b1814'].join(' / ')]);
    assert.ok(['observed', 'observed+catalog', 'catalog'].includes(own[2]!), own[2]);
    const takeoffs = await page.locator('.leaflet-tooltip.flight-takeoff').allInnerTexts();
    const landings = await page.locator('.leaflet-tooltip.flight-landing').allInnerTexts();
    assert.equal(takeoffs.length, doc.flights.filter((f) => f.departure).length, 'one take-off mark per heard take-off');
    assert.equal(landings.length, doc.flights.filter((f) => f.arrival).length, 'one landing mark per heard landing');
    assert.ok(
      takeoffs.some((t) => /^take-off \d\d:\d\d:\d\dZ LSZH rwy 16$/.test(t)),
      takeoffs.join(' | '),
    );
    assert.ok(
      landings.some((t) => /^landing \d\d:\d\d:\d\dZ EGLL rwy 27R$/.test(t)),
      landings.join(' | '),
    );
    // the line is really drawn: violet pixels halfway along SWR100's track, none far off it
    const swr = doc.flights.findIndex((f) => f.callsign === 'SWR100');
    const pts = shown.lines[swr]!.points;
    const [a, b] = [pts[1]!, pts[2]!];
    await page.waitForTimeout(300);
    const mid = await page.evaluate(
      ([a, b]) => {
        const m = (window as any).__contrail.map;
        const [p, q] = [m.latLngToContainerPoint(a), m.latLngToContainerPoint(b)];
        const c = m.containerPointToLatLng([(p.x + q.x) / 2, (p.y + q.y) / 2]);
        return [c.lat, c.lng] as [number, number];
      },
      [a, b] as const,
    );
    assert.ok((await violetNear(page, mid[0], mid[1])) > 3, 'the track is drawn on the map');
    // fitted into what the panel leaves visible: every drawn point is left of the panel
    const panelLeft = (await page.locator('#panel').boundingBox())!.x;
    const xs = await page.evaluate(
      (lines) =>
        lines.flatMap((l) =>
          l.points.map(
            (p) => (window as any).__contrail.map.latLngToContainerPoint(p).x + (window as any).__contrail.map.getContainer().getBoundingClientRect().left,
          ),
        ),
      shown.lines,
    );
    assert.ok(Math.max(...xs) < panelLeft, `the tracks (rightmost ${Math.max(...xs)} px) are not under the panel (from ${panelLeft} px)`);
    assert.equal(await violetNear(page, mid[0] + 3, mid[1] + 6), 0, 'and nothing violet well off the track');
    await page.screenshot({ path: join(SHOTS, 'map-flights-day.png') });

    // a day the server refuses: said in words (the server's own 404 not_observed for a day the log does not hold)
    const refused = await fetch(`${s.base}/v1/flights/4b1814/2026-11-01`);
    assert.equal(refused.status, 404);
    const body = await refused.text();
    assert.equal((JSON.parse(body) as { error: string }).error, 'not_observed');
    const other = days[1]!;
    await page.route(`**/v1/flights/4b1814/${other}`, (r) => r.fulfill({ status: 404, contentType: 'application/json', body }));
    await page.locator(`#panel button.flight-day[data-date="${other}"]`).click();
    await page.locator('#panel .day-flights p.none').waitFor({ timeout: 10_000 });
    assert.equal(await page.locator('#panel .day-flights').innerText(), `The network heard no flight of this airframe on ${other} (UTC).`);
    assert.equal(await hook(page, 'flights'), null, "the previous day's tracks are gone");
    // leaflet fades a removed tooltip out before it takes the element away (200 ms): wait that out, then count
    await page.waitForFunction(() => document.querySelectorAll('.leaflet-tooltip.flight-takeoff').length === 0, null, { timeout: 5_000 }).catch(() => {});
    assert.equal(await page.locator('.leaflet-tooltip.flight-takeoff').count(), 0, "the previous day's take-off labels are gone");

    // the panel closed: nothing of the flight log stays drawn
    await page.locator(`#panel button.flight-day[data-date="${day}"]`).click();
    await page.waitForFunction(() => (window as any).__contrail.flights() !== null, undefined, { timeout: 10_000 });
    await page.locator('#panel .close').click();
    assert.equal(await hook(page, 'flights'), null, 'closing the panel clears the tracks');

    // an airport: yesterday's (UTC) movements, the runway in use, counts per runway, a scrolling list
    const yesterday = new Date((Math.floor(T_END / 86400) - 1) * 86400_000).toISOString().slice(0, 10);
    const moves = (await (await fetch(`${s.base}/v1/airports/ZRH/movements/${yesterday}`)).json()) as {
      movements: { kind: string; callsign: string | null; runway: string | null }[];
      counts: { runways: Record<string, { takeoffs: number; landings: number }> };
    };
    assert.ok(moves.movements.length > 0, 'the fixture has movements at ZRH yesterday');
    await page.evaluate(() => (window as any).__contrail.map.setView([47.5, 8.55], 10, { animate: false }));
    await page.waitForFunction(() => (window as any).__contrail.drawnAirports().includes('ZRH'), undefined, { timeout: 10_000 });
    await clickOn(page, 'airport', 'ZRH');
    await page.locator('#panel .day-moves table.movements').waitFor({ timeout: 10_000 });
    assert.equal(await page.locator('#panel .day-moves h3').textContent(), `Movements on ${yesterday} (UTC, yesterday)`);
    assert.equal(await page.locator('#panel .day-moves table.movements tbody tr').count(), moves.movements.length);
    const [takeoffRwy, landingRwy] = [STORY_RUNWAYS['4b1814'][0], STORY_RUNWAYS['4b1815'][1]];
    assert.equal(await page.locator('#panel .day-moves .in-use').innerText(), `Runway in use: take-offs on ${takeoffRwy}, landings on ${landingRwy}.`);
    const runways = await page.locator('#panel .day-moves table.runways tbody tr td:first-child').allInnerTexts();
    assert.deepEqual([...runways].sort(), Object.keys(moves.counts.runways).sort());
    const row = await page.locator('#panel .day-moves table.movements tbody tr', { hasText: 'SWR100' }).first().locator('td').allInnerTexts();
    assert.match(row[0]!, /^\d\d:\d\d$/);
    assert.match(row[1]!, /^\d\d:\d\dZ$/);
    assert.deepEqual(row.slice(2, 5), ['take-off', 'SWR100', takeoffRwy]);
    assert.match(row[5]!, /^to LHR · (observed|observed\+catalog|catalog)$/);
    assert.equal(await page.locator('#panel .day-moves .scroll').evaluate((e) => getComputedStyle(e).overflowY), 'auto');
    // the totals and boards are still there beside the movements
    await page.locator('#panel .airport table.board').first().waitFor({ timeout: 10_000 });
    await page.screenshot({ path: join(SHOTS, 'map-airport-movements.png') });
    await page.locator('#panel .day-moves').scrollIntoViewIfNeeded();
    await page.locator('#panel .day-moves').screenshot({ path: join(SHOTS, 'map-airport-movements-list.png') });
    assert.deepEqual(outside, [], 'every request goes to the server itself');
  } finally {
    await browser.close();
    s.stop();
  }
});
