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
import { mulberry32 } from '../../../lib/random.ts';

const dir = () => mkdtempSync(join(tmpdir(), 'contrail-gzip-file-'));
const doc = (n: number) => JSON.stringify({ n, pad: 'x'.repeat(n) });
const read = (file: string) => gunzipSync(readFileSync(file)).toString();

test('a new name is created, and a name that exists is never written through without replace or aside', () => {
  const d = dir();
  const file = join(d, 'a.gz');
  writeGz(file, gzipDoc(doc(1)));
  assert.equal(read(file), doc(1));
  assert.throws(() => writeGz(file, gzipDoc(doc(2))), /EEXIST/, 'a write over a name that exists is refused');
  assert.equal(read(file), doc(1));
});

test('replace: the hard link is unlinked and a new file made; the other name keeps its bytes', () => {
  const d = dir();
  const previous = join(d, 'previous.gz');
  const file = join(d, 'a.gz');
  writeFileSync(previous, gzipDoc(doc(1)));
  linkSync(previous, file);
  writeGz(file, gzipDoc(doc(2)), { replace: true });
  assert.equal(read(file), doc(2));
  assert.equal(read(previous), doc(1), "the previous version's file is untouched");
  assert.notEqual(statSync(file).ino, statSync(previous).ino);
  assert.ok(!existsSync(`${file}.tmp`), 'no temporary name left');
});

test('replace where the background copy has not linked the name yet: the file is created', () => {
  const d = dir();
  const file = join(d, 'a.gz');
  writeGz(file, gzipDoc(doc(3)), { replace: true });
  assert.equal(read(file), doc(3));
});

test("aside, the folder's own file: written over in place, cut to the new length, nothing moved", () => {
  const d = dir();
  const file = join(d, 'a.gz');
  const aside = join(d, 'trash-a.gz');
  writeFileSync(file, gzipDoc(doc(5000))); // longer than what replaces it
  const before = statSync(file).ino;
  const gz = gzipDoc(doc(7));
  writeGz(file, gz, { replace: true, aside });
  assert.equal(statSync(file).ino, before, 'the same inode');
  assert.equal(statSync(file).size, gz.length, 'no old bytes left after the new gzip');
  assert.equal(read(file), doc(7));
  assert.ok(!existsSync(aside), 'nothing moved aside');
});

test("aside, written over with a gzip longer than a page: exactly its bytes remain (the pages' padding cut off)", () => {
  const d = dir();
  const file = join(d, 'a.gz');
  writeFileSync(file, gzipDoc(doc(1))); // shorter than what replaces it
  const before = statSync(file).ino;
  const random = mulberry32(7);
  const text = JSON.stringify({ noise: Array.from({ length: 1500 }, () => Math.floor(random() * 1e9).toString(36)) });
  const gz = gzipDoc(text);
  assert.ok(gz.length > 4096 && gz.length % 4096 !== 0, `the gzip (${gz.length} bytes) spans part of a second page`);
  writeGz(file, gz, { replace: true, aside: join(d, 'trash-a.gz') });
  assert.equal(statSync(file).ino, before, 'the same inode');
  assert.deepEqual(readFileSync(file), gz, "the file holds the gzip's bytes, no padding after them");
  assert.equal(read(file), text);
});

test('aside, a file another name links: moved aside, a new file made, the other name untouched', () => {
  const d = dir();
  const other = join(d, 'other-version.gz');
  const file = join(d, 'a.gz');
  const aside = join(d, 'trash-a.gz');
  writeFileSync(other, gzipDoc(doc(1)));
  linkSync(other, file);
  writeGz(file, gzipDoc(doc(2)), { replace: true, aside });
  assert.equal(read(file), doc(2));
  assert.equal(read(other), doc(1), "the other version's file keeps its bytes");
  assert.equal(statSync(aside).ino, statSync(other).ino, 'the old link waits in the trash');
  assert.notEqual(statSync(file).ino, statSync(other).ino);
});

test('spare: a spare file of the folder is renamed over a name linked to another version and written in place; that version keeps its file', () => {
  const d = dir();
  const previous = join(d, 'previous.gz');
  const file = join(d, 'a.gz');
  const spare = join(d, 'trash-b.gz');
  writeFileSync(previous, gzipDoc(doc(1)));
  linkSync(previous, file);
  writeFileSync(spare, gzipDoc(doc(3000)));
  const spareIno = statSync(spare).ino;
  writeGz(file, gzipDoc(doc(2)), { replace: true, spare });
  assert.equal(read(file), doc(2));
  assert.equal(statSync(file).ino, spareIno, "the spare's inode, no file created");
  assert.equal(read(previous), doc(1), "the previous version's file keeps its bytes");
  assert.equal(statSync(previous).nlink, 1, 'the name no longer links it');
  assert.ok(!existsSync(spare), 'the spare is used up');
});

test('spare: a spare another name links is dropped again and a new file made; both other names keep their bytes', () => {
  const d = dir();
  const previous = join(d, 'previous.gz');
  const file = join(d, 'a.gz');
  const third = join(d, 'third-version.gz');
  const spare = join(d, 'trash-b.gz');
  writeFileSync(previous, gzipDoc(doc(1)));
  linkSync(previous, file);
  writeFileSync(third, gzipDoc(doc(5)));
  linkSync(third, spare);
  writeGz(file, gzipDoc(doc(2)), { replace: true, spare });
  assert.equal(read(file), doc(2));
  assert.notEqual(statSync(file).ino, statSync(third).ino, 'not written through the shared spare');
  assert.equal(read(third), doc(5), "the third version's file keeps its bytes");
  assert.equal(statSync(third).nlink, 1, 'its link under the name was dropped');
  assert.equal(read(previous), doc(1));
  assert.ok(!existsSync(spare), 'the spare name is gone');
});
