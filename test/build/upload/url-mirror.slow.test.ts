// the url mirror (build/upload/url-mirror.ts): after the manifest, each changed object is copied to
// its URL path, so a plain CDN origin or an s3:// glob finds every URL as it is. against a real
// S3-compatible server (s3rver): what the mirror holds after a full upload, a changed build and the
// grace period; the server killed mid-mirror (a copy left torn on its disk) and the resumed run that
// finishes it; and the mirror turned off.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { commit, stage } from '../../../build/publish/publish.ts';
import { AfterSwitch, upload, PENDING_FILE, type UploadOptions } from '../../../build/upload/upload.ts';
import { parseRemoteManifest } from '../../../build/upload/remote-manifest.ts';
import { planMirror, type MirrorLocal } from '../../../build/upload/url-mirror.ts';
import { treeHeaders } from '../../../build/upload/headers.ts';
import { currentVersion } from '../../../artifacts/tree.ts';
import { fileOf } from '../../../artifacts/keys.ts';
import { mulberry32 } from '../../../lib/random.ts';
import { BUCKET, rawGet, startS3, storeAt, type S3Server } from '../../helpers/s3.ts';
import { faultProxy } from '../../helpers/fault-proxy.ts';

const T0 = Date.UTC(2026, 10, 22, 4, 0, 0);
const H = 3600_000;
const hexOf = (i: number) => (0x400000 + i).toString(16);
const doc = (i: number, night: number) => ({ error: 'not_found', detail: `airframe ${hexOf(i)} night ${night}` });

function publish(root: string, id: string, docs: Map<string, unknown>) {
  const s = stage(root, id);
  for (const [k, d] of docs) s.writer.putBytes(k, Buffer.from(JSON.stringify(d)));
  s.writer.writeManifest({ build_id: id, built_at: new Date(T0).toISOString(), archive_through: '2026-11-21', window_days: 1, counts: {} });
  commit(root, s);
}
const airframes = (n: number, night: (i: number) => number) =>
  new Map<string, unknown>(Array.from({ length: n }, (_, i) => [`v1/airframes/${hexOf(i)}`, doc(i, night(i))]));

const opts = (root: string, store: UploadOptions['store'], nowMs = T0): UploadOptions => ({
  root,
  bundles: '',
  store,
  prefix: 'pub',
  nowMs,
  graceMs: 48 * H,
  concurrency: 4,
  clock: () => T0,
  rand: mulberry32(9),
  sleep: async () => {},
  urlMirror: true,
});

/** every URL path of the published version is in the bucket at <prefix>/<path> with its bytes and its URL's headers */
async function mirrorHolds(s3: S3Server, root: string, when: string) {
  const version = currentVersion(root)!;
  for (const key of Object.keys(version.manifest.objects)) {
    const got = await rawGet(s3.endpoint, `pub/${key}`);
    assert.equal(got.status, 200, `${when}: ${key} is not mirrored`);
    assert.deepEqual(got.body, readFileSync(join(version.dir, fileOf(key))), `${when}: pub/${key} holds other bytes`);
    const h = treeHeaders(key);
    assert.deepEqual(
      [got.headers['content-type'], got.headers['content-encoding'], got.headers['cache-control']],
      [h.contentType, h.contentEncoding, h.cacheControl],
      `${when}: pub/${key}'s headers`,
    );
  }
}

/** the URL-path keys in the bucket (the mirror), without the prefix */
const mirrorKeys = async (s3: S3Server) => [...(await s3.store.list('pub/v1/')).keys()].map((k) => k.slice(4)).sort();

test('the mirror gets what the plan puts; a repair also what is missing, different or written since the interrupted run began; a path that left goes with its last retired key', () => {
  const paths = ['v1/airframes/4b0001', 'v1/airframes/4b0002', 'v1/airframes/4b0003'];
  const local: MirrorLocal = {
    size: 3,
    pathAt: (i) => paths[i]!,
    storedKeyAt: (i) => `p/o/${paths[i]}/${String(i).repeat(64)}-10`,
    gzipAt: () => 10,
    hasPath: (p) => paths.includes(p),
  };
  const gone = `p/o/v1/airframes/4b00ff/${'9'.repeat(64)}-10`;
  const plan = { put: [1], unchanged: 2, delete: [gone], retired: {} };
  assert.deepEqual(planMirror('p', local, plan, null), { copy: [1], delete: ['p/v1/airframes/4b00ff'] });
  // still retired: its mirror stays for the grace period
  assert.deepEqual(planMirror('p', local, { ...plan, delete: [], retired: { [gone]: { since: '2026-11-22T00:00:00Z', sha256: '9'.repeat(64) } } }, null), {
    copy: [1],
    delete: [],
  });
  const l = (etag: string, modifiedMs = 0) => ({ etag, bytes: 10, modifiedMs });
  const stored = new Map(paths.map((p, i) => [local.storedKeyAt(i), l(`e${i}`)]));
  // 4b0001: whole and older than the marker; 4b0003: written since the marker; 4b0002: in the plan; 4b00fe: a path no longer in the tree
  const mirrored = new Map([
    ['p/v1/airframes/4b0001', l('e0', 1000)],
    ['p/v1/airframes/4b0003', l('e2', 5000)],
    ['p/v1/airframes/4b00fe', l('x')],
  ]);
  assert.deepEqual(planMirror('p', local, { ...plan, delete: [] }, { stored, mirrored, since: 5000 }), { copy: [1, 2], delete: ['p/v1/airframes/4b00fe'] });
  mirrored.set('p/v1/airframes/4b0001', l('other', 1000));
  assert.deepEqual(
    planMirror('p', local, { ...plan, delete: [] }, { stored, mirrored, since: Infinity }).copy,
    [0, 1],
    'a mirror of another ETag than its stored key is copied again; no marker, no time rule',
  );
});

test('with the url mirror every URL path holds its object with its headers; changed paths are copied, a path that left stays until the grace period ends', async () => {
  const s3 = await startS3();
  try {
    const root = mkdtempSync(join(tmpdir(), 'contrail-mirror-'));
    publish(
      root,
      'b1',
      airframes(6, () => 1),
    );
    const r1 = await upload(opts(root, s3.store));
    assert.deepEqual([r1.put, r1.mirrored, r1.mirrorDeleted], [6, 6, 0]);
    assert.equal(parseRemoteManifest(await s3.store.get('pub/manifest.json'), 'm')!.header.url_mirror, true);
    await mirrorHolds(s3, root, 'b1');
    // b2: 0-1 changed, 5 gone, 6 new
    const b2 = airframes(7, (i) => (i < 2 || i === 6 ? 2 : 1));
    b2.delete(`v1/airframes/${hexOf(5)}`);
    publish(root, 'b2', b2);
    const lines: string[] = [];
    const r2 = await upload({ ...opts(root, s3.store, T0 + H), say: (l) => lines.push(l) });
    assert.deepEqual([r2.put, r2.mirrored, r2.mirrorDeleted], [3, 3, 0]);
    assert.ok(
      lines.some((l) => /^upload: url mirror: 3\/3 copied \(100 %\)/.test(l)),
      lines.join('\n'),
    );
    assert.match(lines.at(-1)!, /url mirror: 3 copied, 0 deleted$/);
    await mirrorHolds(s3, root, 'b2');
    assert.deepEqual(
      await mirrorKeys(s3),
      Array.from({ length: 7 }, (_, i) => `v1/airframes/${hexOf(i)}`),
      'the path that left is still served in the grace period',
    );
    const r3 = await upload(opts(root, s3.store, T0 + 50 * H));
    // b1's stored keys of 0, 1 (changed) and 5 (gone) are deleted; of the mirror, only 5's path
    assert.deepEqual([r3.put, r3.deleted, r3.mirrored, r3.mirrorDeleted], [0, 3, 0, 1]);
    assert.deepEqual(await mirrorKeys(s3), [...b2.keys()].sort(), "after it, exactly the build's paths");
  } finally {
    await s3.close();
  }
});

test('the S3 server killed mid-mirror: the manifest names the new build, and the resumed run mends and finishes the mirror; --no-url-mirror deletes it', async () => {
  const s3 = await startS3();
  // the server dies at the 13th of N copies, 4 in flight: some copies done, some torn, some not begun
  const N = 30;
  let copies = 0;
  let killed = false;
  const proxy = await faultProxy(s3.endpoint, (req) => {
    if (req.method === 'PUT' && req.headers['x-amz-copy-source'] && ++copies === 13 && !killed) {
      killed = true;
      void s3.kill();
    }
    return null;
  });
  try {
    const root = mkdtempSync(join(tmpdir(), 'contrail-mirror-'));
    publish(
      root,
      'b1',
      airframes(N, () => 1),
    );
    await upload(opts(root, s3.store));
    publish(
      root,
      'b2',
      airframes(N, () => 2),
    );
    const lines: string[] = [];
    const err = await upload({ ...opts(root, storeAt(proxy.endpoint), T0 + H), retry: { retries: 1, baseMs: 1, capMs: 10 }, say: (l) => lines.push(l) }).catch(
      (e: unknown) => e,
    );
    assert.ok(err instanceof AfterSwitch, String(err));
    assert.match(
      err.message,
      /pub\/manifest.json names build b2, but its url mirror or deletes are unfinished: copy pub\/v1\/airframes\/\S+: gave up after 2 attempts/,
    );
    await s3.restart();
    assert.equal(parseRemoteManifest(await s3.store.get('pub/manifest.json'), 'm')!.header.build_id, 'b2');
    assert.notEqual(await s3.store.get(`pub/${PENDING_FILE}`), null, 'the marker says the run did not finish');
    // what a copy torn by the kill can leave: the bytes without their headers (s3rver keeps them apart)
    const torn = 'pub/v1/airframes/400000';
    unlinkSync(join(s3.directory, BUCKET, 'pub/v1/airframes/400000._S3rver_metadata.json'));
    assert.equal((await rawGet(s3.endpoint, torn)).headers['content-encoding'], undefined);

    const r = await upload(opts(root, s3.store, T0 + 2 * H));
    assert.equal(r.resumed, true);
    assert.equal(r.put, 0);
    // every copy the killed run made is made again (its marker is older than them), and what it did not reach
    assert.equal(r.mirrored, N);
    await mirrorHolds(s3, root, 'after the resumed run');
    assert.equal(await s3.store.get(`pub/${PENDING_FILE}`), null);

    const off = await upload({ ...opts(root, s3.store, T0 + 3 * H), urlMirror: false });
    assert.deepEqual([off.mirrored, off.mirrorDeleted], [0, N]);
    assert.deepEqual(await mirrorKeys(s3), [], 'no URL-path object is left to serve an old build');
    assert.equal(parseRemoteManifest(await s3.store.get('pub/manifest.json'), 'm')!.header.url_mirror, false);
  } finally {
    await proxy.close();
    await s3.close();
  }
});
