// fault injection on the whole app: the feed stopped, dated in the future, truncated, garbage,
// huge, deleted and restored; the history tree swapped while requests are in flight. the clock is
// driven by hand; the live routes are asked what a client would see.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync, writeFileSync } from 'node:fs';
import { httpGet } from '../helpers/http.ts';
import { NOW_MS, publishTree } from '../helpers/publish-fixture.ts';
import { startApp } from './app.ts';

test('the feed stops, then lies about its clock, then breaks in every way: never an empty sky, stale within 61 s, back at once', {
  timeout: 120_000,
}, async () => {
  let now = NOW_MS;
  const a = await startApp(() => now);
  const status = async (path = '/v1/now') => (await httpGet(`${a.base}${path}`)).status;
  try {
    assert.equal(await status(), 200);
    // stopped: 60 s later still live, 61 s later 503 on every live route, the trace included
    now += 60_000;
    assert.equal(await status(), 200);
    now += 1_000;
    for (const p of ['/v1/now', '/v1/aircraft', '/v2/point/50/8/25', '/v1/estimated', '/v1/trace/3c6444']) assert.equal(await status(p), 503, p);
    a.app.services.live.watch(now, (l) => a.logs.push(l));
    assert.ok(
      a.logs.some((l) => l.includes('feed has stopped updating')),
      "a.logs.some((l) => l.includes('feed has stopped updating'))",
    );
    // recovery: the next good snapshot is served at once
    await a.feedAt(now / 1000);
    assert.equal(await status(), 200);
    // a snapshot stamped an hour ahead is refused: when the feed then stops, 503 after 61 s, not after an hour
    await a.feedAt(now / 1000 + 3600);
    now += 61_000;
    assert.equal(await status(), 503);
    await a.feedAt(now / 1000);
    // truncated, garbage, empty, huge and deleted: the last good snapshot stays while fresh
    for (const bad of ['{"now": 17', '\u0000\u0001garbage', '', JSON.stringify({ now: now / 1000, aircraft: 'x'.repeat(70 * 1024 * 1024) })]) {
      writeFileSync(a.feed, bad);
      await a.app.services.feed!.pollOnce();
      assert.equal(await status(), 200, `after ${JSON.stringify(bad.slice(0, 12))}`);
    }
    rmSync(a.feed);
    await a.app.services.feed!.pollOnce();
    assert.equal(await status(), 200);
    for (const kind of ['invalid_json', 'too_large', 'read_error', 'future_now']) assert.ok(a.app.services.feed!.counters[kind]! >= 1, kind);
    now += 61_000;
    assert.equal(await status(), 503, 'a deleted feed goes stale like a stopped one');
    await a.feedAt(now / 1000);
    assert.equal(await status(), 200, 'restored');
  } finally {
    a.stop();
  }
});

test('the history tree swapped while requests are in flight: every answer is whole, none is a 5xx', { timeout: 120_000 }, async () => {
  const a = await startApp();
  try {
    const keys = ['/v1/airports/ZRH', '/v1/airports/LSZH', '/v1/routes?callsigns=SWR100', '/v1/airframes/4b1814'];
    const before = await Promise.all(keys.map((k) => httpGet(`${a.base}${k}`)));
    const inFlight = Array.from({ length: 200 }, (_, i) => httpGet(`${a.base}${keys[i % keys.length]}`));
    // a new build lands and the server switches to it mid-stream
    await publishTree(a.fx.log, a.fx.root, 'b2');
    a.app.services.history.refresh();
    const during = await Promise.all(inFlight);
    for (const r of during) {
      assert.ok(r.status < 500, `${r.status} ${r.text.slice(0, 100)}`);
      if (r.status === 200) JSON.parse(r.text);
    }
    const afterSwap = await Promise.all(keys.map((k) => httpGet(`${a.base}${k}`)));
    assert.deepEqual(
      afterSwap.map((r) => r.status),
      before.map((r) => r.status),
      'the same URLs answer the same way from the new build',
    );
    assert.equal(a.app.services.history.current?.version.id, 'b2');
  } finally {
    a.stop();
  }
});

test('a feed whose clock jumps an hour back is refused: the snapshot held is served while fresh, then 503 stale_snapshot, never an empty sky', {
  timeout: 120_000,
}, async () => {
  let now = NOW_MS;
  const a = await startApp(() => now);
  try {
    const before = await httpGet(`${a.base}/v1/aircraft`);
    assert.equal(before.status, 200);
    now += 10_000;
    await a.feedAt(now / 1000 - 3600);
    const held = await httpGet(`${a.base}/v1/aircraft`);
    assert.equal(held.status, 200);
    assert.equal(held.json.generated_at, before.json.generated_at, 'the snapshot held, not the one an hour back');
    assert.equal(held.json.aircraft.length, before.json.aircraft.length);
    assert.equal(a.app.services.feed!.counters.backwards_now, 1);
    assert.equal(a.logs.filter((l) => l.includes('backwards_now')).length, 1, a.logs.join('\n'));
    // more of the same: counted, not logged again; the held snapshot ages as usual
    now += 51_000;
    await a.feedAt(now / 1000 - 3600);
    assert.equal(a.app.services.feed!.counters.backwards_now, 2);
    assert.equal((await httpGet(`${a.base}/v1/aircraft`)).status, 503);
    const stale = await httpGet(`${a.base}/v1/now`);
    assert.equal(stale.status, 503);
    assert.equal(stale.json.error, 'stale_snapshot');
    assert.equal(a.logs.filter((l) => l.includes('backwards_now')).length, 1);
    // the decoder's clock fixed: the next snapshot is served at once
    await a.feedAt(now / 1000);
    assert.equal((await httpGet(`${a.base}/v1/now`)).status, 200);
  } finally {
    a.stop();
  }
});
