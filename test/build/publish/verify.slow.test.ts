// a published version's files checked against its manifest (build/publish/verify.ts), and a build
// that distrusts the damaged ones (writer.ts distrust): each is written as a new file, the published
// version's damaged inode is never written into, and every other object is still hard-linked.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { closeSync, mkdtempSync, openSync, readFileSync, statSync, truncateSync, unlinkSync, utimesSync, writeSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { currentTable } from '../../../artifacts/tree.ts';
import { commit, stage } from '../../../build/publish/publish.ts';
import { badReport, verifyFolder, verifyInWorker } from '../../../build/publish/verify.ts';

const T0 = Date.UTC(2026, 10, 22, 3, 15, 0);
const meta = (id: string) => ({ build_id: id, built_at: new Date(T0).toISOString(), archive_through: '2026-11-21', window_days: 1, counts: {} });
const doc = (n: number) => ({ error: 'not_found', detail: `doc ${n} ${'x'.repeat(200)}` }); // any schema-valid document
const DOCS = { 'v1/x/1': 1, 'v1/x/2': 2, 'v1/x/3': 3, 'v1/y/4': 4, 'v1/y/5': 5 };

function publishOne(root: string, id: string, docs: Record<string, number>, damaged: string[] = [], keep?: number) {
  const s = stage(root, id, { keep });
  s.writer.distrust(damaged);
  for (const [k, n] of Object.entries(docs)) s.writer.putBytes(k, Buffer.from(JSON.stringify(doc(n))));
  s.writer.writeManifest(meta(id));
  return { version: commit(root, s, 1), stats: s.writer.stats };
}

const fileIn = (root: string, v: string, key: string) => join(root, 'versions', v, `${key}.gz`);

/** overwrite `n` bytes at `at` in place, as `dd conv=notrunc` does: same inode, same size */
function scribble(file: string, at: number, n: number, mtime?: Date): void {
  const before = statSync(file);
  assert.ok(at + n <= before.size, `${file} has ${before.size} bytes`);
  const fd = openSync(file, 'r+');
  writeSync(fd, Buffer.alloc(n, 0x5a), 0, n, at);
  closeSync(fd);
  if (mtime) utimesSync(file, mtime, mtime);
}

test("every night's check finds a file of another size, a missing one and one written after its version was published", () => {
  const root = mkdtempSync(join(tmpdir(), 'contrail-verify-'));
  publishOne(root, 'b1', DOCS);
  const dir = join(root, 'versions', 'b1');
  const ok = verifyFolder(dir, false);
  assert.deepEqual([ok.checked, ok.hashed, ok.bad], [5, 0, []], "an intact version: every object stat'ed, none hashed");
  scribble(fileIn(root, 'b1', 'v1/x/1'), 20, 8);
  // a write a second after the manifest (the file system's clock may be coarse)
  const later = new Date(statSync(join(dir, 'manifest.json')).mtimeMs + 1000);
  utimesSync(fileIn(root, 'b1', 'v1/x/1'), later, later);
  truncateSync(fileIn(root, 'b1', 'v1/x/2'), 10);
  unlinkSync(fileIn(root, 'b1', 'v1/y/4'));
  const v = verifyFolder(dir, false);
  assert.deepEqual(
    v.bad.map((b) => b.key),
    ['v1/x/1', 'v1/x/2', 'v1/y/4'],
  );
  assert.match(v.bad[0]!.why, /^modified after its version was published; /);
  assert.match(v.bad[1]!.why, /^10 bytes, the manifest says \d+$/);
  assert.equal(v.bad[2]!.why, 'missing');
  assert.equal(v.hashed, 1, 'only what was written since the manifest is hashed (the truncated one is told by its size)');
  assert.match(badReport('b1', v, 2), /^verify: build b1: 3 of 5 objects do not match its manifest: v1\/x\/1 \(.*\), v1\/x\/2 \(.*\), and 1 more; /);
});

test('a file rewritten with its old mtime put back is found by the full check only; the full check runs on a worker too', async () => {
  const root = mkdtempSync(join(tmpdir(), 'contrail-verify-'));
  publishOne(root, 'b1', DOCS);
  const dir = join(root, 'versions', 'b1');
  // its mtime set back to before the manifest's (a Date holds milliseconds: a second before)
  scribble(fileIn(root, 'b1', 'v1/y/5'), 30, 16, new Date(statSync(join(dir, 'manifest.json')).mtimeMs - 1000));
  assert.deepEqual(verifyFolder(dir, false).bad, [], 'size and mtime as published: the cheap check cannot tell');
  const full = verifyFolder(dir, true);
  assert.equal(full.hashed, 5);
  assert.deepEqual(
    full.bad.map((b) => b.key),
    ['v1/y/5'],
  );
  assert.match(full.bad[0]!.why, /not readable gzip|sha256|bytes of JSON/);
  const inWorker = await verifyInWorker(dir, true);
  assert.deepEqual(inWorker.bad, full.bad);
  await assert.rejects(verifyInWorker(join(root, 'no-such-version'), false), /cannot check .*no-such-version/);
});

for (const keep of [undefined, 1]) {
  const how = keep === undefined ? 'a hard-link copy' : 'a taken-over older version';
  test(`a build from ${how} writes each distrusted object as a new file with the published bytes, never into the damaged inode`, () => {
    const root = mkdtempSync(join(tmpdir(), 'contrail-verify-'));
    publishOne(root, 'b1', DOCS);
    publishOne(root, 'b2', DOCS); // b1 is then the version a build with keep 1 takes over
    const bad = fileIn(root, 'b2', 'v1/x/3');
    scribble(bad, 25, 12);
    const damaged = readFileSync(bad);
    const badIno = statSync(bad).ino;
    const { stats } = publishOne(root, 'b3', DOCS, ['v1/x/3'], keep);
    assert.deepEqual([stats.written, stats.repaired, stats.linked], [1, 1, 4], 'the damaged one written, the others linked');
    const now = fileIn(root, 'b3', 'v1/x/3');
    assert.notEqual(statSync(now).ino, badIno, 'a new file, not the damaged inode');
    assert.equal(gunzipSync(readFileSync(now)).toString(), JSON.stringify(doc(3)));
    assert.deepEqual(readFileSync(bad), damaged, "the published version's file was not written into");
    assert.equal(statSync(fileIn(root, 'b3', 'v1/x/1')).ino, statSync(fileIn(root, 'b2', 'v1/x/1')).ino, 'an intact object is still the same inode');
    assert.deepEqual(verifyFolder(join(root, 'versions', 'b3'), true).bad, []);
    assert.equal(currentTable(root)!.id, 'b3');
  });
}

test('a distrusted object is not kept unbuilt', () => {
  const root = mkdtempSync(join(tmpdir(), 'contrail-verify-'));
  publishOne(root, 'b1', DOCS);
  const s = stage(root, 'b2');
  s.writer.distrust(['v1/x/1']);
  assert.equal(s.writer.keep('v1/x/1'), false, 'the caller must build it');
  assert.equal(s.writer.keep('v1/x/2'), true);
});
