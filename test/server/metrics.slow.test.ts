// /metrics on the whole app: what an operator graphs and alerts on, in the Prometheus text format.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { httpGet } from '../helpers/http.ts';
import { NOW_MS } from '../helpers/publish-fixture.ts';
import { startApp } from '../reliability/app.ts';

test('/metrics counts answers by route pattern and status, feed events by kind, and shows the snapshot and the build', async () => {
  const a = await startApp(() => NOW_MS + 2000, ['--rate-limits']);
  try {
    for (let i = 0; i < 3; i++) await httpGet(`${a.base}/v1/now`);
    await httpGet(`${a.base}/v1/trace/zzzzzz`);
    await httpGet(`${a.base}/v1/stations/2f1c6a1e-5b7d-4c2a-9e1f-0a1b2c3d4e5f`);
    writeFileSync(a.feed, '{"now": 17');
    await a.app.services.feed!.pollOnce();
    await a.app.metrics.render();
    const r = await httpGet(`${a.base}/metrics`);
    assert.equal(r.status, 200);
    assert.match(r.headers['content-type'] ?? '', /^text\/plain/);
    assert.equal(r.headers['cache-control'], 'no-store');
    const m = r.text;
    assert.match(m, /^contrail_http_requests_total\{route="\/v1\/now",status="200"\} 3$/m);
    assert.match(m, /^contrail_http_requests_total\{route="\/v1\/trace\/:hex",status="422"\} 1$/m);
    assert.match(m, /^contrail_snapshot_age_seconds 0$/m);
    assert.match(m, /^contrail_history_build_age_seconds 2$/m);
    assert.match(m, /^contrail_snapshot_aircraft 183$/m);
    assert.match(m, /^contrail_feed_events\{kind="invalid_json"\} 1$/m);
    assert.match(m, /^contrail_history_build_info\{build="b1"\} 1$/m);
    assert.match(m, /^contrail_http_request_seconds_bucket\{le="0\.1",route="\/v1\/now"\} 3$/m);
    // the ingest thread's time per step, and the serving thread's event-loop delay
    for (const step of ['parse', 'prepare', 'compress']) assert.match(m, new RegExp(`^contrail_ingest_seconds\\{step="${step}"\\} \\d`, 'm'));
    assert.match(m, /^contrail_event_loop_stall_seconds\{thread="0",stat="max"\} \d/m);
    assert.match(m, /^contrail_event_loop_stall_seconds\{thread="0",stat="p99"\} \d/m);
    // the server's own work on the snapshot it took, apart from the loop's delay: more than nothing
    for (const step of ['arrival', 'follower_slice']) {
      const v = Number(new RegExp(`^contrail_snapshot_blocking_seconds\\{thread="0",step="${step}"\\} (\\S+)$`, 'm').exec(m)?.[1]);
      assert.ok(v > 0 && v < 5, `${step}: ${v} s`);
    }
    // labels are route patterns: no path, so no station UUID, and no client address
    assert.ok(!m.includes('2f1c6a1e') && !m.includes('127.0.0.1'), "!m.includes('2f1c6a1e') && !m.includes('127.0.0.1')");
  } finally {
    a.stop();
  }
});
