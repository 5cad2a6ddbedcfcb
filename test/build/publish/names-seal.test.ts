// a version's seal on its names (build/publish/names-seal.ts): a take-over skips the walk of every
// name only when no folder's names changed since the writer sealed them and the manifest is the one
// it wrote; anything else must read as unsealed, so the walk runs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NAMES_SEAL, ObjectFolders, namesSealed, removeEmptied, sealNames } from '../../../build/publish/names-seal.ts';

const folders = (...keys: string[]) => {
  const f = new ObjectFolders();
  for (const k of keys) f.add(k);
  return f;
};

/** a version folder holding one .gz file per key and a manifest.json */
function version(keys: string[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'contrail-seal-'));
  for (const k of keys) {
    mkdirSync(join(dir, k, '..'), { recursive: true });
    writeFileSync(join(dir, `${k}.gz`), k);
  }
  writeFileSync(join(dir, 'manifest.json'), JSON.stringify({ objects: Object.fromEntries(keys.map((k) => [k, {}])) }));
  return dir;
}

const KEYS = ['v1/airframes/a1', 'v1/airframes/a2', 'v1/refdata/airlines/X/schedule/A/B', 'v1/refdata/airlines/X/schedule/A/C', 'v1/refdata/types/T', 'meta/m'];

test("the object folders of a build: each key's folder and every folder above it, once", () => {
  const f = folders(...KEYS, 'v1/airframes/a3');
  assert.deepEqual([...f.all].sort(), [
    'meta',
    'v1',
    'v1/airframes',
    'v1/refdata',
    'v1/refdata/airlines',
    'v1/refdata/airlines/X',
    'v1/refdata/airlines/X/schedule',
    'v1/refdata/airlines/X/schedule/A',
    'v1/refdata/types',
  ]);
  assert.equal(f.flat, false);
  // a key whose folder's name begins like the last folder's is not taken for it
  assert.deepEqual([...folders('v1/a/1', 'v1/a/b/2', 'v1/ab/3').all].sort(), ['v1', 'v1/a', 'v1/a/b', 'v1/ab']);
  assert.equal(folders('v1/a/1', 'flat').flat, true, 'a key in no folder is noticed');
});

test('a sealed version reads as sealed until a name in any of its folders changes', () => {
  const changes: [string, (dir: string) => void][] = [
    ['a file added', (d) => writeFileSync(join(d, 'v1/airframes/a9.gz'), 'stray')],
    ['a file removed', (d) => rmSync(join(d, 'v1/airframes/a1.gz'))],
    ['a file renamed in its folder', (d) => renameSync(join(d, 'v1/refdata/types/T.gz'), join(d, 'v1/refdata/types/U.gz'))],
    ['a file removed deep down', (d) => rmSync(join(d, 'v1/refdata/airlines/X/schedule/A/B.gz'))],
    ['a folder added', (d) => mkdirSync(join(d, 'v1/refdata/new'))],
    ['a folder of objects removed', (d) => rmSync(join(d, 'meta'), { recursive: true })],
    [
      'the manifest written again, same text, same name',
      (d) => writeFileSync(join(d, 'manifest.json'), JSON.stringify({ objects: Object.fromEntries(KEYS.map((k) => [k, {}])) })),
    ],
    [
      'the manifest replaced by rename',
      (d) => {
        writeFileSync(join(d, 'm.tmp'), 'x');
        renameSync(join(d, 'm.tmp'), join(d, 'manifest.json'));
      },
    ],
    ['the seal unreadable', (d) => writeFileSync(join(d, NAMES_SEAL), '{"manifest": [')],
    ['the seal gone', (d) => rmSync(join(d, NAMES_SEAL))],
  ];
  for (const [what, change] of changes) {
    const dir = version(KEYS);
    assert.equal(sealNames(dir, folders(...KEYS)), true, what);
    assert.equal(namesSealed(dir), true, `sealed, before: ${what}`);
    change(dir);
    assert.equal(namesSealed(dir), false, what);
  }
});

test("a change made at once after the seal is seen (this machine's clock)", () => {
  for (let i = 0; i < 30; i++) {
    const dir = version(['v1/x/1']);
    writeFileSync(join(dir, 'v1/x/2.gz'), 'last write before the seal');
    assert.equal(sealNames(dir, folders('v1/x/1', 'v1/x/2')), true);
    writeFileSync(join(dir, 'v1/x/3.gz'), 'stray, right after');
    assert.equal(namesSealed(dir), false, `round ${i}: a file added right after the seal`);
  }
});

test("on a coarse clock the seal waits until the clock has passed every folder's last change, and gives up when it does not move", () => {
  // a kernel whose ctimes come from a tick of a few ms (this one's are fine-grained): a change in
  // the same tick as a folder's last one would leave its ctime as recorded. the seal is made only
  // when its own file's ctime is later than every folder's, so any later change reads later still
  const dir = version(['v1/x/1']);
  const latest = statSync(join(dir, 'v1/x'), { bigint: true }).ctimeNs;
  let now = latest; // the clock still in the tick of the folder's last change
  const waits: number[] = [];
  const coarse = {
    ctimeOf: () => now,
    sleep: (ms: number) => {
      waits.push(ms);
      if (waits.length === 3) now = latest + 4_000_000n;
    },
  };
  assert.equal(sealNames(dir, folders('v1/x/1'), coarse), true);
  assert.deepEqual(waits, [5, 5, 5], "sealed on the first reading past the folder's ctime, not before");
  const stuck = version(['v1/x/1']);
  const frozen = statSync(join(stuck, 'v1/x'), { bigint: true }).ctimeNs;
  let n = 0;
  assert.equal(sealNames(stuck, folders('v1/x/1'), { ctimeOf: () => frozen, sleep: () => n++ }), false, 'a clock that never passes it: no seal');
  assert.equal(n, 100, 'after 100 waits of 5 ms');
  assert.ok(!existsSync(join(stuck, NAMES_SEAL)) && !readdirSync(join(stuck, 'state')).length, 'and no seal or temporary file left');
});

test('no seal where it could not vouch for every name: a folder no object is in, a missing folder, a key in no folder', () => {
  const empty = version(KEYS);
  mkdirSync(join(empty, 'v1/refdata/left-over'));
  assert.equal(sealNames(empty, folders(...KEYS)), false, 'an empty folder no key names: a stray file there later would go unseen');
  assert.ok(!existsSync(join(empty, NAMES_SEAL)), 'and no seal file is left');
  const missing = version(KEYS);
  assert.equal(sealNames(missing, folders(...KEYS, 'v1/gone/1')), false, 'a folder the keys name is not there');
  const flat = version([...KEYS, 'flat']);
  assert.equal(sealNames(flat, folders(...KEYS, 'flat')), false, 'flat.gz sits beside manifest.json, in no folder the seal records');
  // an old seal linked in from the version before is replaced, not written through, and removed when no seal is made
  const linked = version(KEYS);
  sealNames(linked, folders(...KEYS));
  mkdirSync(join(linked, 'v1/refdata/left-over'));
  assert.equal(sealNames(linked, folders(...KEYS)), false);
  assert.ok(!existsSync(join(linked, NAMES_SEAL)), 'the earlier seal is gone');
});

test('the folders a removal empties are removed, deepest first; one holding anything else stays', () => {
  const dir = version([...KEYS, 'v1/old/a/1', 'v1/old/b/2', 'v1/kept/c/3']);
  for (const k of ['v1/old/a/1', 'v1/old/b/2', 'v1/kept/c/3']) rmSync(join(dir, `${k}.gz`));
  writeFileSync(join(dir, 'v1/kept/c/stray'), 'x');
  removeEmptied(dir, ['v1/old/a/1', 'v1/old/b/2', 'v1/kept/c/3'], folders(...KEYS));
  assert.ok(!existsSync(join(dir, 'v1/old')), 'v1/old/a and v1/old/b emptied, then v1/old');
  assert.ok(existsSync(join(dir, 'v1/kept/c/stray')), 'a folder with a stray file stays');
  assert.ok(existsSync(join(dir, 'v1/airframes/a1.gz')), 'folders with objects are not touched');
  assert.equal(sealNames(dir, folders(...KEYS)), false, 'v1/kept stays, so no seal');
});
