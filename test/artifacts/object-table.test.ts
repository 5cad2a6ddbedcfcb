// ObjectTable (artifacts/object-table.ts): a manifest's objects without an object per entry. it
// must answer like the Record it replaces (every key found with its entry, absent keys not, the
// order kept), refuse what a manifest cannot hold, and compare two tables by their bytes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { ObjectTable, Origin } from '../../artifacts/object-table.ts';
import { mulberry32 } from '../../lib/random.ts';
import type { ObjectEntry } from '../../artifacts/manifest.ts';

const sha = (s: string) => createHash('sha256').update(s).digest('hex');
const entry = (s: string, bytes = s.length, gzip = 20): ObjectEntry => ({ sha256: sha(s), bytes, gzip_bytes: gzip });

/** a seeded Record of `n` keys of the shapes a tree has, in a random order */
function record(n: number, seed = 7): Record<string, ObjectEntry> {
  const rnd = mulberry32(seed);
  const r: Record<string, ObjectEntry> = {};
  const kinds = ['v1/route/', 'v1/airframes/', 'v1/refdata/airlines/', 'meta/'];
  for (let made = 0; made < n; ) {
    const k = `${kinds[Math.floor(rnd() * kinds.length)]}${Math.floor(rnd() * 1e9)
      .toString(36)
      .toUpperCase()}`;
    if (r[k]) continue;
    r[k] = entry(k, Math.floor(rnd() * 1e6), Math.floor(rnd() * 1e5));
    made++;
  }
  return r;
}

test('a table answers like the Record it holds: every key with its entry, in order; absent keys are not found', () => {
  const r = record(20_000);
  const t = ObjectTable.fromRecord(r);
  assert.equal(t.size, 20_000);
  assert.deepEqual([...t.keys()], Object.keys(r), 'the order the keys were added');
  for (const k of Object.keys(r)) assert.deepEqual(t.get(k), r[k], k);
  assert.deepEqual(t.toRecord(), r);
  // made with room for them first (as a build's table is, the previous one's size): the same answers
  const roomy = new ObjectTable(30_000);
  for (const i of t.indexes()) roomy.addCopy(t.keyAt(i), t, i, Origin.KEPT);
  assert.deepEqual(roomy.toRecord(), r, 'copied entry by entry into a table with room made');
  assert.equal(roomy.originOf(Object.keys(r)[7]!), Origin.KEPT);
  for (const k of ['v1/route/', 'v1/route/ZZZ', 'v1/route/A', 'x', Object.keys(r)[0]!.slice(0, -1), `${Object.keys(r)[0]!}0`]) {
    assert.equal(t.indexOf(k), -1, k);
    assert.equal(t.get(k), undefined, k);
  }
});

test("an entry is filled in after it is added (the writer's workers report the hash and lengths later)", () => {
  const t = new ObjectTable();
  const i = t.add('v1/x/1', null, 0, 0);
  assert.equal(t.shaAt(i), '0'.repeat(64), 'zeros until set');
  t.setSha(i, sha('a'));
  t.setBytes(i, 12);
  t.setGzip(i, 7);
  assert.deepEqual(t.get('v1/x/1'), { sha256: sha('a'), bytes: 12, gzip_bytes: 7 });
  t.setSha(i, createHash('sha256').update('b').digest());
  assert.equal(t.get('v1/x/1')!.sha256, sha('b'), 'raw bytes as well as hex');
  assert.ok(t.shaIs(i, createHash('sha256').update('b').digest()), 'shaIs: the same digest');
  assert.ok(!t.shaIs(i, createHash('sha256').update('a').digest()), 'shaIs: another digest');
});

test('what a manifest cannot hold is refused with the key named', () => {
  const t = new ObjectTable();
  t.add('v1/x/1', sha('1'), 1, 1);
  assert.throws(() => t.add('v1/x/1', sha('2'), 1, 1), /artifact v1\/x\/1 added twice/);
  for (const bad of ['', 'v1/é', 'v1/"q"', 'v1/a\\b', 'v1/tab\t', 'x'.repeat(70_000)])
    assert.throws(() => t.add(bad, null, 0, 0), /artifact key/, JSON.stringify(bad.slice(0, 20)));
  assert.throws(() => t.setSha(0, 'ABC'), /not 64 lowercase hex digits/);
  assert.throws(() => t.setSha(0, sha('1').toUpperCase()), /not 64 lowercase hex digits/);
  assert.throws(() => t.setSha(0, new Uint8Array(31)), /a sha256 of 31 bytes/);
  assert.equal(t.size, 1, 'nothing refused was added');
  assert.deepEqual([...t.keys()], ['v1/x/1']);
  for (const [what, e] of [
    ['bytes below 0', { ...entry('a'), bytes: -1 }],
    ['gzip_bytes not whole', { ...entry('a'), gzip_bytes: 1.5 }],
    ['sha256 short', { ...entry('a'), sha256: 'abc' }],
  ] as const) {
    assert.throws(() => ObjectTable.fromRecord({ 'v1/a': e }), /v1\/a|sha256/, what);
  }
});

test('two tables compare by key bytes and stored object: the same key found across tables, the same object told from another', () => {
  const a = ObjectTable.fromRecord({ 'v1/x/1': entry('1'), 'v1/x/2': entry('2'), 'v1/y/3': entry('3') });
  const b = ObjectTable.fromRecord({ 'v1/y/3': entry('3'), 'v1/x/2': entry('2', 1, 99), 'v1/x/4': entry('4') });
  assert.equal(a.indexOfKeyOf(b, 0), 2, 'v1/y/3');
  assert.equal(a.indexOfKeyOf(b, 2), -1, 'v1/x/4 is not in a');
  assert.ok(a.sameObject(2, b, 0), 'v1/y/3: the same sha256 and gzip length');
  assert.ok(!a.sameObject(1, b, 1), 'v1/x/2: the same sha256, another gzip length');
  const c = new ObjectTable();
  const i = c.addCopy('v1/x/2', b, 1, Origin.KEPT);
  assert.deepEqual(c.get('v1/x/2'), b.get('v1/x/2'), 'a copy holds the entry as it was');
  assert.equal(c.originOf('v1/x/2'), Origin.KEPT);
  assert.ok(c.sameObject(i, b, 1), 'the same object');
  assert.equal(c.originOf('v1/x/1'), undefined);
});

test('entries are counted per folder at a depth: v1, meta; v1/route, v1/airframes', () => {
  const t = ObjectTable.fromRecord({
    'v1/route/A': entry('1'),
    'v1/route/B': entry('2'),
    'v1/airframes/c': entry('3'),
    'v1/stations': entry('4'),
    'meta/paths': entry('5'),
    robots: entry('6'),
  });
  assert.deepEqual(Object.fromEntries(t.countsByFolder(1)), { v1: 4, meta: 1, robots: 1 });
  assert.deepEqual(Object.fromEntries(t.countsByFolder(2)), { 'v1/route': 2, 'v1/airframes': 1, 'v1/stations': 1, 'meta/paths': 1, robots: 1 });
});
