// /openapi.json, /docs, /docs/* and /v1/credits on the real uWebSockets.js server; every response is
// checked by the helper (non-200: section-7 error + no-store).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { serve, type TestServer } from '../../helpers/http.ts';
import { docsRoutes, SWAGGER_UI_DIR } from '../../../server/handlers/docs.ts';
import { loadCredits, CREDITS_DEFAULTS, type CreditsConfig } from '../../../server/credits.ts';
import { POLICIES } from '../../../schemas/policy.ts';

async function withDocs(config: CreditsConfig, f: (s: TestServer) => Promise<void>, base = 'https://api.example.org') {
  const s = await serve(docsRoutes({ baseUrl: () => base, credits: loadCredits(config) }), { clock: () => 1_750_000_000_000 });
  try {
    await f(s);
  } finally {
    s.close();
  }
}

test('/openapi.json is the generated 3.1 document with the configured server, docs caching and rate-limit headers', async () => {
  await withDocs(CREDITS_DEFAULTS, async (s) => {
    const r = await s.get('/openapi.json');
    assert.equal(r.status, 200);
    assert.equal(r.json.openapi, '3.1.0');
    assert.deepEqual(
      r.json.servers.map((x: any) => x.url),
      ['https://api.example.org'],
    );
    assert.ok(r.json.paths['/v1/trace/{hex}'], "r.json.paths['/v1/trace/{hex}']");
    assert.equal(r.headers['cache-control'], POLICIES.docs!.cache);
    assert.equal(r.headers['ratelimit-limit'], String(POLICIES.docs!.limit));
    assert.match(r.headers['content-type']!, /^application\/json/);
    const gz = await s.get('/openapi.json', { headers: { 'accept-encoding': 'gzip' } });
    assert.equal(gz.headers['content-encoding'], 'gzip');
    assert.ok(gz.wireBytes < r.wireBytes / 3, 'prepared gzip is sent');
    assert.equal(gz.text, r.text);
  });
});

test('/v1/credits lists the feeders, the shipped traffic and every source of data/ref/sources.json, with derived URLs by default', async () => {
  await withDocs(CREDITS_DEFAULTS, async (s) => {
    const r = await s.get('/v1/credits', { schema: 'credits' });
    const ids = r.json.sources.map((x: any) => x.id);
    const ref = JSON.parse(readFileSync(new URL('../../../data/ref/sources.json', import.meta.url), 'utf8')).map((x: any) => x.id);
    assert.deepEqual(ids, ['feeders', 'adsb-lol', ...ref]);
    assert.equal(r.json.sources[0].credit, 'Contrail and its feeders');
    assert.equal(r.json.credits_url, 'https://api.example.org/v1/credits');
    assert.equal(r.json.terms_url, 'https://api.example.org/v1/credits');
    assert.equal(r.json.contribute_url, null);
    assert.equal(r.json.docs_url, 'https://api.example.org/docs');
    assert.match(r.json.attribution, /Contrail and its feeders, ODbL 1\.0/);
  });
});

test('/v1/credits carries the configured network name and terms, contribution and credits URLs', async () => {
  const config = { networkName: 'Skynet', termsUrl: 'https://t.example/terms', contributeUrl: 'https://c.example/', creditsUrl: 'https://x.example/credits' };
  await withDocs(config, async (s) => {
    const r = await s.get('/v1/credits', { schema: 'credits' });
    assert.equal(r.json.terms_url, config.termsUrl);
    assert.equal(r.json.contribute_url, config.contributeUrl);
    assert.equal(r.json.credits_url, config.creditsUrl);
    assert.equal(r.json.sources[0].credit, 'Skynet and its feeders');
    assert.ok(
      r.json.terms.some((t: string) => t.includes('https://x.example/credits')),
      "r.json.terms.some((t: string) => t.includes('https://x.example/credits'))",
    );
  });
});

test('/docs is an offline swagger-ui page pointed at /openapi.json; its assets come from swagger-ui-dist with their types', async () => {
  await withDocs(CREDITS_DEFAULTS, async (s) => {
    const page = await s.get('/docs');
    assert.equal(page.status, 200);
    assert.match(page.headers['content-type']!, /^text\/html/);
    assert.doesNotMatch(page.text, /https?:\/\//, 'no outside URL: no CDN');
    for (const src of page.text.matchAll(/(?:src|href)="([^"]+)"/g)) assert.equal((await s.get(src[1]!)).status, 200, src[1]);
    const init = await s.get('/docs/swagger-initializer.js');
    assert.match(init.text, /url: '\/openapi\.json'/);
    assert.match(init.text, /validatorUrl: null/);
    assert.doesNotMatch(init.text, /petstore/);
    const css = await s.get('/docs/swagger-ui.css', { headers: { 'accept-encoding': 'gzip' } });
    assert.match(css.headers['content-type']!, /^text\/css/);
    assert.equal(css.headers['content-encoding'], 'gzip');
    assert.equal(css.text, readFileSync(`${SWAGGER_UI_DIR}/swagger-ui.css`, 'utf8'));
    const js = await s.get('/docs/swagger-ui-bundle.js');
    assert.match(js.headers['content-type']!, /^text\/javascript/);
    const png = await s.get('/docs/favicon-32x32.png', { headers: { 'accept-encoding': 'gzip' } });
    assert.equal(png.headers['content-type'], 'image/png');
    assert.equal(png.headers['content-encoding'], undefined, 'png is sent as it is');
    assert.equal(png.wireBytes, readFileSync(`${SWAGGER_UI_DIR}/favicon-32x32.png`).length);
  });
});

test('malformed /docs/* paths (traversal, unknown or replaced files, other folders) answer 404 in the section-7 shape', async () => {
  await withDocs(CREDITS_DEFAULTS, async (s) => {
    for (const p of [
      '/docs/..%2fpackage.json',
      '/docs/..%2f..%2f..%2fpackage.json',
      '/docs/%2e%2e%2f%2e%2e%2fserver%2fcredits.ts',
      '/docs/..%5cpackage.json',
      '/docs/nope.js',
      '/docs/package.json',
      '/docs/LICENSE',
      '/docs/index.html',
      '/docs/swagger-ui.css%00.png',
      '/docs/a/swagger-ui.css',
      '/docs/SWAGGER-UI.CSS',
    ]) {
      const r = await s.get(p);
      assert.equal(r.status, 404, p);
      assert.equal(r.json.error, 'not_found', p);
    }
    const broken = await s.get('/docs/%zz');
    assert.equal(broken.status, 422);
  });
});

test('gzip bodies of the docs routes inflate to the same bytes as the raw ones', async () => {
  await withDocs(CREDITS_DEFAULTS, async (s) => {
    for (const p of ['/docs', '/docs/swagger-initializer.js', '/v1/credits']) {
      const raw = await s.get(p);
      const gz = await s.get(p, { headers: { 'accept-encoding': 'gzip' } });
      assert.equal(gz.text, raw.text, p);
    }
  });
});
