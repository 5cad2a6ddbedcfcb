// how one object's file is written (build/publish/gzip-file.ts writeGz): a name another name links
// is never written through (that file is a previous version's object), a taken-over folder's own
// file is written over in place, and every path leaves exactly the new gzip under the name.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, linkSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { gzipDoc, writeGz } from '../../../build/publish/gzip-file.ts';

const dir = () => mkdtempSync(join(tmpdir(), 'contrail-gzip-file-'));
const doc = (n: number) => JSON.stringify({ n, pad: 'x'.repeat(n) });
const read = (file: string) => gunzipSync(readFileSync(file)).toString();

test('a new name is created, and a name that exists is never written through without replace or aside', () => {
  const d = dir();
  const file = join(d, 'a.gz');
  writeGz(file, gzipDoc(doc(1)), false);
  assert.equal(read(file), doc(1));
  assert.throws(() => writeGz(file, gzipDoc(doc(2)), false), /EEXIST/, 'a write over a name that exists is refused');
  assert.equal(read(file), doc(1));
});

test('replace: the hard link is unlinked and a new file made; the other name keeps its bytes', () => {
  const d = dir();
  const previous = join(d, 'previous.gz');
  const file = join(d, 'a.gz');
  writeFileSync(previous, gzipDoc(doc(1)));
  linkSync(previous, file);
  writeGz(file, gzipDoc(doc(2)), true);
  assert.equal(read(file), doc(2));
  assert.equal(read(previous), doc(1), 'the previous version\'s file is untouched');
  assert.notEqual(statSync(file).ino, statSync(previous).ino);
  assert.ok(!existsSync(`${file}.tmp`), 'no temporary name left');
});

test('replace where the background copy has not linked the name yet: the file is created', () => {
  const d = dir();
  const file = join(d, 'a.gz');
  writeGz(file, gzipDoc(doc(3)), true);
  assert.equal(read(file), doc(3));
});

test('aside, the folder\'s own file: written over in place, cut to the new length, nothing moved', () => {
  const d = dir();
  const file = join(d, 'a.gz');
  const aside = join(d, 'trash-a.gz');
  writeFileSync(file, gzipDoc(doc(5000))); // longer than what replaces it
  const before = statSync(file).ino;
  const gz = gzipDoc(doc(7));
  writeGz(file, gz, true, aside);
  assert.equal(statSync(file).ino, before, 'the same inode');
  assert.equal(statSync(file).size, gz.length, 'no old bytes left after the new gzip');
  assert.equal(read(file), doc(7));
  assert.ok(!existsSync(aside), 'nothing moved aside');
});

test('aside, a file another name links: moved aside, a new file made, the other name untouched', () => {
  const d = dir();
  const other = join(d, 'other-version.gz');
  const file = join(d, 'a.gz');
  const aside = join(d, 'trash-a.gz');
  writeFileSync(other, gzipDoc(doc(1)));
  linkSync(other, file);
  writeGz(file, gzipDoc(doc(2)), true, aside);
  assert.equal(read(file), doc(2));
  assert.equal(read(other), doc(1), 'the other version\'s file keeps its bytes');
  assert.equal(statSync(aside).ino, statSync(other).ino, 'the old link waits in the trash');
  assert.notEqual(statSync(file).ino, statSync(other).ino);
});
