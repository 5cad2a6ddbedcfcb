// /healthz and /readyz for load balancers: liveness always, readiness only when both halves serve.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { httpGet } from '../../helpers/http.ts';
import { startApp } from '../../reliability/app.ts';
import { NOW_MS } from '../../helpers/publish-fixture.ts';

test('healthz always answers; readyz is 200 only with a fresh snapshot and a loaded build; neither is limited or cached', async () => {
  let now = NOW_MS;
  const a = await startApp(() => now, ['--rate-limits']);
  try {
    const h = await httpGet(`${a.base}/healthz`, { schema: 'health' });
    assert.equal(h.status, 200);
    assert.equal(h.headers['cache-control'], 'no-store');
    assert.equal(h.headers['ratelimit-limit'], undefined, 'outside the rate limits');
    assert.ok(h.json.history_build, 'h.json.history_build');
    assert.equal((await httpGet(`${a.base}/readyz`, { schema: 'health' })).status, 200);
    for (let i = 0; i < 700; i++) assert.equal((await httpGet(`${a.base}/healthz`)).status, 200, `probe ${i}`);
    now += 61_000;
    assert.equal((await httpGet(`${a.base}/healthz`)).status, 200, 'alive, if not ready');
    const r = await httpGet(`${a.base}/readyz`);
    assert.deepEqual([r.status, r.json.error], [503, 'stale_snapshot']);
  } finally {
    a.stop();
  }
});

