// the researchers' data on the live server (real uWebSockets.js, real files from the bundle step):
// the index validates, the Parquet files and texts answer HEAD and byte ranges exactly, and any
// path outside the closed layout is a section-7 404 that never reaches the disk.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { bundleRoutes, fileOfParams } from '../../../server/handlers/bundles.ts';
import { writeBundles } from '../../../build/bundle/bundle.ts';
import { localFile } from '../../../build/bundle/index-file.ts';
import { DATA_CACHE, PARQUET_TYPE, TEXT_TYPE } from '../../../artifacts/bundles.ts';
import { policyFor } from '../../../schemas/policy.ts';
import { DAYS, makeFixture, NOW_MS } from '../../helpers/publish-fixture.ts';
import { serve } from '../../helpers/http.ts';
import { checkRanges, malformedBundlePaths } from '../../helpers/ranges.ts';

process.env.TZ = 'UTC';

test('the index, the day files, the tables and the texts are served; ranges come back exactly', async () => {
  const fx = await makeFixture();
  const out = join(fx.dir, 'bundles');
  const { index } = await writeBundles({ log: fx.log, root: fx.root, out, nowMs: NOW_MS });
  // a file the layout does not name, beside the real ones: never served
  writeFileSync(join(out, 'secret.txt'), 'not public');
  const s = await serve(bundleRoutes(out), { clock: () => NOW_MS });
  try {
    const i = await s.get('/v1/bundles', { schema: 'bundles-index' });
    assert.deepEqual(i.json, index);
    assert.equal(i.headers['cache-control'], policyFor('docs').cache);
    for (const e of [...index.log, ...index.tables]) {
      const f = await s.get(e.path);
      assert.equal(f.status, 200, e.path);
      assert.equal(f.headers['content-type'], PARQUET_TYPE);
      assert.equal(f.headers['cache-control'], DATA_CACHE);
      assert.deepEqual(f.body, readFileSync(localFile(out, e)), e.path);
    }
    await checkRanges(`${s.base}${index.log[0]!.path}`, readFileSync(localFile(out, index.log[0]!)));
    await checkRanges(`${s.base}/v1/bundles/tables/airframes.parquet`, readFileSync(join(out, 'tables/airframes.parquet')));
    for (const d of index.docs) {
      const t = await s.get(d.path);
      assert.equal(t.status, 200, d.path);
      assert.equal(t.headers['content-type'], TEXT_TYPE);
      assert.equal(t.text, readFileSync(localFile(out, d), 'utf8'));
    }
    const bad = malformedBundlePaths(DAYS[0]!);
    for (const path of bad) {
      const r = await s.get(path);
      assert.equal(r.status, 404, path);
      assert.equal(r.json.error, 'not_found', path);
      assert.ok(!r.text.includes('not public'), path);
    }
  } finally {
    s.close();
  }
});

test('the layout is closed: only day=<a real date>, the three tables and the four texts name a file', () => {
  assert.equal(fileOfParams({ partition: 'day=2026-11-21' }), 'log/day=2026-11-21/legs.parquet');
  assert.equal(fileOfParams({ partition: 'day=2024-02-29' }), 'log/day=2024-02-29/legs.parquet');
  for (const partition of [
    'day=2026-02-29',
    'day=2026-1-01',
    'day=..',
    'day=2026-11-21/..',
    ' day=2026-11-21',
    'day=2026-11-21\u0000',
    'DAY=2026-11-21',
    '2026-11-21',
  ])
    assert.equal(fileOfParams({ partition }), null, partition);
  assert.equal(fileOfParams({ table: 'routes.parquet' }), 'tables/routes.parquet');
  for (const table of ['routes', 'ROUTES.parquet', '../routes.parquet', '']) assert.equal(fileOfParams({ table }), null, table);
  assert.equal(fileOfParams({ doc: 'CREDITS' }), 'CREDITS');
  for (const doc of ['credits', 'index.json', '..', '']) assert.equal(fileOfParams({ doc }), null, doc);
});

test('without a bundles folder, or before the first build, everything is a section-7 404', async () => {
  const fx = await makeFixture(3, 2);
  const empty = join(fx.dir, 'empty');
  mkdirSync(empty);
  for (const dir of ['', empty]) {
    const s = await serve(bundleRoutes(dir), { clock: () => NOW_MS });
    try {
      for (const path of ['/v1/bundles', `/v1/bundles/log/day=${DAYS[0]}/legs.parquet`, '/v1/bundles/tables/routes.parquet', '/v1/bundles/README']) {
        const r = await s.get(path, { headers: { range: 'bytes=0-3' } });
        assert.equal(r.status, 404, `${dir || 'none'} ${path}`);
        assert.equal(r.json.error, 'not_found');
      }
    } finally {
      s.close();
    }
  }
});
