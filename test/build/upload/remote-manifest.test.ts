// the manifest an upload keeps in the bucket (build/upload/remote-manifest.ts) and the plan made
// from it (plan.ts): the text is exactly JSON.stringify's, the writer's layout is scanned and any
// other valid layout parsed to the same tables, a manifest that is not one names the fix, and the
// plan sends what is new or changed, keeps what is the same and retires what left the tree.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { ObjectTable } from '../../../artifacts/object-table.ts';
import { parseRemoteManifest, remoteManifestBytes, type RemoteHeader, type Retired } from '../../../build/upload/remote-manifest.ts';
import { planUpload } from '../../../build/upload/plan.ts';

const sha = (s: string) => createHash('sha256').update(s).digest('hex');
const T0 = Date.UTC(2026, 10, 22, 4, 0, 0);
const H = 3600_000;
const header: RemoteHeader = {
  build_id: 'b2',
  built_at: '2026-11-22T03:00:00.000Z',
  archive_through: '2026-11-21',
  window_days: 365,
  counts: { routes: 2 },
  uploaded_at: '2026-11-22T04:00:00.000Z',
};
const retired: Retired = { 'pub/v1/route/OLD1': { since: '2026-11-21T04:00:00.000Z', sha256: sha('old') } };

/** a table of remote keys with their sha256 and stored bytes (what the upload builds: the version's lengths, the stored one in gzip) */
function table(entries: Record<string, [string, number]>): ObjectTable {
  const t = new ObjectTable();
  for (const [k, [content, stored]] of Object.entries(entries)) t.add(k, sha(content), stored * 3, stored);
  return t;
}

const objects = {
  'pub/v1/route/SWR100': ['a', 703],
  'pub/v1/airframes/4b1899': ['b', 20],
  'pub/v1/bundles/log/day=2026-11-21/legs.parquet': ['c', 123456789012],
} as Record<string, [string, number]>;
const asRecord = (entries: Record<string, [string, number]>) =>
  Object.fromEntries(Object.entries(entries).map(([k, [c, n]]) => [k, { sha256: sha(c), bytes: n }]));

test('the text is JSON.stringify({ ...header, objects, retired }) with the stored bytes, and reads back to the same header, objects and retired', () => {
  const bytes = remoteManifestBytes(header, table(objects), retired);
  const doc = { ...header, objects: asRecord(objects), retired };
  assert.equal(bytes.toString(), JSON.stringify(doc));
  const back = parseRemoteManifest(bytes, 'pub/manifest.json')!;
  assert.deepEqual(back.header, header);
  assert.deepEqual(back.retired, retired);
  assert.deepEqual([...back.objects.keys()], Object.keys(objects));
  for (const [k, [c, n]] of Object.entries(objects)) assert.deepEqual([back.objects.get(k)!.sha256, back.objects.get(k)!.gzip_bytes], [sha(c), n], k);
  // many entries: written a megabyte of text at a time
  const many: Record<string, [string, number]> = {};
  for (let i = 0; i < 30_000; i++) many[`pub/v1/route/X${i}`] = [String(i), i];
  const big = remoteManifestBytes(header, table(many), {});
  assert.equal(big.toString(), JSON.stringify({ ...header, objects: asRecord(many), retired: {} }));
  assert.equal(parseRemoteManifest(big, 'm')!.objects.size, 30_000);
  const none = parseRemoteManifest(remoteManifestBytes(header, new ObjectTable(), {}), 'm')!;
  assert.deepEqual([none.objects.size, none.retired, none.header], [0, {}, header], 'an empty bucket manifest');
});

test('a manifest laid out otherwise (spaced, retired first, by another tool) is read by JSON.parse to the same tables', () => {
  const doc = { ...header, objects: asRecord(objects), retired };
  const layouts = {
    spaced: JSON.stringify(doc, null, 1),
    'retired first': JSON.stringify({ ...header, retired, objects: asRecord(objects) }),
    'lengths before the hash': JSON.stringify({
      ...header,
      objects: Object.fromEntries(Object.entries(asRecord(objects)).map(([k, e]) => [k, { bytes: e.bytes, sha256: e.sha256 }])),
      retired,
    }),
  };
  for (const [what, text] of Object.entries(layouts)) {
    const m = parseRemoteManifest(Buffer.from(text), 'm')!;
    assert.deepEqual([m.header, m.retired], [header, retired], what);
    assert.deepEqual(
      Object.fromEntries([...m.objects.indexes()].map((i) => [m.objects.keyAt(i), { sha256: m.objects.shaAt(i), bytes: m.objects.gzipAt(i) }])),
      asRecord(objects),
      what,
    );
  }
  assert.equal(parseRemoteManifest(null, 'm'), null, 'no manifest in the bucket: a first upload');
});

test('a bucket manifest that is not one is refused with the fix, whichever reader meets it', () => {
  const good = remoteManifestBytes(header, table(objects), retired).toString();
  const shaA = sha('a');
  const cases: [string, string, RegExp][] = [
    ['cut short', good.slice(0, -30), /is not JSON/],
    ['not JSON', '{', /is not JSON/],
    ['objects null', '{"objects":null,"retired":{}}', /no objects\/retired maps/],
    ['no retired', JSON.stringify({ ...header, objects: {} }), /no objects\/retired maps/],
    ['an array of objects', JSON.stringify({ ...header, objects: [], retired: {} }), /no objects\/retired maps/],
    ['a short hash, scanned layout', good.replace(shaA, shaA.slice(0, 60)), /not one/],
    ['an upper-case hash', good.replace(shaA, shaA.toUpperCase()), /not one/],
    ['a negative length', good.replace('"bytes":703', '"bytes":-703'), /not one/],
    ['a fractional length', good.replace('"bytes":703', '"bytes":70.3'), /not one/],
    ['a key named twice', good.replace('pub/v1/airframes/4b1899', 'pub/v1/route/SWR100'), /not one/],
    ['a retired entry without since', good.replace('"since":"2026-11-21T04:00:00.000Z",', ''), /retired entry pub\/v1\/route\/OLD1/],
    ['a retired entry with a bad since', good.replace('2026-11-21T04:00:00.000Z', 'yesterday'), /retired entry/],
  ];
  for (const [what, text, err] of cases) {
    assert.throws(
      () => parseRemoteManifest(Buffer.from(text), 'pub/manifest.json'),
      (e: Error) => err.test(e.message) && /^pub\/manifest.json in the bucket .*: delete it to upload everything again$/.test(e.message),
      what,
    );
  }
});

test('the plan sends what is new or changed in content or stored size, keeps what is the same, and retires what left the tree', () => {
  const remote = { objects: table({ 'p/same': ['s', 10], 'p/changed': ['old', 10], 'p/resized': ['r', 10], 'p/left': ['l', 10] }), retired: {} };
  const local = table({ 'p/same': ['s', 10], 'p/changed': ['new', 10], 'p/resized': ['r', 11], 'p/new': ['n', 1] });
  const p = planUpload(local, remote, T0, 48 * H);
  assert.deepEqual(
    p.put.map((i) => local.keyAt(i)),
    ['p/changed', 'p/resized', 'p/new'],
    'in the local order',
  );
  assert.equal(p.unchanged, 1);
  assert.deepEqual(p.retired, { 'p/left': { since: new Date(T0).toISOString(), sha256: sha('l') } });
  assert.deepEqual(p.delete, []);
  assert.deepEqual(planUpload(local, null, T0, 0).put.length, 4, 'a first upload sends everything');
});

test('a retired object keeps the time it left, is deleted once the grace period is over, and stops being retired when it comes back', () => {
  const since = new Date(T0).toISOString();
  const remote = { objects: table({ 'p/a': ['a', 1] }), retired: { 'p/gone': { since, sha256: sha('g') }, 'p/back': { since, sha256: sha('b') } } };
  const local = table({ 'p/a': ['a', 1], 'p/back': ['b', 1] });
  const within = planUpload(local, remote, T0 + 48 * H - 1, 48 * H);
  assert.deepEqual([within.delete, within.retired], [[], { 'p/gone': { since, sha256: sha('g') } }], 'one millisecond before the grace period ends');
  assert.deepEqual(
    within.put.map((i) => local.keyAt(i)),
    ['p/back'],
    'an object back in the tree is sent (the bucket manifest no longer names it)',
  );
  const after = planUpload(local, remote, T0 + 48 * H, 48 * H);
  assert.deepEqual([after.delete, after.retired], [['p/gone'], {}]);
  // an object both named and retired by a bucket manifest (not written by this upload) keeps its first time
  const both = planUpload(table({}), { objects: table({ 'p/gone': ['g', 1] }), retired: { 'p/gone': { since, sha256: sha('g') } } }, T0 + H, 48 * H);
  assert.deepEqual(both.retired, { 'p/gone': { since, sha256: sha('g') } });
});
