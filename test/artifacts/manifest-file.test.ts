// manifest.json read into a table and written from one (artifacts/manifest-file.ts): the text is
// exactly JSON.stringify's, the writer's own layout is scanned, any other valid layout is read by
// JSON.parse to the same table, and a file that is not a manifest is refused with a clear error.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseManifest, readManifestFile, writeManifestFile } from '../../artifacts/manifest-file.ts';
import { ObjectTable } from '../../artifacts/object-table.ts';
import type { Manifest, ManifestHeader } from '../../artifacts/manifest.ts';

const sha = (s: string) => createHash('sha256').update(s).digest('hex');
const header: ManifestHeader = {
  build_id: '20261127T030000Z',
  built_at: '2026-11-27T03:00:00.000Z',
  archive_through: '2026-11-26',
  window_days: 365,
  counts: { routes: 3, objects: 4 },
};
const objects: Manifest['objects'] = {
  'v1/route/SWR100': { sha256: sha('a'), bytes: 1983, gzip_bytes: 703 },
  'v1/airframes/4b1899': { sha256: sha('b'), bytes: 0, gzip_bytes: 20 },
  'meta/paths': { sha256: sha('c'), bytes: 123456789012, gzip_bytes: 10 },
};
const manifest: Manifest = { ...header, objects };
const dir = mkdtempSync(join(tmpdir(), 'contrail-manifest-'));

test('the file written is JSON.stringify({ ...header, objects }) byte for byte, and reads back by scan to the same header and entries', () => {
  const file = join(dir, 'm.json');
  writeManifestFile(file, header, ObjectTable.fromRecord(objects));
  assert.equal(readFileSync(file, 'utf8'), JSON.stringify(manifest));
  const back = readManifestFile(file);
  assert.equal(back.scanned, true, 'its own layout is scanned, not parsed');
  assert.deepEqual(back.header, header);
  assert.deepEqual(back.objects.toRecord(), objects);
  // many entries: the text is written a megabyte at a time
  const big: Manifest['objects'] = {};
  for (let i = 0; i < 30_000; i++) big[`v1/route/X${i}`] = { sha256: sha(String(i)), bytes: i, gzip_bytes: i % 97 };
  writeManifestFile(file, header, ObjectTable.fromRecord(big));
  assert.equal(readFileSync(file, 'utf8'), JSON.stringify({ ...header, objects: big }));
  assert.deepEqual(readManifestFile(file).objects.toRecord(), big);
  writeManifestFile(file, header, new ObjectTable());
  const none = readManifestFile(file);
  assert.deepEqual([none.header, none.objects.size, none.scanned], [header, 0, true], 'no objects');
});

test('a manifest in another layout is read by JSON.parse to the same table', () => {
  const layouts = {
    spaced: JSON.stringify(manifest, null, 2),
    'objects first': JSON.stringify({ objects, ...header }),
    'a trailing newline': `${JSON.stringify(manifest)}\n`,
    'keys in another order': JSON.stringify({ ...header, objects: { 'v1/x': { bytes: 1, gzip_bytes: 2, sha256: sha('x') } } }),
  };
  for (const [what, text] of Object.entries(layouts)) {
    const m = parseManifest(Buffer.from(text));
    assert.equal(m.scanned, what === 'a trailing newline', `${what}: scanned`);
    assert.deepEqual(m.header, header, what);
    assert.deepEqual(m.objects.toRecord(), (JSON.parse(text) as Manifest).objects, what);
  }
});

test('text that is not a manifest is refused with what is wrong, in either reader', () => {
  const good = JSON.stringify(manifest);
  const cases: [string, string, RegExp][] = [
    ['truncated', good.slice(0, -30), /JSON/],
    ['upper-case hex', good.replace(sha('a'), sha('a').toUpperCase()), /not 64 lowercase hex digits/],
    ['a short sha256', good.replace(sha('a'), 'abc'), /not 64 lowercase hex digits/],
    ['negative bytes', good.replace('"bytes":1983', '"bytes":-1983'), /whole numbers of 0 or more/],
    ['fractional gzip_bytes', good.replace('"gzip_bytes":703', '"gzip_bytes":70.3'), /whole numbers of 0 or more/],
    ['a leading zero', good.replace('"bytes":1983', '"bytes":01983'), /JSON/],
    ['a key twice', good.replace('"v1/airframes/4b1899"', '"v1/route/SWR100"'), /v1\/route\/SWR100 added twice/],
    ['a header against the schema', good.replace('"window_days":365', '"window_days":-1'), /manifest.*window_days|must be >= 0/],
    ['objects an array', JSON.stringify({ ...header, objects: [] }), /an object of objects/],
    ['not an object', '[1,2]', /an object of objects/],
    ['trailing text', `${good}x`, /JSON/],
    ['an unsafe key', JSON.stringify({ ...header, objects: { 'v1/é': objects['meta/paths'] } }), /printable ASCII/],
  ];
  for (const [what, text, error] of cases) assert.throws(() => parseManifest(Buffer.from(text)), error, what);
  const file = join(dir, 'bad.json');
  writeFileSync(file, good.slice(0, 100));
  assert.throws(
    () => readManifestFile(file),
    (e: Error) => e.message.startsWith(`${file}: `),
    'the file is named',
  );
  assert.throws(
    () => readManifestFile(join(dir, 'absent.json')),
    (e: NodeJS.ErrnoException) => e.code === 'ENOENT',
    'absent: the fs error as it is',
  );
});
