// atomic publishing of artifact versions: whole or not at all, even when the build is killed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, readlinkSync, statSync, writeFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { currentTable, currentVersion } from '../../../artifacts/tree.ts';
import { abandon, commit, lockRoot, newBuildId, prune, stage } from '../../../build/publish/publish.ts';
import { ArtifactWriter } from '../../../build/publish/writer.ts';
import { copyKeepsWritten, hardLinkCopy } from '../../../build/publish/hard-link-copy.ts';

const T0 = Date.UTC(2026, 10, 22, 3, 15, 0);
const meta = (id: string) => ({ build_id: id, built_at: new Date(T0).toISOString(), archive_through: '2026-11-21', window_days: 1, counts: { test: 1 } });
const doc = (n: number) => ({ error: 'not_found', detail: `doc ${n}` }); // any schema-valid document will do

function publishOne(root: string, id: string, docs: Record<string, number>) {
  const s = stage(root, id);
  for (const [k, n] of Object.entries(docs)) s.writer.putBytes(k, Buffer.from(JSON.stringify(doc(n))));
  s.writer.writeManifest(meta(id));
  return { version: commit(root, s), stats: s.writer.stats };
}

test('a published build becomes current in one step, and unchanged objects are hard-linked, not rewritten', () => {
  const root = mkdtempSync(join(tmpdir(), 'contrail-pub-'));
  const a = publishOne(root, 'b1', { 'v1/x/1': 1, 'v1/x/2': 2 });
  assert.equal(a.version.id, 'b1');
  assert.equal(readlinkSync(join(root, 'current')), join('versions', 'b1'));
  const b = publishOne(root, 'b2', { 'v1/x/1': 1, 'v1/x/2': 3 });
  assert.deepEqual([b.stats.linked, b.stats.written], [1, 1]);
  const ino = (v: string) => statSync(join(root, 'versions', v, 'v1/x/1.gz')).ino;
  assert.equal(ino('b1'), ino('b2'), 'the unchanged object is the same inode');
  assert.equal(currentVersion(root)?.manifest.objects['v1/x/2']?.bytes, JSON.stringify(doc(3)).length);
});

test('a stage given the current version as its caller read it uses it; given an older one, it reads the current one', () => {
  const root = mkdtempSync(join(tmpdir(), 'contrail-pub-'));
  publishOne(root, 'b1', { 'v1/x/1': 1 });
  const b1 = currentTable(root)!;
  const same = stage(root, 'b2', { current: b1 });
  assert.equal(same.previous, b1, 'the version read by the caller, not read again');
  abandon(same);
  publishOne(root, 'b3', { 'v1/x/1': 1, 'v1/x/2': 2 });
  const stale = stage(root, 'b4', { current: b1 });
  assert.deepEqual([stale.previous?.id, stale.previous?.objects.size], ['b3', 2], 'b1 is no longer current: b3 is read');
  abandon(stale);
});

test('an invalid document fails the build before anything is published', () => {
  const root = mkdtempSync(join(tmpdir(), 'contrail-pub-'));
  publishOne(root, 'good', { 'v1/x/1': 1 });
  const s = stage(root, 'bad');
  assert.throws(() => s.writer.put('v1/route/SWR100', { error: 'nope' }), /does not match schemas\/route/);
  assert.throws(() => s.writer.put('v1/x/2', doc(2)), /no artifact kind has a key like "v1\/x\/2": add a row to schemas\/artifact-kinds\.ts/);
  assert.equal(currentVersion(root)?.id, 'good');
  assert.throws(() => s.writer.putBytes('../escape', Buffer.from('{}')), /unsafe artifact key/);
});

test('a build killed midway leaves the served tree exactly as it was; the next build sweeps its leftovers', () => {
  const root = mkdtempSync(join(tmpdir(), 'contrail-pub-'));
  publishOne(root, 'good', { 'v1/x/1': 1 });
  const before = JSON.stringify(currentVersion(root));
  // a real child process that stages a build, writes objects, then dies by SIGKILL before committing
  const script = `
    import { stage } from ${JSON.stringify(new URL('../../../build/publish/publish.ts', import.meta.url).pathname)};
    const s = stage(${JSON.stringify(root)}, 'killed');
    for (let i = 0; i < 50; i++) s.writer.putBytes('v1/x/' + i, Buffer.from(JSON.stringify({ error: 'not_found', detail: 'd' + i })));
    process.kill(process.pid, 'SIGKILL');`;
  const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8' });
  assert.equal(r.signal, 'SIGKILL', r.stderr);
  assert.equal(JSON.stringify(currentVersion(root)), before, 'current is untouched');
  assert.ok(
    readdirSync(join(root, 'versions')).some((n) => n.startsWith('killed.partial-')),
    'the partial build is left on disk',
  );
  publishOne(root, 'next', { 'v1/x/1': 1 });
  assert.deepEqual(readdirSync(join(root, 'versions')).sort(), ['good', 'next'], 'leftovers swept by the next build');
});

test('old versions are pruned, keeping the current one and the newest others', () => {
  const root = mkdtempSync(join(tmpdir(), 'contrail-pub-'));
  for (const id of ['b1', 'b2', 'b3', 'b4', 'b5']) publishOne(root, id, { 'v1/x/1': 1 });
  assert.deepEqual(readdirSync(join(root, 'versions')).sort(), ['b2', 'b3', 'b4', 'b5']);
  assert.deepEqual(prune(root, 1), ['b3', 'b2']);
  assert.equal(currentVersion(root)?.id, 'b5');
});

test('one build at a time: the lock refuses a live holder and takes over a dead one', () => {
  const root = mkdtempSync(join(tmpdir(), 'contrail-pub-'));
  const release = lockRoot(root);
  assert.throws(() => lockRoot(root), /another build/);
  release();
  writeFileSync(join(root, '.build.lock'), '999999999'); // no such process
  const again = lockRoot(root);
  again();
  assert.equal(newBuildId(root, T0), '20261122T031500Z');
});

test('an object the new build no longer produces is gone from the new version and kept in the old one', () => {
  const root = mkdtempSync(join(tmpdir(), 'contrail-pub-'));
  publishOne(root, 'b1', { 'v1/x/1': 1, 'v1/x/gone': 2 });
  const b = publishOne(root, 'b2', { 'v1/x/1': 1 });
  assert.equal(b.stats.removed, 1);
  assert.deepEqual(Object.keys(currentVersion(root)!.manifest.objects), ['v1/x/1']);
  assert.ok(!readdirSync(join(root, 'versions/b2/v1/x')).includes('gone.gz'), "!readdirSync(join(root, 'versions/b2/v1/x')).includes('gone.gz')");
  assert.ok(readdirSync(join(root, 'versions/b1/v1/x')).includes('gone.gz'), 'the previous version is untouched');
});

test('a key stored twice in one build fails the build, whichever way it was stored, before the second write', () => {
  const root = mkdtempSync(join(tmpdir(), 'contrail-pub-'));
  publishOne(root, 'b1', { 'v1/x/1': 1, 'v1/x/2': 2 });
  const s = stage(root, 'b2');
  s.writer.putBytes('v1/x/1', JSON.stringify(doc(5))); // changed
  assert.equal(s.writer.keep('v1/x/2'), true);
  s.writer.putBytes('v1/x/3', JSON.stringify(doc(3))); // new
  assert.throws(() => s.writer.putBytes('v1/x/1', JSON.stringify(doc(6))), /artifact v1\/x\/1 added twice/, 'written, then written again');
  assert.throws(() => s.writer.keep('v1/x/1'), /artifact v1\/x\/1 added twice/, 'written, then kept');
  assert.throws(() => s.writer.putBytes('v1/x/2', JSON.stringify(doc(2))), /artifact v1\/x\/2 added twice/, 'kept, then written');
  assert.throws(() => s.writer.putBytes('v1/x/3', JSON.stringify(doc(3))), /artifact v1\/x\/3 added twice/, 'a new key written again');
  assert.deepEqual([s.writer.stats.written, s.writer.stats.linked, s.writer.objects.size], [2, 1, 3], 'nothing of the second writes counted');
  assert.deepEqual(JSON.parse(gunzipSync(readFileSync(join(s.writer.dir, 'v1/x/1.gz'))).toString('utf8')), doc(5), "the first write's bytes stay");
  abandon(s);
});

test("a changed object is rewritten in the new version without touching the previous version's bytes", () => {
  const root = mkdtempSync(join(tmpdir(), 'contrail-pub-'));
  publishOne(root, 'b1', { 'v1/x/1': 1 });
  publishOne(root, 'b2', { 'v1/x/1': 7 });
  const read = (v: string) => JSON.parse(gunzipSync(readFileSync(join(root, 'versions', v, 'v1/x/1.gz'))).toString());
  assert.equal(read('b1').detail, 'doc 1');
  assert.equal(read('b2').detail, 'doc 7');
});

for (const [workers, writeBesideCopy] of [
  [0, true],
  [1, true],
  [0, false],
  [1, false],
] as const) {
  test(`the hard-link copy in the background (${workers} write workers, ${writeBesideCopy ? 'writing beside it' : 'writes waiting for it'}): writes made while it runs are kept, the previous version stays as it was`, async () => {
    const root = mkdtempSync(join(tmpdir(), 'contrail-pub-'));
    const many: Record<string, number> = {};
    for (let i = 0; i < 3000; i++) many[`v1/x/${i}`] = i;
    publishOne(root, 'b1', many);
    const s = stage(root, 'b2', { workers, linkInBackground: true, writeBesideCopy });
    try {
      // before the copy can have ended: a changed object, a new one, an unchanged one, one kept unbuilt
      s.writer.putBytes('v1/x/1', Buffer.from(JSON.stringify(doc(-1))));
      s.writer.putBytes('v1/y/new', Buffer.from(JSON.stringify(doc(7))));
      s.writer.putBytes('v1/x/2', Buffer.from(JSON.stringify(doc(2))));
      assert.equal(s.writer.keep('v1/x/3'), true);
      assert.throws(() => s.writer.writeManifest(meta('b2')), /hard-link copy of the previous version is still running: await writer.flush\(\)/);
      for (let i = 4; i < 3000; i++) s.writer.keep(`v1/x/${i}`);
      await s.writer.flush();
      assert.ok(s.writer.link.ms > 0, `the copy's time is recorded: ${s.writer.link.ms} ms`);
      // the folders of the tree are linked by parallel copies: the files beside v1/ are there too
      assert.equal(statSync(join(s.writer.dir, 'version.json')).ino, statSync(join(root, 'versions', 'b1', 'version.json')).ino);
      const m = s.writer.writeManifest(meta('b2'));
      commit(root, s);
      const read = (v: string, k: string) => JSON.parse(gunzipSync(readFileSync(join(root, 'versions', v, `${k}.gz`))).toString('utf8'));
      assert.deepEqual(read('b2', 'v1/x/1'), doc(-1));
      assert.deepEqual(read('b1', 'v1/x/1'), doc(1), "the previous version's file is untouched");
      assert.deepEqual(read('b2', 'v1/y/new'), doc(7));
      assert.deepEqual(read('b2', 'v1/x/2999'), doc(2999));
      // v1/x/0 was neither written nor kept: removed
      assert.equal(m.objects.size, 3000);
      assert.equal(statSync(join(root, 'versions', 'b1', 'v1/x/2.gz')).ino, statSync(join(root, 'versions', 'b2', 'v1/x/2.gz')).ino);
      assert.deepEqual([s.writer.stats.written, s.writer.stats.linked, s.writer.stats.removed], [2, 2998, 1]);
    } finally {
      await s.writer.close();
    }
  });
}

test('writing beside the copy: a changed object is on disk before the copy starts, and the copy leaves it as written', async () => {
  assert.ok(copyKeepsWritten(), "this system's cp -al -n skips a name that exists (GNU coreutils 9.1, Debian 12)");
  const root = mkdtempSync(join(tmpdir(), 'contrail-pub-'));
  const many: Record<string, number> = {};
  for (let i = 0; i < 500; i++) many[`v1/x/${i}`] = i;
  publishOne(root, 'b1', many);
  // the copy is held back until the writes are on disk: they cannot have waited for it
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  const copy: typeof hardLinkCopy = async (...args) => {
    await held;
    return hardLinkCopy(...args);
  };
  // no write worker: a write that does not wait is on disk when putBytes returns
  const s = stage(root, 'b2', { workers: 0, linkInBackground: true, copy });
  try {
    for (let i = 0; i < 100; i++) s.writer.putBytes(`v1/x/${i}`, Buffer.from(JSON.stringify(doc(-i - 1))));
    for (let i = 100; i < 500; i++) assert.equal(s.writer.keep(`v1/x/${i}`), true);
    const file = (v: string, i: number) => join(v, `v1/x/${i}.gz`);
    assert.equal(readdirSync(join(s.writer.dir, 'v1/x')).length, 100, 'the 100 written objects are in the folder, nothing of the copy yet');
    release();
    await s.writer.flush();
    s.writer.writeManifest(meta('b2'));
    commit(root, s);
    const read = (v: string, i: number) => JSON.parse(gunzipSync(readFileSync(file(join(root, 'versions', v), i))).toString('utf8'));
    for (const i of [0, 50, 99]) {
      assert.deepEqual(read('b2', i), doc(-i - 1), `object ${i} is the build's`);
      assert.deepEqual(read('b1', i), doc(i), `object ${i} of the previous version is untouched`);
      assert.notEqual(statSync(file(join(root, 'versions', 'b1'), i)).ino, statSync(file(join(root, 'versions', 'b2'), i)).ino);
    }
    for (const i of [100, 499])
      assert.equal(statSync(file(join(root, 'versions', 'b1'), i)).ino, statSync(file(join(root, 'versions', 'b2'), i)).ino, `object ${i} is linked`);
  } finally {
    release();
    await s.writer.close();
  }
});

test('a background hard-link copy that fails fails the build at its first wait', async () => {
  const root = mkdtempSync(join(tmpdir(), 'contrail-pub-'));
  publishOne(root, 'b1', { 'v1/x/1': 1 });
  // cp cannot make the version folder where a file is
  const target = join(root, 'versions', 'b2.partial-1');
  writeFileSync(target, 'a file, not a folder');
  const w = new ArtifactWriter(target, currentTable(root), { linkInBackground: true, writeBesideCopy: false });
  w.putBytes('v1/x/1', Buffer.from(JSON.stringify(doc(2))));
  await assert.rejects(w.flush(), /cannot hard-link .* to .*b2\.partial-1: /);
  await w.close();
});

test('a background copy that fails while writes go on beside it fails the build at flush', async () => {
  const root = mkdtempSync(join(tmpdir(), 'contrail-pub-'));
  publishOne(root, 'b1', { 'v1/x/1': 1, 'v1/x/2': 2 });
  const copy = () => Promise.reject(new Error('cannot hard-link: cp: No space left on device'));
  const w = new ArtifactWriter(join(root, 'versions', 'b2.partial-1'), currentTable(root), { linkInBackground: true, writeBesideCopy: true, copy });
  w.putBytes('v1/x/1', Buffer.from(JSON.stringify(doc(3))));
  assert.equal(w.keep('v1/x/2'), true);
  await assert.rejects(w.flush(), /cannot hard-link: cp: No space left on device/);
  assert.throws(
    () => w.writeManifest(meta('b2')),
    /the hard-link copy of the previous version failed \(cannot hard-link: cp: No space left on device\): nothing can be published/,
  );
  await w.close();
});
