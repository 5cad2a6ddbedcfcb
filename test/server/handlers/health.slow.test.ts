// /healthz and /readyz for load balancers: liveness always, readiness only when every part the process
// is configured to serve (the live feed, the history tree) serves.
import { test } from 'node:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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

test('readiness follows the configuration: a live-only replica (no --artifacts) is ready while its feed is fresh; healthz names each part and its state', async () => {
  let now = NOW_MS;
  const a = await startApp(() => now, ['--artifacts', '']);
  try {
    const h = await httpGet(`${a.base}/healthz`, { schema: 'health' });
    assert.deepEqual(h.json.parts, { live: { configured: true, state: 'fresh' }, history: { configured: false, state: 'not_configured' } });
    const r = await httpGet(`${a.base}/readyz`, { schema: 'health' });
    assert.equal(r.status, 200, 'ready with no history configured');
    // its history routes answer 503 as ever: readiness says what it serves, not that history is there
    assert.equal((await httpGet(`${a.base}/v1/airports/ZRH`)).status, 503);
    now += 61_000;
    const stale = await httpGet(`${a.base}/readyz`);
    assert.deepEqual([stale.status, stale.json.error], [503, 'stale_snapshot']);
    assert.equal((await httpGet(`${a.base}/healthz`, { schema: 'health' })).json.parts.live.state, 'stale');
  } finally {
    a.stop();
  }
});

test('readiness follows the configuration: a history-only process (no --feed) is ready once a build is loaded; with both, a missing build is not ready', async () => {
  const history = await startApp(undefined, ['--feed', '']);
  try {
    const h = await httpGet(`${history.base}/healthz`, { schema: 'health' });
    assert.deepEqual(h.json.parts, { live: { configured: false, state: 'not_configured' }, history: { configured: true, state: 'loaded' } });
    assert.equal((await httpGet(`${history.base}/readyz`, { schema: 'health' })).status, 200);
  } finally {
    history.stop();
  }
  const empty = mkdtempSync(join(tmpdir(), 'contrail-empty-tree-'));
  const both = await startApp(undefined, ['--artifacts', empty]);
  try {
    const r = await httpGet(`${both.base}/readyz`);
    assert.deepEqual([r.status, r.json.error], [503, 'artifact_unavailable']);
    assert.deepEqual((await httpGet(`${both.base}/healthz`, { schema: 'health' })).json.parts.history, { configured: true, state: 'unavailable' });
  } finally {
    both.stop();
    rmSync(empty, { recursive: true, force: true });
  }
  const neither = await startApp(undefined, ['--feed', '', '--artifacts', '']);
  try {
    const r = await httpGet(`${neither.base}/readyz`);
    assert.deepEqual([r.status, r.json.error], [503, 'stale_snapshot'], 'a process configured to serve nothing is never ready');
  } finally {
    neither.stop();
  }
});
