// a build takes over the version its commit would prune and brings it up to date with the current
// one (build/publish/recycle.ts), instead of a hard-link copy of the current one and a prune after:
// the new version must hold exactly what a copy would have given, and no other version may change.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { currentVersion } from '../../../artifacts/tree.ts';
import { abandon, commit, linkReport, recyclable, stage, type StageOptions } from '../../../build/publish/publish.ts';
import { versionDiff as diffTables } from '../../../build/publish/recycle.ts';
import { ObjectTable } from '../../../artifacts/object-table.ts';
import type { ObjectEntry } from '../../../artifacts/manifest.ts';

const versionDiff = (own: Record<string, ObjectEntry>, target: Record<string, ObjectEntry>) =>
  diffTables(ObjectTable.fromRecord(own), ObjectTable.fromRecord(target));

const T0 = Date.UTC(2026, 10, 22, 3, 15, 0);
const meta = (id: string) => ({ build_id: id, built_at: new Date(T0).toISOString(), archive_through: '2026-11-21', window_days: 1, counts: { test: 1 } });
const text = (n: number) => JSON.stringify({ error: 'not_found', detail: `doc ${n}` });
const entry = (sha256: string, gzip_bytes = 10) => ({ sha256: sha256.padStart(64, '0'), bytes: 20, gzip_bytes });

async function publish(root: string, id: string, docs: Record<string, number>, opts: StageOptions = {}, state?: string) {
  const s = stage(root, id, opts);
  for (const [k, n] of Object.entries(docs)) s.writer.putBytes(k, Buffer.from(text(n)));
  if (state !== undefined) {
    await s.writer.readyForFiles();
    mkdirSync(join(s.writer.dir, 'state'), { recursive: true });
    writeFileSync(join(s.writer.dir, 'state', `${state}.json`), state);
  }
  await s.writer.flush();
  s.writer.writeManifest(meta(id));
  commit(root, s, opts.keep ?? 3);
  await s.writer.close();
  return s;
}

/** every file of a version, relative to it, with its text (objects gunzipped) */
function filesOf(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else out[relative(dir, p)] = p.endsWith('.gz') ? gunzipSync(readFileSync(p)).toString() : readFileSync(p, 'utf8');
    }
  };
  walk(dir);
  return out;
}

const v = (root: string, id: string) => join(root, 'versions', id);

/** the versions folder once the trash of a taken-over folder, removed in the background after the commit, is gone (at most 20 s) */
async function versionsSettled(root: string): Promise<string[]> {
  for (let i = 0; i < 200; i++) {
    const names = readdirSync(join(root, 'versions'));
    if (!names.some((n) => n.startsWith('.trash-'))) return names.sort();
    await new Promise((r) => setTimeout(r, 100));
  }
  return readdirSync(join(root, 'versions')).sort();
}
const ino = (root: string, id: string, file: string) => statSync(join(v(root, id), file)).ino;

test('the diff of two manifests: a key is changed when its sha256 or its gzip length differs', () => {
  const own = { a: entry('1'), b: entry('2'), c: entry('3'), d: entry('4') };
  const target = { a: entry('1'), b: entry('22'), c: entry('3', 11), e: entry('5') };
  assert.deepEqual(versionDiff(own, target), { added: ['e'], changed: ['b', 'c'], removed: ['d'], roots: new Set(['a', 'b', 'c', 'e', 'd']) });
  assert.deepEqual(versionDiff(target, target), { added: [], changed: [], removed: [], roots: new Set(['a', 'b', 'c', 'e']) });
  const nested = { 'v1/x/1': entry('1'), 'v1/y/2': entry('2'), 'meta/z': entry('3') };
  assert.deepEqual(
    versionDiff(nested, { 'v1/x/1': entry('1'), 'other/q': entry('4') }).roots,
    new Set(['v1', 'other', 'meta']),
    "a key's root is its first folder, from either manifest",
  );
});

test('the version to take over is the newest one the commit would prune, and none when it would prune none', async () => {
  const root = mkdtempSync(join(tmpdir(), 'contrail-recycle-'));
  for (const id of ['b1', 'b2', 'b3', 'b4']) await publish(root, id, { 'v1/x/1': 1 }, { keep: 5 });
  assert.equal(recyclable(root, 'b4', 3), 'b1', 'keep 3: b3, b2 and (after the commit) b4 stay');
  assert.equal(recyclable(root, 'b4', 2), 'b2', 'keep 2: the newest of b2 and b1');
  assert.equal(recyclable(root, 'b4', 1), 'b3');
  assert.equal(recyclable(root, 'b4', 0), 'b3', 'keep 0: every older version goes');
  assert.equal(recyclable(root, 'b4', 4), null, 'keep 4: the commit prunes nothing');
  mkdirSync(join(root, 'versions', 'b0.partial-1'));
  mkdirSync(join(root, 'versions', '.trash-b0.partial-1', 'v1'), { recursive: true });
  assert.equal(recyclable(root, 'b4', 3), 'b1', 'a partial build or a trash is never taken over');
  // the next build sweeps both: the partial at once, the trash in the background
  await publish(root, 'b5', { 'v1/x/1': 1 }, { keep: 5 });
  assert.deepEqual(await versionsSettled(root), ['b1', 'b2', 'b3', 'b4', 'b5']);
});

for (const background of [false, true]) {
  test(`a build takes over the version its commit would prune and ends exactly as a copy would (${background ? 'in a worker beside the steps' : 'in this thread'}); no other version changes`, async () => {
    const root = mkdtempSync(join(tmpdir(), 'contrail-recycle-'));
    const opts: StageOptions = { keep: 1, ...(background ? { linkInBackground: true, workers: 1 } : {}) };
    await publish(root, 'b1', { 'v1/x/1': 1, 'v1/x/2': 2, 'v1/x/3': 3, 'v1/y/1': 1 }, opts, 'old');
    await publish(root, 'b2', { 'v1/x/1': 1, 'v1/x/2': 22, 'v1/x/4': 4, 'v1/z/deep/1': 1, 'v1/y/1': 1 }, opts, 'kept');
    writeFileSync(join(v(root, 'b1'), 'state', 'only-b1.json'), 'b1'); // a file of b1's own outside the objects
    writeFileSync(join(v(root, 'b1'), 'build-inputs.json'), 'b1');
    const b2Before = filesOf(v(root, 'b2'));
    const b1x2 = ino(root, 'b1', 'v1/x/2.gz');
    // b3 changes x/2 again, keeps x/1, x/4 and z/deep/1, drops y/1 and adds x/5
    const s = await publish(root, 'b3', { 'v1/x/1': 1, 'v1/x/2': 222, 'v1/x/4': 4, 'v1/z/deep/1': 1, 'v1/x/5': 5 }, opts);
    assert.equal(ino(root, 'b3', 'v1/x/2.gz'), b1x2, "x/2, b1's own file (no other version links it), written over in place");
    assert.equal(s.recycled, 'b1');
    assert.deepEqual(await versionsSettled(root), ['b2', 'b3'], 'b1 became b3; nothing left to prune, its replaced files removed');
    assert.deepEqual(
      s.writer.link.recycled?.stats,
      { added: 2, changed: 1, removed: 1, walked: false },
      "b1 against b2: x/4 and z/deep/1 added, x/2 changed, x/3 removed; b1's names sealed at its commit, not walked",
    );
    assert.equal(s.writer.link.relinked, 2, "x/4 and z/deep/1, kept by b3, linked from b2; x/2 written, x/1 and y/1 already b2's");
    assert.match(
      linkReport(s),
      /^build b1 taken over \(against build b2: 2 objects added, 1 changed, 1 removed; 2 of them kept tonight and linked from it; 0 written into files those links set aside, not new ones\)/,
    );
    const files = filesOf(v(root, 'b3'));
    const manifest = currentVersion(root)!.manifest;
    assert.equal(manifest.build_id, 'b3');
    assert.deepEqual(
      Object.keys(files)
        .filter((f) => f.endsWith('.gz'))
        .sort(),
      Object.keys(manifest.objects)
        .map((k) => `${k}.gz`)
        .sort(),
      "one file per object of the manifest, none more (b1's x/3 and b2's y/1 gone)",
    );
    for (const [k, n] of Object.entries({ 'v1/x/1': 1, 'v1/x/2': 222, 'v1/x/4': 4, 'v1/z/deep/1': 1, 'v1/x/5': 5 })) assert.equal(files[`${k}.gz`], text(n), k);
    assert.equal(files['state/kept.json'], 'kept', "the current version's other files are linked in");
    assert.equal(files['state/old.json'], 'old', 'b2 had it from b1 (copied)');
    assert.equal(files['state/only-b1.json'], undefined, "the recycled version's own files outside the objects are gone");
    assert.equal(files['build-inputs.json'], undefined, 'b2 had none');
    for (const f of ['v1/x/1.gz', 'v1/x/4.gz', 'v1/z/deep/1.gz']) assert.equal(ino(root, 'b3', f), ino(root, 'b2', f), `${f} is b2's file, linked`);
    assert.deepEqual(filesOf(v(root, 'b2')), b2Before, 'the previous version is untouched');
  });
}

for (const background of [false, true]) {
  test(`a taken-over file another kept version links is not written through: moved aside, a new file made (${background ? 'write worker' : 'this thread'})`, async () => {
    const root = mkdtempSync(join(tmpdir(), 'contrail-recycle-'));
    const opts: StageOptions = { keep: 2, ...(background ? { linkInBackground: true, workers: 1 } : {}) };
    await publish(root, 'b1', { 'v1/x/1': 1, 'v1/x/2': 2 }, opts);
    await publish(root, 'b2', { 'v1/x/1': 1, 'v1/x/2': 2 }, opts); // links b1's files
    await publish(root, 'b3', { 'v1/x/1': 3, 'v1/x/2': 3 }, opts);
    const shared = ino(root, 'b1', 'v1/x/1.gz');
    assert.equal(ino(root, 'b2', 'v1/x/1.gz'), shared, 'b1 and b2 share x/1');
    const s = await publish(root, 'b4', { 'v1/x/1': 4, 'v1/x/2': 3 }, opts);
    assert.equal(s.recycled, 'b1');
    assert.deepEqual(await versionsSettled(root), ['b2', 'b3', 'b4']);
    assert.equal(filesOf(v(root, 'b4'))['v1/x/1.gz'], text(4));
    assert.notEqual(ino(root, 'b4', 'v1/x/1.gz'), shared, "a new file, not b1's written through");
    const own = (f: string) => readFileSync(join(v(root, 'b2'), f), 'utf8');
    assert.deepEqual(
      filesOf(v(root, 'b2')),
      {
        'manifest.json': own('manifest.json'),
        'version.json': own('version.json'),
        'state/names-seal.json': own('state/names-seal.json'),
        'v1/x/1.gz': text(1),
        'v1/x/2.gz': text(2),
      },
      'b2 still holds what it published',
    );
    assert.equal(ino(root, 'b4', 'v1/x/2.gz'), ino(root, 'b3', 'v1/x/2.gz'), 'x/2, kept, linked from b3');
  });
}

for (const background of [false, true]) {
  test(`a name the taken-over folder shares with the current version gets the file of a name linked from it, written in place, not a new file (${background ? 'write worker' : 'this thread'})`, async () => {
    const root = mkdtempSync(join(tmpdir(), 'contrail-recycle-'));
    const opts: StageOptions = { keep: 1, ...(background ? { linkInBackground: true, workers: 1 } : {}) };
    await publish(root, 'b1', { 'v1/x/a': 1, 'v1/x/b': 2 }, opts);
    await publish(root, 'b2', { 'v1/x/a': 1, 'v1/x/b': 3 }, opts); // copied: a shared with b1, b its own
    const b1b = ino(root, 'b1', 'v1/x/b.gz');
    const b2Before = filesOf(v(root, 'b2'));
    const s = stage(root, 'b3', opts);
    assert.equal(s.recycled, 'b1');
    s.writer.putBytes('v1/x/b', Buffer.from(text(3))); // as b2: b2's file linked in, b1's b set aside
    await s.writer.flush();
    s.writer.putBytes('v1/x/a', Buffer.from(text(9))); // a name b1 shares with b2: written
    await s.writer.flush();
    s.writer.writeManifest(meta('b3'));
    commit(root, s, 1);
    await s.writer.close();
    assert.equal(ino(root, 'b3', 'v1/x/a.gz'), b1b, "a holds b1's old file of b, written over");
    assert.equal(s.writer.link.spared, 1);
    assert.equal(ino(root, 'b3', 'v1/x/b.gz'), ino(root, 'b2', 'v1/x/b.gz'), "b is b2's file, linked");
    const files = filesOf(v(root, 'b3'));
    assert.deepEqual([files['v1/x/a.gz'], files['v1/x/b.gz']], [text(9), text(3)]);
    assert.deepEqual(filesOf(v(root, 'b2')), b2Before, 'the previous version is untouched');
  });
}

test('a write made while the old version is checked waits for it, and is what the new version holds', async () => {
  const root = mkdtempSync(join(tmpdir(), 'contrail-recycle-'));
  // no write workers: a write that did not wait would be made at once, before the worker has said which files the folder holds
  const opts: StageOptions = { keep: 1, linkInBackground: true, workers: 0 };
  await publish(root, 'b1', { 'v1/x/1': 1, 'v1/x/2': 2, 'v1/x/3': 3 }, opts);
  await publish(root, 'b2', { 'v1/x/2': 2, 'v1/x/3': 33 }, opts);
  const s = stage(root, 'b3', opts);
  assert.equal(s.recycled, 'b1');
  // x/1 is new against b2 but b1's folder has it: written as new, it would fail on the name that exists
  s.writer.putBytes('v1/x/1', Buffer.from(text(111)));
  s.writer.putBytes('v1/x/2', Buffer.from(text(2)));
  s.writer.putBytes('v1/x/3', Buffer.from(text(33)));
  await s.writer.flush();
  s.writer.writeManifest(meta('b3'));
  commit(root, s, 1);
  await s.writer.close();
  const files = filesOf(v(root, 'b3'));
  assert.deepEqual([files['v1/x/1.gz'], files['v1/x/2.gz'], files['v1/x/3.gz']], [text(111), text(2), text(33)]);
  assert.equal(s.writer.link.relinked, 1, 'x/3, kept, linked from b2');
  assert.equal(ino(root, 'b3', 'v1/x/3.gz'), ino(root, 'b2', 'v1/x/3.gz'));
  assert.deepEqual(
    Object.keys(filesOf(v(root, 'b2')))
      .filter((f) => f.endsWith('.gz'))
      .sort(),
    ['v1/x/2.gz', 'v1/x/3.gz'],
    'b2 as it was',
  );
});

const broken: [string, (dir: string) => void, RegExp][] = [
  ['lacks a file its manifest names', (d) => rmSync(join(d, 'v1/x/1.gz')), /holds 2 of the 3 objects its manifest names/],
  ['holds a file its manifest does not name', (d) => writeFileSync(join(d, 'v1/x/9.gz'), 'stray'), /holds v1\/x\/9\.gz, which its manifest does not name/],
  ['holds a name the current version adds', (d) => writeFileSync(join(d, 'v1/x/4.gz'), 'stray'), /holds v1\/x\/4\.gz, which its manifest does not name/],
  ['lacks a file the current version removes', (d) => rmSync(join(d, 'v1/x/3.gz')), /holds 2 of the 3 objects its manifest names/],
  [
    'holds a file not named like an object',
    (d) => writeFileSync(join(d, 'v1/x/1.gz.tmp'), 'stray'),
    /holds v1\/x\/1\.gz\.tmp, which its manifest does not name/,
  ],
  ['has no manifest', (d) => rmSync(join(d, 'manifest.json')), /has no readable manifest\.json/],
  ['has a manifest that is not JSON', (d) => writeFileSync(join(d, 'manifest.json'), '{"objects": {'), /has no readable manifest\.json/],
];
for (const [what, breakIt, why] of broken) {
  for (const background of [false, true]) {
    test(`an old version that ${what} is not trusted: it is emptied and the current one copied (${background ? 'worker' : 'this thread'})`, async () => {
      const root = mkdtempSync(join(tmpdir(), 'contrail-recycle-'));
      const opts: StageOptions = { keep: 1, ...(background ? { linkInBackground: true, workers: 1 } : {}) };
      await publish(root, 'b1', { 'v1/x/1': 1, 'v1/x/2': 2, 'v1/x/3': 3 }, opts);
      await publish(root, 'b2', { 'v1/x/1': 1, 'v1/x/2': 22, 'v1/x/4': 4 }, opts);
      breakIt(v(root, 'b1'));
      const s = await publish(root, 'b3', { 'v1/x/1': 1, 'v1/x/2': 22, 'v1/x/4': 44 }, opts);
      assert.equal(s.writer.link.recycled?.stats, null);
      assert.match(s.writer.link.recycled?.notRecyclable ?? '', why);
      assert.match(linkReport(s), /^build b1 could not be recycled \(.*\): it was emptied and build b2 hard-link copied/);
      const files = filesOf(v(root, 'b3'));
      assert.deepEqual(
        Object.keys(files)
          .filter((f) => f.endsWith('.gz'))
          .sort(),
        ['v1/x/1.gz', 'v1/x/2.gz', 'v1/x/4.gz'],
        'nothing of b1 is left',
      );
      assert.deepEqual([files['v1/x/1.gz'], files['v1/x/2.gz'], files['v1/x/4.gz']], [text(1), text(22), text(44)]);
    });
  }
}

test('a build that fails after taking over an old version removes it and leaves the current one served', async () => {
  const root = mkdtempSync(join(tmpdir(), 'contrail-recycle-'));
  await publish(root, 'b1', { 'v1/x/1': 1 }, { keep: 1 });
  await publish(root, 'b2', { 'v1/x/1': 2 }, { keep: 1 });
  const s = stage(root, 'b3', { keep: 1 });
  assert.equal(s.recycled, 'b1');
  s.writer.putBytes('v1/x/1', Buffer.from(text(3)));
  abandon(s);
  assert.equal(currentVersion(root)?.id, 'b2');
  assert.equal(filesOf(v(root, 'b2'))['v1/x/1.gz'], text(2));
  assert.deepEqual(await versionsSettled(root), ['b2'], 'the taken-over version went with the failed build');
  assert.ok(!existsSync(v(root, 'b1')), 'b1 is gone, as the commit would have pruned it');
});

test('without keep, or with nothing to prune, a build copies the current version as before', async () => {
  const root = mkdtempSync(join(tmpdir(), 'contrail-recycle-'));
  await publish(root, 'b1', { 'v1/x/1': 1 });
  const a = await publish(root, 'b2', { 'v1/x/1': 1 }, { keep: 3 });
  assert.equal(a.recycled, null);
  assert.equal(a.writer.link.recycled, null);
  const b = await publish(root, 'b3', { 'v1/x/1': 1 });
  assert.equal(b.recycled, null, 'stage without keep never takes a version over');
  assert.deepEqual(readdirSync(join(root, 'versions')).sort(), ['b1', 'b2', 'b3']);
});

test('a roll (one object written, the rest kept with keepTheRest) in a taken-over folder: the dirty kept objects are linked, the tree is exact', async () => {
  const root = mkdtempSync(join(tmpdir(), 'contrail-recycle-'));
  await publish(root, 'b1', { 'v1/x/1': 1, 'v1/x/2': 2, 'v1/x/3': 3 }, { keep: 1 });
  await publish(root, 'b2', { 'v1/x/1': 11, 'v1/x/2': 2, 'v1/x/4': 4 }, { keep: 1 });
  const s = stage(root, 'b3', { keep: 1 });
  assert.equal(s.recycled, 'b1');
  s.writer.putBytes('v1/x/2', Buffer.from(text(22)));
  s.writer.keepTheRest();
  s.writer.writeManifest(meta('b3'));
  // b1's own files, linked over (x/1) and removed (x/3), wait in the trash: their inodes are freed after the commit
  assert.deepEqual(filesOf(s.writer.trash!), { 'v1~x~1.gz': text(1), 'v1~x~3.gz': text(3) });
  commit(root, s, 1);
  assert.deepEqual(await versionsSettled(root), ['b2', 'b3'], 'the trash removed in the background');
  assert.equal(s.writer.link.relinked, 2, 'x/1 (changed by b2) and x/4 (added by b2) linked from b2');
  const files = filesOf(v(root, 'b3'));
  assert.deepEqual(
    Object.keys(files)
      .filter((f) => f.endsWith('.gz'))
      .sort(),
    ['v1/x/1.gz', 'v1/x/2.gz', 'v1/x/4.gz'],
    "b1's x/3 is gone",
  );
  assert.deepEqual([files['v1/x/1.gz'], files['v1/x/2.gz'], files['v1/x/4.gz']], [text(11), text(22), text(4)]);
  for (const f of ['v1/x/1.gz', 'v1/x/4.gz']) assert.equal(ino(root, 'b3', f), ino(root, 'b2', f), `${f} is b2's file`);
});

test('a build that drops every object of a folder removes the folder, so its names are sealed; a take-over walks the names only when the seal does not hold', async () => {
  const root = mkdtempSync(join(tmpdir(), 'contrail-recycle-'));
  const a = await publish(root, 'b1', { 'v1/x/1': 1, 'v1/gone/deep/1': 1 }, { keep: 1 });
  assert.equal(a.writer.sealed, true);
  const b = await publish(root, 'b2', { 'v1/x/1': 2 }, { keep: 1 });
  assert.ok(!existsSync(join(v(root, 'b2'), 'v1/gone')), 'v1/gone/deep emptied, then v1/gone: both removed');
  assert.equal(b.writer.sealed, true, 'no folder without an object is left, so b2 is sealed');
  const c = await publish(root, 'b3', { 'v1/x/1': 3 }, { keep: 1 });
  assert.equal(c.recycled, 'b1');
  assert.equal(c.writer.link.recycled?.stats?.walked, false, 'b1 sealed and untouched: its names were not walked');
  assert.match(linkReport(c), /its check \(its names sealed, not walked\)/);
  // b2's names changed and changed back: the same names, a later ctime, so the walk checks them
  writeFileSync(join(v(root, 'b2'), 'v1/x/tmp.gz'), 'x');
  rmSync(join(v(root, 'b2'), 'v1/x/tmp.gz'));
  const d = await publish(root, 'b4', { 'v1/x/1': 4 }, { keep: 1 });
  assert.equal(d.recycled, 'b2');
  assert.equal(d.writer.link.recycled?.stats?.walked, true, "b2's folder changed after its seal: walked, and found whole");
  assert.match(linkReport(d), /its check \(no intact seal: every name walked\)/);
  assert.equal(filesOf(v(root, 'b4'))['v1/x/1.gz'], text(4));
});
