// the map's routes: the page, its bundled files (gzip when asked), nothing else under /map/, the
// airport list (503 artifact_unavailable before the first build, then the build's airports), the
// basemap configuration, the types' silhouettes and the network's extent
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { serve } from '../../helpers/http.ts';
import { unpackBasemap } from '../../../lib/basemap-pack.ts';
import { mapRoutes } from '../../../server/handlers/map.ts';
import { HistoryStore } from '../../../server/history/history-store.ts';
import { makeFixture } from '../../helpers/publish-fixture.ts';
import { parseFeed } from '../../../server/feed/parse.ts';
import { LiveState } from '../../../server/live/state.ts';

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
    assert.match(js.text, /__contrail/, "the bundle is the map's own code");
    assert.match(js.text, /Leaflet/, 'with Leaflet bundled in');
    // as a browser asks: the brotli prepared at start, the same bytes once decoded
    const br = await s.get('/map/map.js', { headers: { 'accept-encoding': 'gzip, deflate, br' } });
    assert.equal(br.headers['content-encoding'], 'br');
    assert.equal(br.text, js.text);
    assert.ok(br.wireBytes < js.wireBytes, 'smaller than the gzip');
    const css = await s.get('/map/map.css');
    assert.match(css.text, /\.leaflet-container/, 'leaflet.css is inlined');
    const basemap = await s.get('/map/basemap-10m.json');
    assert.equal(basemap.json.type, 'Topology');
    assert.ok(basemap.json.objects.land && basemap.json.objects.countries, 'basemap.json.objects.land && basemap.json.objects.countries');
    // its committed gzip goes out as it is, and decodes to the same bytes
    const gzBasemap = await s.get('/map/basemap-10m.json', { headers: { 'accept-encoding': 'gzip, br' } });
    assert.equal(gzBasemap.headers['content-encoding'], 'gzip');
    assert.equal(gzBasemap.text, basemap.text);
    // the packed basemap the page reads: the TopoJSON's arcs, point for point
    const packed = await s.get('/map/basemap-10m.bin', { headers: { 'accept-encoding': 'gzip' } });
    assert.equal(packed.headers['content-encoding'], 'gzip');
    assert.match(packed.headers['content-type'] ?? '', /^application\/octet-stream/);
    const u = unpackBasemap(new Uint8Array(packed.body));
    assert.equal(u.start.length - 1, basemap.json.arcs.length);
    assert.equal(u.deltas.length, 2 * basemap.json.arcs.reduce((n: number, a: unknown[]) => n + a.length, 0));
    const places = await s.get('/map/places.json');
    assert.ok(
      places.json.places.some((p: unknown[]) => p[0] === 'Switzerland' && p[3] === 'country'),
      'country names',
    );
    assert.ok(
      places.json.places.some((p: unknown[]) => p[0] === 'Sydney' && p[3] === 'city'),
      'city names',
    );
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

test("/v1/map/airports: 503 artifact_unavailable without a build, then the build's airports", { timeout: 60_000 }, async () => {
  const none = await serve(mapRoutes({ history: new HistoryStore('') }));
  try {
    const r = await none.get('/v1/map/airports');
    assert.equal(r.status, 503);
    assert.equal(r.json.error, 'artifact_unavailable');
    assert.ok(r.headers['retry-after'], "r.headers['retry-after']");
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
    assert.deepEqual(zrh.slice(4), ['', ''], 'no names given: kind and name empty');
    // every listed airport has its document
    for (const [iata] of r.json.airports) assert.ok(existsSync(join(history.require().version.dir, `v1/airports/${iata}.gz`)), iata);
  } finally {
    s.close();
  }
  // with the reference data's names, kind and name ride along
  const named = await serve(mapRoutes({ history, airportNames: new Map([['ZRH', { kind: 'large_airport', name: 'Zürich Airport' }]]) }));
  try {
    const r = await named.get('/v1/map/airports', { schema: 'map-airports' });
    assert.deepEqual(r.json.airports.find((a: unknown[]) => a[0] === 'ZRH').slice(4), ['large_airport', 'Zürich Airport']);
  } finally {
    named.close();
  }
});

test('/v1/map/config: the configured tiles (or null offline) and the bundled basemap, both files served', async () => {
  const tiles = { name: 'OpenStreetMap', url: 'https://tile.openstreetmap.org/{z}/{x}/{y}.png', attribution: '&copy; OpenStreetMap contributors' };
  for (const t of [tiles, null]) {
    const s = await serve(mapRoutes({ history: new HistoryStore(''), tiles: t }));
    try {
      const r = await s.get('/v1/map/config', { schema: 'map-config' });
      assert.equal(r.status, 200);
      assert.deepEqual(r.json.tiles, t);
      // and the page shell preloads both, so their fetch does not wait for the script
      const page = (await s.get('/')).text;
      for (const path of [r.json.offline.basemap, r.json.offline.places]) {
        assert.equal((await s.get(path)).status, 200, path);
        assert.ok(page.includes(`<link rel="preload" href="${path}" as="fetch" crossorigin="anonymous">`), `the page preloads ${path}`);
      }
      assert.match(r.json.offline.attribution, /Natural Earth/);
    } finally {
      s.close();
    }
  }
});

test("/v1/map/types: each designator's silhouette and name, from the shipped VRS table", async () => {
  const s = await serve(mapRoutes({ history: new HistoryStore('') }));
  try {
    const r = await s.get('/v1/map/types', { schema: 'map-types' });
    assert.equal(r.status, 200);
    const t = r.json.types;
    assert.deepEqual(t.A320, ['airliner', 'Airbus A-320']);
    assert.equal(t.B744[0], 'heavy');
    assert.equal(t.CRJ9[0], 'regional');
    assert.equal(t.DH8D[0], 'turboprop');
    assert.equal(t.C172[0], 'light');
    assert.equal(t.EC35[0], 'helicopter');
    assert.equal(t.GLID[0], 'glider');
    assert.equal(t.BALL[0], 'balloon');
    assert.equal(t.F16[0], 'military');
    assert.equal(t['-GND'][0], 'ground');
    assert.ok(Object.keys(t).length > 2500, `${Object.keys(t).length} designators`);
  } finally {
    s.close();
  }
});

test("/v1/map/extent: the trimmed box of the snapshot's positions; 503 stale_snapshot past 60 s", async () => {
  const parsed = parseFeed(
    Buffer.from(
      JSON.stringify({
        now: 1000,
        aircraft: [
          ...Array.from({ length: 99 }, (_, i) => ({ hex: (0xa00000 + i).toString(16), lat: 40 + (i % 10), lon: -5 + (i % 11), seen: 0 })),
          { hex: 'b00000', lat: -40, lon: 170, seen: 0 },
          { hex: 'b00001', seen: 0 },
        ],
      }),
    ),
  );
  if (!parsed.ok) throw new Error(parsed.detail);
  const live = new LiveState({ eagerGzip: false });
  live.accept(parsed.snapshot, 1000);
  const clock = { ms: 1005_000 };
  const s = await serve(mapRoutes({ history: new HistoryStore(''), live }), { clock: () => clock.ms });
  try {
    const r = await s.get('/v1/map/extent', { schema: 'map-extent' });
    assert.equal(r.status, 200);
    // 100 with a position: 2 trimmed at each edge, so the one far away is left out
    assert.deepEqual(r.json, { generated_at: 1000, box: [-5, 40, 5, 49], aircraft: 100 });
    clock.ms = 1061_000;
    const stale = await s.get('/v1/map/extent');
    assert.equal(stale.status, 503);
    assert.equal(stale.json.error, 'stale_snapshot');
  } finally {
    s.close();
  }
});
