// the map's routes: the page, its bundled files (gzip when asked), nothing else under /map/, and the
// airport list (503 artifact_unavailable before the first build, then the build's airports)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { serve } from '../../helpers/http.ts';
import { mapRoutes } from '../../../server/handlers/map.ts';
import { HistoryStore } from '../../../server/history/history-store.ts';
import { makeFixture } from '../../helpers/publish-fixture.ts';

test('GET / is the page shell; /map/map.js, map.css and the basemap are served, gzip when asked', { timeout: 60_000 }, async () => {
  const s = await serve(mapRoutes({ history: new HistoryStore('') }));
  try {
    const page = await s.get('/');
    assert.equal(page.status, 200);
    assert.match(page.headers['content-type'] ?? '', /^text\/html/);
    assert.match(page.text, /<script src="\/map\/map\.js"><\/script>/);
    assert.doesNotMatch(page.text, /https?:\/\//, 'the page names no other host');
    const js = await s.get('/map/map.js', { headers: { 'accept-encoding': 'gzip' } });
    assert.equal(js.status, 200);
    assert.equal(js.headers['content-encoding'], 'gzip');
    assert.match(js.headers['content-type'] ?? '', /^text\/javascript/);
    assert.match(js.text, /__contrail/, 'the bundle is the map\'s own code');
    assert.match(js.text, /Leaflet/, 'with Leaflet bundled in');
    // as a browser asks: the brotli prepared at start, the same bytes once decoded
    const br = await s.get('/map/map.js', { headers: { 'accept-encoding': 'gzip, deflate, br' } });
    assert.equal(br.headers['content-encoding'], 'br');
    assert.equal(br.text, js.text);
    assert.ok(br.wireBytes < js.wireBytes, 'smaller than the gzip');
    const css = await s.get('/map/map.css');
    assert.match(css.text, /\.leaflet-container/, 'leaflet.css is inlined');
    const basemap = await s.get('/map/countries-50m.json');
    assert.equal(basemap.json.type, 'Topology');
    assert.ok(basemap.json.objects.land && basemap.json.objects.countries, 'basemap.json.objects.land && basemap.json.objects.countries');
    assert.match(page.headers['cache-control'] ?? '', /max-age=300/);
  } finally {
    s.close();
  }
});

test('anything else under /map/ is 404 in the section-7 shape: no file system path is reachable', async () => {
  const s = await serve(mapRoutes({ history: new HistoryStore('') }));
  try {
    for (const p of ['/map/nope.js', '/map/', '/map/..%2fpackage.json', '/map/../package.json', '/map/map.js/x', '/map/%2e%2e/server/main.ts']) {
      const r = await s.get(p);
      assert.ok(r.status === 404 || r.status === 422, `${p}: ${r.status}`);
      assert.equal(r.headers['cache-control'], 'no-store', p);
      assert.doesNotMatch(r.text, /"name"\s*:\s*"contrail"/, p);
    }
  } finally {
    s.close();
  }
});

test('/v1/map/airports: 503 artifact_unavailable without a build, then the build\'s airports', { timeout: 60_000 }, async () => {
  const none = await serve(mapRoutes({ history: new HistoryStore('') }));
  try {
    const r = await none.get('/v1/map/airports');
    assert.equal(r.status, 503);
    assert.equal(r.json.error, 'artifact_unavailable');
    assert.ok(r.headers['retry-after'], 'r.headers[\'retry-after\']');
  } finally {
    none.close();
  }
  const fx = await makeFixture(4, 6);
  const history = new HistoryStore(fx.root);
  history.refresh();
  const s = await serve(mapRoutes({ history }));
  try {
    const r = await s.get('/v1/map/airports', { schema: 'map-airports' });
    assert.equal(r.status, 200);
    assert.equal(r.json.build_id, 'b1');
    const zrh = r.json.airports.find((a: unknown[]) => a[0] === 'ZRH');
    assert.deepEqual(zrh.slice(0, 2), ['ZRH', 'LSZH']);
    // every listed airport has its document
    for (const [iata] of r.json.airports) assert.ok(existsSync(join(history.require().version.dir, `v1/airports/${iata}.gz`)), iata);
  } finally {
    s.close();
  }
});
