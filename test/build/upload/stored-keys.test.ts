// where an object lives in the bucket (build/upload/stored-keys.ts): its URL path and its content in
// the key, read back by a reader; and what a resumed upload retires (plan.ts adoptOrphans): the
// stored objects a listing finds that nothing names, and nothing else.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ObjectTable } from '../../../artifacts/object-table.ts';
import { parseStoredKey, storedKey, storedKeyAt, objectsPrefix } from '../../../build/upload/stored-keys.ts';
import { adoptOrphans, planUpload } from '../../../build/upload/plan.ts';

const SHA = (c: string) => c.repeat(64);
const NOW = Date.UTC(2026, 10, 22, 4);

test('a stored key holds the URL path, the sha256 and the stored length, and reads back', () => {
  const k = storedKey('prod', 'v1/alliances/star', SHA('a'), 2731);
  assert.equal(k, `prod/o/v1/alliances/star/${SHA('a')}-2731`);
  assert.deepEqual(parseStoredKey('prod', k), { path: 'v1/alliances/star', sha256: SHA('a'), bytes: 2731 });
  // a URL path that is the folder of another (v1/alliances/star/routes) is no object's prefix: each key ends in its content
  assert.ok(!storedKey('prod', 'v1/alliances/star/routes', SHA('b'), 9).startsWith(`${k}/`), 'no stored key is the folder of another');
  assert.equal(storedKey('', 'meta/routes', SHA('c'), 5), `o/meta/routes/${SHA('c')}-5`);
  assert.equal(objectsPrefix(''), 'o/');
  const t = new ObjectTable();
  t.add('v1/airframes/4b1814', SHA('d'), 900, 300);
  assert.equal(storedKeyAt('p', t, 0), `p/o/v1/airframes/4b1814/${SHA('d')}-300`, 'the stored length is the gzip length');
  for (const bad of [
    `prod/v1/x/${SHA('a')}-1`,
    `prod/o/${SHA('a')}-1`,
    'prod/o/v1/x/abc-1',
    `prod/o/v1/x/${SHA('a')}`,
    `prod/o/v1/x/${SHA('A')}-1`,
    `other/o/v1/x/${SHA('a')}-1`,
  ]) {
    assert.equal(parseStoredKey('prod', bad), null, bad);
  }
});

test('a resumed upload retires the stored objects nothing names, and nothing the manifest, the upload or the plan names', () => {
  const local = new ObjectTable();
  const remote = new ObjectTable();
  const key = (p: string, c: string) => storedKey('p', p, SHA(c), 10);
  local.add(key('v1/x/kept', 'a'), SHA('a'), 10, 10);
  local.add(key('v1/x/new', 'b'), SHA('b'), 10, 10);
  remote.add(key('v1/x/kept', 'a'), SHA('a'), 10, 10);
  remote.add(key('v1/x/old', 'c'), SHA('c'), 10, 10);
  const retired = {
    [key('v1/x/due', 'd')]: { since: new Date(NOW - 72 * 3600_000).toISOString(), sha256: SHA('d') },
    [key('v1/x/young', 'e')]: { since: new Date(NOW - 3600_000).toISOString(), sha256: SHA('e') },
  };
  const plan = planUpload(local, { objects: remote, retired }, NOW, 48 * 3600_000);
  assert.deepEqual(plan.delete, [key('v1/x/due', 'd')]);
  const listed = ['v1/x/kept:a', 'v1/x/new:b', 'v1/x/old:c', 'v1/x/due:d', 'v1/x/young:e', 'v1/x/abandoned:f', 'v1/x/undeleted:9'].map((s) =>
    key(s.split(':')[0]!, s.split(':')[1]!),
  );
  assert.equal(adoptOrphans(plan, listed, local, { objects: remote, retired }, NOW), 2);
  assert.deepEqual(
    Object.keys(plan.retired).sort(),
    [key('v1/x/abandoned', 'f'), key('v1/x/old', 'c'), key('v1/x/undeleted', '9'), key('v1/x/young', 'e')].sort(),
  );
  assert.deepEqual(plan.retired[key('v1/x/abandoned', 'f')], { since: new Date(NOW).toISOString(), sha256: SHA('f') });
  assert.equal(plan.retired[key('v1/x/young', 'e')]!.since, new Date(NOW - 3600_000).toISOString(), 'a retired object keeps the time it left');
  assert.equal(adoptOrphans(plan, listed, local, { objects: remote, retired }, NOW + 1), 0, 'adopted once');
});
