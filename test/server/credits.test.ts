// server/credits.ts: the configuration's checks, the sources file's checks, the pure document.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseConfig } from '../../lib/cli.ts';
import { creditsDocument, creditsOptions, loadCredits, CREDITS_DEFAULTS } from '../../server/credits.ts';
import { problems } from '../../schemas/index.ts';

test('credit flags and env vars resolve; the defaults are empty URLs and the network name Contrail', () => {
  assert.deepEqual(parseConfig(creditsOptions, [], {}).config, CREDITS_DEFAULTS);
  const c = parseConfig(creditsOptions, ['--terms-url', 'https://t.example/terms', '--credits-url=http://c.example'], {
    CONTRAIL_CONTRIBUTE_URL: 'https://x.example',
  }).config;
  assert.deepEqual(c, { networkName: 'Contrail', termsUrl: 'https://t.example/terms', contributeUrl: 'https://x.example', creditsUrl: 'http://c.example' });
});

test('malformed credit URLs and an empty network name are refused with the rule', () => {
  for (const bad of ['ftp://x.example', 'example.org', 'javascript:alert(1)', 'https://', 'https:// x']) {
    assert.throws(() => parseConfig(creditsOptions, ['--terms-url', bad], {}), /http\(s\) URL or empty/, bad);
  }
  assert.throws(() => parseConfig(creditsOptions, [], { CONTRAIL_CREDITS_URL: 'not a url' }), /http\(s\) URL or empty/);
  assert.throws(() => parseConfig(creditsOptions, ['--network-name', '  '], {}), /must not be empty/);
});

test('a malformed sources file is refused with the file and the field named', () => {
  const dir = mkdtempSync(join(tmpdir(), 'credits-'));
  try {
    const cases: [string, RegExp][] = [
      ['{not json', /not valid JSON/],
      ['{"id":"x"}', /must be an array/],
      ['[{"id":"x","name":"X","license":"CC0","upstream":"u","retrieved":"2026-01-01","files":[]}]', /credit must be a non-empty string/],
      ['[{"id":"x","name":"X","license":"CC0","credit":"c","upstream":"u","retrieved":"yesterday","files":[]}]', /retrieved must be a date/],
    ];
    for (const [text, re] of cases) {
      const f = join(dir, 'sources.json');
      writeFileSync(f, text);
      assert.throws(
        () => loadCredits(CREDITS_DEFAULTS, { sourcesFile: f }),
        (e: Error) => re.test(e.message) && e.message.includes(f),
        text,
      );
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the credits document matches its schema, with relative links when no base URL is known', () => {
  const d = creditsDocument(loadCredits(CREDITS_DEFAULTS, { traffic: [] }), '');
  assert.deepEqual(problems('credits', d), []);
  assert.equal(d.credits_url, '/v1/credits');
  assert.equal(d.docs_url, '/docs');
  assert.ok(!d.sources.some((s) => s.kind === 'traffic'), 'traffic credits are configurable');
  assert.equal(d.sources.filter((s) => s.kind === 'network').length, 1);
  const trailing = creditsDocument(loadCredits(CREDITS_DEFAULTS), 'https://a.example//');
  assert.equal(trailing.credits_url, 'https://a.example/v1/credits');
});
