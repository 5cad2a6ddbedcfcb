// the hard-link copy a new version starts from, run while the build writes into the same folder:
// whichever comes first, a name the build wrote holds the build's bytes, every other name is a link
// to the previous version, and the previous version's files are never written into.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { copyKeepsWritten, hardLinkCopy } from '../../../build/publish/hard-link-copy.ts';
import { ObjectTable } from '../../../artifacts/object-table.ts';

/** a previous version of `n` objects in v1/x and v1/y, and the keys of its manifest */
function previousVersion(n: number) {
  const root = mkdtempSync(join(tmpdir(), 'contrail-cp-'));
  const from = join(root, 'prev');
  const objects = new ObjectTable();
  for (const kind of ['x', 'y']) {
    mkdirSync(join(from, 'v1', kind), { recursive: true });
    for (let i = 0; i < n; i++) {
      writeFileSync(join(from, 'v1', kind, `${i}.gz`), `previous ${kind} ${i}`);
      objects.add(`v1/${kind}/${i}`, null, 1, 1);
    }
  }
  writeFileSync(join(from, 'version.json'), '{}');
  return { root, from, to: join(root, 'next'), objects };
}

/** the build's way of replacing a name: a new file renamed into place (gzip-file.ts) */
function writeAside(file: string, text: string) {
  writeFileSync(`${file}.tmp`, text);
  renameSync(`${file}.tmp`, file);
}

test("this system's cp can skip what the build wrote (else the writer makes writes wait for the copy)", () => {
  // GNU coreutils 9.1 (Debian 12) does; the writer falls back when the probe says no
  assert.equal(copyKeepsWritten(), true);
});

test("names written before the copy keep the build's bytes; the others are links; the previous files are untouched", async () => {
  const { from, to, objects } = previousVersion(300);
  mkdirSync(join(to, 'v1', 'x'), { recursive: true });
  for (let i = 0; i < 300; i += 3) writeAside(join(to, 'v1', 'x', `${i}.gz`), `new x ${i}`);
  await hardLinkCopy(from, to, objects, true);
  for (let i = 0; i < 300; i++) {
    const f = join(to, 'v1', 'x', `${i}.gz`);
    assert.equal(readFileSync(f, 'utf8'), i % 3 === 0 ? `new x ${i}` : `previous x ${i}`, `v1/x/${i}`);
    assert.equal(readFileSync(join(from, 'v1', 'x', `${i}.gz`), 'utf8'), `previous x ${i}`, `the previous v1/x/${i}`);
    if (i % 3) assert.equal(statSync(f).ino, statSync(join(from, 'v1', 'x', `${i}.gz`)).ino, `v1/x/${i} is a link`);
  }
  assert.equal(readdirSync(join(to, 'v1', 'y')).length, 300);
  assert.equal(statSync(join(to, 'version.json')).ino, statSync(join(from, 'version.json')).ino);
});

test("names written while the copy runs keep the build's bytes, in whichever order the two reach them", async () => {
  const n = 20000;
  const { from, to, objects } = previousVersion(n);
  mkdirSync(join(to, 'v1', 'x'), { recursive: true });
  mkdirSync(join(to, 'v1', 'y'), { recursive: true });
  const copy = hardLinkCopy(from, to, objects, true);
  // the build writes every 7th name of both kinds while cp links them, yielding to let it run
  const written: string[] = [];
  for (let i = 0; i < n; i += 7) {
    for (const kind of ['x', 'y']) {
      writeAside(join(to, 'v1', kind, `${i}.gz`), `new ${kind} ${i}`);
      written.push(`${kind}/${i}`);
    }
    if (i % 700 === 0) await new Promise((r) => setImmediate(r));
  }
  await copy;
  for (const kind of ['x', 'y']) {
    const names = readdirSync(join(to, 'v1', kind));
    assert.equal(names.length, n, `every v1/${kind} object, no temporary name left: ${names.filter((x) => x.endsWith('.tmp')).slice(0, 3)}`);
    for (let i = 0; i < n; i++) {
      const text = readFileSync(join(to, 'v1', kind, `${i}.gz`), 'utf8');
      assert.equal(text, i % 7 === 0 ? `new ${kind} ${i}` : `previous ${kind} ${i}`, `v1/${kind}/${i}`);
      assert.equal(readFileSync(join(from, 'v1', kind, `${i}.gz`), 'utf8'), `previous ${kind} ${i}`, `the previous v1/${kind}/${i}`);
    }
  }
});

test('a copy that cannot be made fails with both folders named, after its runs', async () => {
  const { root, from, objects } = previousVersion(3);
  const to = join(root, 'a-file');
  writeFileSync(to, 'a file, not a folder');
  await assert.rejects(hardLinkCopy(from, to, objects, true), /cannot hard-link .*prev to .*a-file: /);
});
