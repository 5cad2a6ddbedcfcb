import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { anchorsOf, brokenLinks, brokenLinksIn, linksOf, slug } from './links.ts';

const ROOT = join(import.meta.dirname, '..', '..');

test("every relative link of the repository's markdown names a file that exists, and an anchor it has", () => {
  assert.deepEqual(
    brokenLinksIn(ROOT).map((b) => `${b.file}:${b.line} ${b.target}: ${b.why}`),
    [],
  );
});

test("anchors are GitHub's: heading slugs with repeats numbered, and <a id>", () => {
  assert.equal(slug('Live API (`npx tsx bench/live.ts`)'), 'live-api-npx-tsx-benchlivets');
  assert.equal(slug("Researchers' data (`/v1/bundles`)"), 'researchers-data-v1bundles');
  assert.equal(slug('Upload to object storage (`npx tsx bench/upload.ts --objects 10000`)'), 'upload-to-object-storage-npx-tsx-benchuploadts---objects-10000');
  assert.equal(slug('`not_found` vs [the spec](spec.md)'), 'not_found-vs-the-spec');
  const a = anchorsOf('# Top\n## Notes\n```\n## not a heading\n```\n### Notes\n- <a id="x-1"></a>**a bullet**\n');
  assert.deepEqual([...a].sort(), ['notes', 'notes-1', 'top', 'x-1']);
});

test('links are found across lines, never in code, and URLs are left alone', () => {
  const text = 'see [the\nlog](perf-log/a.md#b) and `[not](x.md)`\n```\n[nor](y.md)\n```\n[web](https://example.com) [top](#top) ![img](p.png)';
  assert.deepEqual(linksOf(text), [
    { line: 2, target: 'perf-log/a.md#b' },
    { line: 6, target: '#top' },
    { line: 6, target: 'p.png' },
  ]);
});

test('a planted broken link fails: a missing file, a missing anchor, a path out of the repository', () => {
  const files = new Map([
    ['docs/a.md', '# A\n[ok](b.md#here) [ok](#a) [gone](c.md) [no anchor](b.md#there) [out](../../x.md) [self](#b)\n'],
    ['docs/b.md', '# Here\n'],
  ]);
  const exists = (p: string) => files.has(p) || p === 'docs';
  const broken = brokenLinks(files, exists, () => null).map((b) => `${b.target}: ${b.why}`);
  assert.deepEqual(broken, [
    'c.md: docs/c.md does not exist',
    'b.md#there: docs/b.md has no anchor #there',
    '../../x.md: points outside the repository',
    '#b: docs/a.md has no anchor #b',
  ]);
});
