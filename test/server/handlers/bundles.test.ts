// /v1/bundles on the live server (real uWebSockets.js): the index validates, files download with
// immutable caching, and malformed or unknown names are a section-7 404.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bundleRoutes } from '../../../server/handlers/bundles.ts';
import { IMMUTABLE } from '../../../build/upload/headers.ts';
import { serve } from '../../helpers/http.ts';

const NAME = 'contrail-2026-11-21-0123456789ab.tar.gz';

test('the bundles index and files are served; bad names and a missing index answer 404', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'contrail-broute-'));
  const s = await serve(bundleRoutes(dir), { clock: () => Date.UTC(2026, 10, 22) });
  try {
    assert.equal((await s.get('/v1/bundles')).status, 404, 'no index yet');
    const index = { generated_at: '2026-11-22T03:00:00.000Z', license: 'ODbL-1.0', credits_url: '/v1/credits', bundles: [] };
    writeFileSync(join(dir, 'index.json'), JSON.stringify(index));
    mkdirSync(join(dir, 'daily'));
    writeFileSync(join(dir, 'daily', NAME), Buffer.from([0x1f, 0x8b, 1, 2, 3]));
    const i = await s.get('/v1/bundles', { schema: 'bundles-index' });
    assert.deepEqual(i.json, index);
    const f = await s.get(`/v1/bundles/daily/${NAME}`, { headers: { 'accept-encoding': 'gzip' } });
    assert.equal(f.status, 200);
    assert.equal(f.headers['content-type'], 'application/gzip');
    assert.equal(f.headers['cache-control'], IMMUTABLE);
    assert.equal(f.headers['content-encoding'], undefined);
    assert.equal(f.wireBytes, 5);
    for (const bad of [`/v1/bundles/weekly/${NAME}`, '/v1/bundles/daily/..%2Findex.json', '/v1/bundles/daily/contrail-2026-11-20-0123456789ab.tar.gz', `/v1/bundles/daily/${NAME.toUpperCase()}`]) {
      const r = await s.get(bad);
      assert.equal(r.status, 404, bad);
      assert.equal(r.json.error, 'not_found');
    }
  } finally {
    s.close();
  }
});
