// the demo's first minute: the simulated live feed (served over loopback HTTP with the demo's
// catch-up) read by the real server app (real feed poller, estimator and uWebSockets.js routes,
// in this process so the clock can be pinned). the server reads the feed once a second, so the
// catch-up's read count is its time to the present in seconds; by then /v1/estimated must list
// aircraft that went quiet while cruising. and the feed itself must keep a silent aircraft the
// 60 s readsb does, with `seen` counting up.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { createApp } from '../../server/app.ts';
import { loadServerConfig } from '../../server/config.ts';
import { DEMO_CATCH_UP_S } from '../../sim/demo.ts';
import { feedAt, RETAIN_S } from '../../sim/feed.ts';
import { liveFlights } from '../../sim/sky.ts';
import { startLive } from '../../sim/live.ts';
import { httpGet } from '../helpers/http.ts';
import { T, testSky } from './world.ts';

process.env.TZ = 'UTC';
const dirs: string[] = [];
after(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

describe('demo estimates in the first minute', () => {
  it("lists estimated aircraft once the live feed has caught up, within 60 reads (60 s at the server's one read a second)", async () => {
    const sky = testSky(600);
    let nowMs = T * 1000;
    const clock = () => nowMs;
    const live = startLive(sky, { out: '', feeders: '', http: 'any', intervalMs: 1000, offsetMs: 0, catchUpS: DEMO_CATCH_UP_S }, clock);
    const dir = mkdtempSync(join(tmpdir(), 'contrail-sim-est-'));
    dirs.push(dir);
    const { config } = loadServerConfig(
      [
        '--port',
        '0',
        '--feed',
        `http://127.0.0.1:${await live.port}/aircraft.json`,
        '--artifacts',
        join(dir, 'artifacts'),
        '--state',
        join(dir, 'state'),
        '--no-rate-limits',
      ],
      {},
    );
    const app = await createApp(config, { log: () => {}, clock, poll: false });
    try {
      let reads = 0;
      while (!live.caughtUp && reads < 500) {
        await app.services.feed!.pollOnce();
        reads++;
        nowMs += 1000;
      }
      // the first snapshot of the present
      await app.services.feed!.pollOnce();
      assert.equal(live.caughtUp, true);
      assert.equal(app.services.feed!.accepted, reads + 1, 'the server took every snapshot of the catch-up');
      assert.ok(reads <= 60, `${reads} reads (${live.catchUpSnapshots} catch-up snapshots) to reach the present`);
      // the snapshot goes live once its gzip is made
      for (let i = 0; i < 200 && (app.services.live.ageS(nowMs) ?? Infinity) > 5; i++) await new Promise((r) => setTimeout(r, 10));

      const base = `http://127.0.0.1:${app.port}`;
      const est = await httpGet(`${base}/v1/estimated`, { schema: 'estimated' });
      assert.equal(est.status, 200);
      const listed = est.json.aircraft as { hex: string; last_seen: { at: number } }[];
      assert.ok(listed.length >= 1, 'no estimated aircraft after the catch-up');
      const heard = new Set(((await httpGet(`${base}/v1/aircraft`, { schema: 'aircraft-list' })).json.aircraft as { hex: string }[]).map((a) => a.hex));
      for (const a of listed) {
        assert.ok(!heard.has(a.hex), `${a.hex} is estimated and heard at once`);
        const quietFor = nowMs / 1000 - a.last_seen.at;
        assert.ok(quietFor >= 90 && quietFor <= DEMO_CATCH_UP_S + 60, `${a.hex} last heard ${quietFor} s ago`);
      }
    } finally {
      app.stop();
      live.stop();
    }
  });

  it('keeps an aircraft that fell silent in the feed for 60 s with its last values, seen counting up, then drops it', () => {
    const sky = testSky(600);
    const flightOf = liveFlights(sky);
    // find an aircraft heard at one second and not at the next, still flying
    let found: { hex: string; at: number } | null = null;
    for (let t = T; t < T + 3600 && !found; t += 10) {
      const a = new Set(
        feedAt(sky, t, flightOf)
          .aircraft.filter((r) => (r.seen as number) < 3)
          .map((r) => r.hex as string),
      );
      const b = feedAt(sky, t + 10, flightOf).aircraft.filter((r) => a.has(r.hex as string) && (r.seen as number) >= 8);
      if (b.length) found = { hex: b[0]!.hex as string, at: t + 10 };
    }
    assert.ok(found, 'no aircraft went quiet in an hour');
    const rec = (t: number) => feedAt(sky, t, flightOf).aircraft.find((r) => r.hex === found!.hex);
    const first = rec(found.at)!;
    const later = rec(found.at + 30)!;
    assert.ok(later, 'listed 30 s later');
    assert.equal(later.lat, first.lat, 'the last position is kept');
    assert.equal(Math.round(((later.seen as number) - (first.seen as number)) * 10) / 10, 30);
    const lastHeard = found.at - (first.seen as number);
    assert.equal(rec(Math.ceil(lastHeard) + RETAIN_S + 3), undefined, 'gone once 60 s have passed');
  });
});
