// publishing to a real S3-compatible server (s3rver on loopback): headers per object, only changed
// objects sent, deletion only after the grace period, the manifest last. failures come from a real
// proxy in front of it (test/helpers/fault-proxy.ts): throttling, 5xx and resets are retried, a
// request that keeps failing ends the run with a clear error, and an interrupted run is resumed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, truncateSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { commit, stage } from '../../../build/publish/publish.ts';
import { writeBundles } from '../../../build/bundle/bundle.ts';
import { PENDING_FILE, upload, type UploadOptions } from '../../../build/upload/upload.ts';
import { indexFiles, localFile } from '../../../build/bundle/index-file.ts';
import { fileOf } from '../../../artifacts/keys.ts';
import { mulberry32 } from '../../../lib/random.ts';
import { bucketOfKey } from '../../../build/upload/headers.ts';
import { DATA_CACHE, PARQUET_TYPE } from '../../../artifacts/bundles.ts';
import { parseRemoteManifest } from '../../../build/upload/remote-manifest.ts';
import { parseStoredKey, storedKey } from '../../../build/upload/stored-keys.ts';
import { policyFor } from '../../../schemas/policy.ts';
import { makeFixture, NOW_MS } from '../../helpers/publish-fixture.ts';
import { BUCKET, CREDS, rawGet, recording, startS3, storeAt } from '../../helpers/s3.ts';
import { faultProxy, type Fault } from '../../helpers/fault-proxy.ts';
import { uploadCommand } from '../../../build/upload/cli.ts';
import { runCommand } from '../../../lib/cli.ts';

const T0 = Date.UTC(2026, 10, 22, 4, 0, 0);
const H = 3600_000;
const doc = (n: number) => ({ error: 'not_found', detail: `doc ${n}` }); // any schema-valid document

function publish(root: string, id: string, docs: Record<string, number>) {
  const s = stage(root, id);
  for (const [k, n] of Object.entries(docs)) s.writer.putBytes(k, Buffer.from(JSON.stringify(doc(n))));
  s.writer.writeManifest({ build_id: id, built_at: new Date(T0).toISOString(), archive_through: '2026-11-21', window_days: 1, counts: {} });
  commit(root, s);
}

/** where the bucket keeps URL path `path` of the version published under `root` (stored-keys.ts) */
async function storedOf(root: string, path: string): Promise<string> {
  const e = (await import('../../../artifacts/tree.ts')).currentVersion(root)!.manifest.objects[path]!;
  return storedKey('pub', path, e.sha256, e.gzip_bytes);
}
/** the stored key the bucket's manifest names for URL path `path`, as a reader finds it */
async function resolve(store: UploadOptions['store'], path: string): Promise<string | undefined> {
  const m = parseRemoteManifest(await store.get('pub/manifest.json'), 'm')!;
  return [...m.objects.keys()].find((k) => parseStoredKey('pub', k)?.path === path);
}
/** stored keys as the URL paths they hold (other keys as they are) */
const pathsOf = (keys: string[]) => keys.map((k) => parseStoredKey('pub', k)?.path ?? k);

const TREE = { 'v1/airframes/4b1814': 1, 'v1/airports/ZRH': 2, 'v1/alliances/star/routes': 3, 'v1/route/SWR100': 4, 'meta/routes': 5 };
// retries wait no real time here: the waits themselves are checked in retry.test.ts
const opts = (root: string, store: UploadOptions['store'], nowMs = T0): UploadOptions => ({
  root,
  bundles: '',
  store,
  prefix: 'pub',
  nowMs,
  graceMs: 48 * H,
  concurrency: 3,
  clock: () => T0,
  rand: mulberry32(14),
  sleep: async () => {},
});

test('a full upload sends every object with the headers of its URL and puts the manifest last', async () => {
  const s3 = await startS3();
  try {
    const fx = await makeFixture(2, 3);
    const out = join(fx.dir, 'bundles');
    const b = await writeBundles({ log: fx.log, root: fx.root, out, nowMs: NOW_MS });
    const store = recording(s3.store);
    const r = await upload({ ...opts(fx.root, store), bundles: out });
    assert.equal(store.puts.at(-1), 'pub/manifest.json', 'the manifest is the last put');
    assert.equal(store.puts[0], `pub/${PENDING_FILE}`, 'the marker of an unfinished upload comes first');
    assert.equal(await s3.store.get(`pub/${PENDING_FILE}`), null, 'and is gone once the manifest is in place');
    assert.equal(r.put, r.objects);
    assert.equal(store.puts.length, r.objects + 2);

    const airframe = Object.keys((await import('../../../artifacts/tree.ts')).currentVersion(fx.root)!.manifest.objects).find((k) =>
      k.startsWith('v1/airframes/'),
    )!;
    assert.equal(await rawGet(s3.endpoint, `pub/${airframe}`).then((g) => g.status), 404, 'nothing is stored at the URL path itself');
    const got = await rawGet(s3.endpoint, (await resolve(s3.store, airframe))!);
    assert.equal(got.status, 200);
    assert.equal(got.headers['content-encoding'], 'gzip');
    assert.equal(got.headers['content-type'], 'application/json; charset=utf-8');
    assert.equal(got.headers['cache-control'], policyFor('airframe').cache);
    assert.equal(JSON.parse(gunzipSync(got.body).toString()).hex, airframe.split('/').pop());
    const sha = (await import('../../../artifacts/tree.ts')).currentVersion(fx.root)!.manifest.objects[airframe]!.sha256;
    assert.equal(got.headers['x-amz-meta-sha256'], sha, 'the content hash travels with the object');

    const day = b.index.log[0]!;
    const file = await rawGet(s3.endpoint, storedKey('pub', day.path.slice(1), day.sha256, day.bytes));
    assert.equal(file.headers['cache-control'], DATA_CACHE);
    assert.equal(file.headers['content-type'], PARQUET_TYPE);
    assert.equal(file.headers['content-encoding'], undefined, "stored as it is: a range read addresses the file's own bytes");
    assert.deepEqual(file.body, readFileSync(localFile(out, day)));
    const credits = await rawGet(s3.endpoint, (await resolve(s3.store, 'v1/bundles/CREDITS'))!);
    assert.equal(credits.headers['content-type'], 'text/plain; charset=utf-8');

    const index = await rawGet(s3.endpoint, (await resolve(s3.store, 'v1/bundles'))!);
    assert.equal(index.headers['cache-control'], policyFor('docs').cache);
    assert.deepEqual(JSON.parse(gunzipSync(index.body).toString()), b.index);

    const m = await rawGet(s3.endpoint, 'pub/manifest.json');
    assert.equal(m.headers['cache-control'], 'no-cache');
    const manifest = JSON.parse(m.body.toString());
    assert.equal(manifest.build_id, 'b1');
    assert.equal(manifest.stored_as, 'o/<url path>/<sha256>-<bytes>');
    assert.equal(Object.keys(manifest.objects).length, r.objects);
  } finally {
    await s3.close();
  }
});

test('a second run sends only the objects whose content changed', async () => {
  const s3 = await startS3();
  try {
    const root = mkdtempSync(join(tmpdir(), 'contrail-up-'));
    publish(root, 'b1', TREE);
    await upload(opts(root, s3.store));
    publish(root, 'b2', { ...TREE, 'v1/airports/ZRH': 20, 'v1/airframes/4b1815': 6 });
    const store = recording(s3.store);
    const r = await upload(opts(root, store, T0 + H));
    assert.deepEqual(pathsOf(store.puts).sort(), ['pub/manifest.json', `pub/${PENDING_FILE}`, 'v1/airframes/4b1815', 'v1/airports/ZRH']);
    assert.deepEqual([r.put, r.unchanged, r.skipped], [2, 4, 0]);
    const again = recording(s3.store);
    await upload(opts(root, again, T0 + 2 * H));
    assert.deepEqual(again.puts, ['pub/manifest.json'], 'nothing changed: only the manifest');
    assert.equal((await rawGet(s3.endpoint, await storedOf(root, 'meta/routes'))).headers['cache-control'], 'no-cache');
  } finally {
    await s3.close();
  }
});

test('an object that left the tree is deleted only after the grace period', async () => {
  const s3 = await startS3();
  try {
    const root = mkdtempSync(join(tmpdir(), 'contrail-up-'));
    publish(root, 'b1', TREE);
    await upload(opts(root, s3.store));
    const gone = await storedOf(root, 'v1/route/SWR100');
    const { 'v1/route/SWR100': _gone, ...rest } = TREE;
    publish(root, 'b2', rest);
    const r1 = await upload(opts(root, s3.store, T0 + H));
    assert.deepEqual([r1.deleted, r1.retired], [0, 1]);
    assert.equal((await rawGet(s3.endpoint, gone)).status, 200, 'still there for readers of the old manifest');
    const m = parseRemoteManifest(await s3.store.get('pub/manifest.json'), 'm')!;
    assert.equal(m.retired[gone]?.since, new Date(T0 + H).toISOString());
    assert.equal(m.objects.has(gone), false, 'a retired object is no longer among the objects');
    const r2 = await upload(opts(root, s3.store, T0 + 48 * H + H - 1));
    assert.equal(r2.deleted, 0, 'one millisecond before the grace period ends');
    assert.equal((await rawGet(s3.endpoint, gone)).status, 200);
    const r3 = await upload(opts(root, s3.store, T0 + 49 * H));
    assert.deepEqual([r3.deleted, r3.retired], [1, 0]);
    assert.equal((await rawGet(s3.endpoint, gone)).status, 404);
    assert.deepEqual(parseRemoteManifest(await s3.store.get('pub/manifest.json'), 'm')!.retired, {});
  } finally {
    await s3.close();
  }
});

/** a tree object's key, not the manifest or the marker */
const isObject = (key: string) => key.startsWith('pub/') && key !== 'pub/manifest.json' && key !== `pub/${PENDING_FILE}`;

/** b1 uploaded, then b2 published with all 5 objects changed and 10 new ones: 15 to send */
async function fifteenToSend(s3: Awaited<ReturnType<typeof startS3>>): Promise<{ root: string; before: string }> {
  const root = mkdtempSync(join(tmpdir(), 'contrail-up-'));
  publish(root, 'b1', TREE);
  await upload(opts(root, s3.store));
  const changed = Object.fromEntries(Object.entries(TREE).map(([k, n]) => [k, n + 100]));
  for (let i = 0; i < 10; i++) changed[`v1/airframes/4b18${String(20 + i)}`] = i;
  publish(root, 'b2', changed);
  return { root, before: (await s3.store.get('pub/manifest.json'))!.toString() };
}

/** every object the bucket's manifest names is in the bucket with the bytes of the local tree */
async function assertComplete(s3: Awaited<ReturnType<typeof startS3>>, root: string, buildId: string) {
  const m = parseRemoteManifest(await s3.store.get('pub/manifest.json'), 'm')!;
  assert.equal(m.header.build_id, buildId);
  const version = (await import('../../../artifacts/tree.ts')).currentVersion(root)!;
  for (const [key, e] of Object.entries(version.manifest.objects)) {
    const got = await rawGet(s3.endpoint, storedKey('pub', key, e.sha256, e.gzip_bytes));
    assert.equal(got.status, 200, key);
    assert.deepEqual(got.body, readFileSync(join(version.dir, fileOf(key))), key);
  }
  assert.deepEqual(
    [...m.objects.keys()].sort(),
    Object.entries(version.manifest.objects)
      .map(([k, e]) => storedKey('pub', k, e.sha256, e.gzip_bytes))
      .sort(),
  );
  assert.equal(await s3.store.get(`pub/${PENDING_FILE}`), null);
}

test('throttling, 5xx and connection resets are retried with back-off until every object is in place', async () => {
  const s3 = await startS3();
  const faults: Fault[] = [{ status: 503, code: 'SlowDown' }, { status: 429, code: 'TooManyRequests' }, { status: 500, code: 'InternalError' }, 'reset'];
  const seen = new Map<string, number>();
  // the first attempt of every object fails, each in one of the four ways; the second fails too for every third object
  const proxy = await faultProxy(s3.endpoint, (req, path) => {
    if (req.method !== 'PUT' || !isObject(path)) return null;
    const n = (seen.get(path) ?? 0) + 1;
    seen.set(path, n);
    const i = [...seen.keys()].indexOf(path);
    return n === 1 || (n === 2 && i % 3 === 0) ? faults[(i + n) % faults.length]! : null;
  });
  const waits: number[] = [];
  try {
    const { root } = await fifteenToSend(s3);
    const lines: string[] = [];
    const r = await upload({ ...opts(root, storeAt(proxy.endpoint), T0 + H), sleep: async (ms) => void waits.push(ms), say: (l) => lines.push(l) });
    assert.equal(proxy.injected, 15 + 5);
    assert.equal(r.retries, proxy.injected, 'each injected failure cost one retry');
    assert.deepEqual([r.put, r.skipped], [15, 0]);
    assert.ok(
      waits.every((w) => w >= 0 && w < 200),
      `first and second retries wait under 100 and 200 ms: ${waits}`,
    );
    assert.ok(
      lines.some((l) => /put pub\/o\/\S+: 503 SlowDown, retry 1 in \d+ ms/.test(l)),
      lines.join('\n'),
    );
    assert.ok(
      lines.some((l) => /ECONNRESET|socket hang up/.test(l)),
      'a reset is reported as such',
    );
    await assertComplete(s3, root, 'b2');
  } finally {
    await proxy.close();
    await s3.close();
  }
});

test('a request that keeps failing ends the run with the request, the attempts and the cause; the bucket keeps the old manifest', async () => {
  const s3 = await startS3();
  const hex29 = (path: string) => path.startsWith('pub/o/v1/airframes/4b1829/');
  const proxy = await faultProxy(s3.endpoint, (req, path) => (req.method === 'PUT' && hex29(path) ? { status: 503, code: 'SlowDown' } : null));
  try {
    const { root, before } = await fifteenToSend(s3);
    const retry = { retries: 2, baseMs: 10, capMs: 1000 };
    await assert.rejects(
      upload({ ...opts(root, storeAt(proxy.endpoint), T0 + H), retry }),
      /^RequestFailed: put pub\/o\/v1\/airframes\/4b1829\/[0-9a-f]{64}-\d+: gave up after 3 attempts, last: 503 SlowDown$/m,
    );
    assert.equal(proxy.injected, 3);
    assert.equal((await s3.store.get('pub/manifest.json'))!.toString(), before, 'the remote manifest was not touched');
    const forbidden = await faultProxy(s3.endpoint, (req, path) => (req.method === 'PUT' && hex29(path) ? { status: 403, code: 'AccessDenied' } : null));
    try {
      await assert.rejects(
        upload({ ...opts(root, storeAt(forbidden.endpoint), T0 + H), retry }),
        /put pub\/o\/v1\/airframes\/4b1829\/[0-9a-f]{64}-\d+: 403 AccessDenied \(not retried\)/,
      );
      assert.equal(forbidden.injected, 1);
    } finally {
      await forbidden.close();
    }
    const r = await upload(opts(root, s3.store, T0 + H));
    // 4b1829 is the last of the 15 in the manifest's order: the fourteen before it had arrived when it failed
    assert.deepEqual([r.resumed, r.skipped, r.put], [true, 14, 1], 'the objects that arrived are not sent again');
    await assertComplete(s3, root, 'b2');
  } finally {
    await proxy.close();
    await s3.close();
  }
});

test('an upload interrupted midway leaves the old manifest; the re-run sends only what had not arrived', async () => {
  const s3 = await startS3();
  const stop = new AbortController();
  let puts = 0;
  // the interruption: stop (as SIGINT or SIGTERM does) when the sixth object is on its way
  const first = await faultProxy(s3.endpoint, (req, path) => {
    if (req.method === 'PUT' && isObject(path) && ++puts === 6) stop.abort();
    return null;
  });
  const second = await faultProxy(s3.endpoint);
  try {
    const { root, before } = await fifteenToSend(s3);
    await assert.rejects(
      upload({ ...opts(root, storeAt(first.endpoint), T0 + H), signal: stop.signal }),
      /interrupted after \d+ of 15 objects .*pub\/manifest.json is unchanged; run again/,
    );
    const arrived = first.stored.filter(isObject);
    assert.ok(arrived.length >= 6 && arrived.length < 15, `${arrived.length} arrived`);
    assert.equal((await s3.store.get('pub/manifest.json'))!.toString(), before, 'the remote manifest was not touched');
    assert.notEqual(await s3.store.get(`pub/${PENDING_FILE}`), null, 'the marker says the upload is unfinished');

    const r = await upload(opts(root, storeAt(second.endpoint), T0 + H));
    assert.deepEqual([r.resumed, r.skipped, r.put], [true, arrived.length, 15 - arrived.length]);
    const sent = second.stored.filter(isObject);
    assert.equal(sent.length, 15 - arrived.length, 'only the rest was sent');
    assert.deepEqual(
      sent.filter((k) => arrived.includes(k)),
      [],
      'nothing that had arrived was sent again',
    );
    assert.equal(second.forwarded.GET, 3 + arrived.length, 'the manifest, the marker, one listing page and each object that had arrived, read back');
    assert.equal(second.stored.at(-1), 'pub/manifest.json');
    await assertComplete(s3, root, 'b2');
  } finally {
    await first.close();
    await second.close();
    await s3.close();
  }
});

test('a resumed run sends again an object the store left torn (bytes short of its ETag, bytes without their headers, another sha256), over it, and skips the whole ones', async () => {
  const s3 = await startS3();
  const stop = new AbortController();
  let puts = 0;
  const first = await faultProxy(s3.endpoint, (req, path) => {
    if (req.method === 'PUT' && isObject(path) && ++puts === 6) stop.abort();
    return null;
  });
  try {
    const { root } = await fifteenToSend(s3);
    await assert.rejects(upload({ ...opts(root, storeAt(first.endpoint), T0 + H), signal: stop.signal }), /interrupted after/);
    const arrived = first.stored.filter(isObject);
    assert.ok(arrived.length >= 6, `${arrived.length} arrived`);
    // what a store killed mid-write leaves (s3rver keeps an object as its bytes, an .md5 file and a metadata file)
    const file = (key: string, what: string) => {
      const parts = key.split('/');
      const leaf = parts.pop()!;
      return join(s3.directory, BUCKET, ...parts, `${leaf}._S3rver_${what}`);
    };
    const [short, bare, other] = arrived as [string, string, string];
    truncateSync(file(short, 'object'), 3);
    unlinkSync(file(bare, 'metadata.json'));
    const meta = JSON.parse(readFileSync(file(other, 'metadata.json'), 'utf8'));
    writeFileSync(file(other, 'metadata.json'), JSON.stringify({ ...meta, 'x-amz-meta-sha256': '0'.repeat(64) }));
    assert.equal((await rawGet(s3.endpoint, bare)).headers['content-encoding'], undefined, 'served without its headers');

    const second = await faultProxy(s3.endpoint);
    try {
      const r = await upload(opts(root, storeAt(second.endpoint), T0 + H));
      assert.deepEqual([r.resumed, r.skipped, r.put], [true, arrived.length - 3, 15 - arrived.length + 3]);
      assert.deepEqual(second.stored.filter((k) => arrived.includes(k)).sort(), [short, bare, other].sort(), 'the torn ones, and only they, were sent again');
    } finally {
      await second.close();
    }
    for (const key of [short, bare, other]) {
      const got = await rawGet(s3.endpoint, key);
      assert.equal(got.headers['content-encoding'], 'gzip', key);
      assert.equal(got.headers['x-amz-meta-sha256'], parseStoredKey('pub', key)!.sha256, key);
    }
    await assertComplete(s3, root, 'b2');
  } finally {
    await first.close();
    await s3.close();
  }
});

test('files above the multipart threshold go up in parts (a failed part is retried alone) and are recognised on a resumed run', async () => {
  const s3 = await startS3();
  let failedPart = false;
  const proxy = await faultProxy(s3.endpoint, (req) => {
    if (req.method !== 'PUT' || !/[?&]partNumber=2(&|$)/.test(req.url ?? '') || failedPart) return null;
    failedPart = true;
    return { status: 503, code: 'SlowDown' };
  });
  try {
    const fx = await makeFixture(2, 3);
    const out = join(fx.dir, 'bundles');
    const b = await writeBundles({ log: fx.log, root: fx.root, out, nowMs: NOW_MS });
    // lowered from 16 MB / 8 MB so the fixture's bundles are large files
    const big = { multipartBytes: 4096, partBytes: 2048 };
    const large = indexFiles(b.index).filter((x) => x.bytes >= big.multipartBytes);
    assert.ok(large.length >= 1 && large.some((x) => x.bytes > 2 * big.partBytes), 'the fixture has a bundle of three parts or more');
    const store = recording(storeAt(proxy.endpoint));
    const r = await upload({ ...opts(fx.root, store), bundles: out, ...big });
    assert.equal(r.retries, 1);
    const parts = large.reduce((s, x) => s + Math.ceil(x.bytes / big.partBytes), 0);
    assert.equal(proxy.forwarded.PUT, r.put - large.length + parts + 2, 'plain objects, every part once, the marker and the manifest');
    assert.equal(proxy.forwarded.POST, 2 * large.length, 'a start and a completion per large file');
    for (const x of large) {
      const got = await rawGet(s3.endpoint, storedKey('pub', x.path.slice(1), x.sha256, x.bytes));
      assert.deepEqual(got.body, readFileSync(localFile(out, x)), x.path);
      assert.equal(got.headers['content-type'], x.path.endsWith('.parquet') ? PARQUET_TYPE : 'text/plain; charset=utf-8');
      assert.equal(got.headers['cache-control'], DATA_CACHE);
    }
    // as if the run had been cut short before its manifest: everything is checked against the listing
    await s3.store.delete('pub/manifest.json');
    await s3.store.put(`pub/${PENDING_FILE}`, Buffer.from('{}'), { contentType: 'application/json', cacheControl: 'no-cache' }, '');
    const again = await upload({ ...opts(fx.root, s3.store), bundles: out, ...big });
    assert.deepEqual([again.resumed, again.put, again.skipped], [true, 0, r.objects], 'plain and multipart objects alike are found in place');
  } finally {
    await proxy.close();
    await s3.close();
  }
});

test('an object key names its bucket, and a key of no kind is refused', () => {
  assert.equal(bucketOfKey('v1/refdata/types/A320'), 'refdata');
  assert.throws(() => bucketOfKey('v9/unknown'), /no artifact kind has a key like v9\/unknown/);
});

test('the publish command rejects malformed flags with exit code 2 and the setting to fix, and documents every flag in --help', async () => {
  // in-process through the command's own parse and checks (lib/cli.ts runCommand): the same code the
  // spawned command below runs before its first request; a cold start per case cost ~10 s under load
  const run = async (args: string[]) => {
    const out: string[] = [];
    const err: string[] = [];
    const status = await runCommand(uploadCommand, args, {}, { out: (l) => out.push(l), err: (l) => err.push(l) });
    return { status, stdout: out.join('\n'), stderr: err.join('\n') };
  };
  const help = await run(['--help']);
  assert.equal(help.status, 0);
  for (const f of [
    '--endpoint',
    '--bucket',
    '--prefix',
    '--grace-hours',
    '--concurrency',
    '--retries',
    '--multipart-mb',
    '--part-mb',
    '--url-mirror',
    '--list-page-keys',
    'AWS_ACCESS_KEY_ID',
    'run it again',
  ]) {
    assert.ok(help.stdout.includes(f), f);
  }
  assert.match((await run(['--bucket', 'Bad_Bucket'])).stderr, /--bucket: expected a bucket name/);
  assert.match((await run([])).stderr, /--bucket \(or CONTRAIL_S3_BUCKET\) is required/);
  assert.equal((await run(['--bucket', 'ok-bucket', '--prefix', '/x/'])).status, 2);
  assert.match((await run(['--bucket', 'ok-bucket', '--endpoint', 'ftp://x'])).stderr, /expected an http\(s\) URL/);
  for (const [args, message] of [
    [['--concurrency', 'many'], /--concurrency: expected an integer, got "many"/],
    [['--concurrency', '0'], /--concurrency: must be 1\.\.256/],
    [['--retries', '-1'], /--retries: must be 0\.\.20/],
    [['--retries', '2.5'], /--retries: expected an integer/],
    [['--part-mb', '4'], /--part-mb: must be 5\.\.5120 \(S3's part sizes, in MiB\)/],
    [['--multipart-mb', 'big'], /--multipart-mb: expected a number/],
    [['--multipart-mb', '6000'], /--multipart-mb: must be 5\.\.5120/],
    [['--grace-hours', '-3'], /--grace-hours: must be 0 or more/],
    [['--list-page-keys', '0'], /--list-page-keys: must be 1\.\.1000 \(S3 answers at most 1000 keys a page\)/],
    [['--list-page-keys', '1001'], /--list-page-keys: must be 1\.\.1000/],
    [['--list-page-keys', '50.5'], /--list-page-keys: expected an integer/],
    [['--list-page-keys', 'all'], /--list-page-keys: expected an integer, got "all"/],
    [['--concurrency'], /flag --concurrency needs a value/],
    [['--no-such-flag', '1'], /unknown flag --no-such-flag/],
  ] as const) {
    const r = await run(['--bucket', 'ok-bucket', ...args]);
    assert.equal(r.status, 2, args.join(' '));
    assert.match(r.stderr, message);
  }
  assert.equal(
    await runCommand(uploadCommand, ['--bucket', 'ok-bucket'], { CONTRAIL_S3_LIST_PAGE_KEYS: '0' }, { out: () => {}, err: () => {} }),
    2,
    'the environment variable is checked too',
  );
});

test('the publish command uploads with AWS credentials from the environment; a malformed flag exits 2', async () => {
  const cli = new URL('../../../build/upload/cli.ts', import.meta.url).pathname;
  const runProcess = (args: string[], env: Record<string, string> = {}) => {
    const child = spawn(process.execPath, ['--import', 'tsx', cli, ...args], { env: { ...process.env, ...env } });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c));
    return new Promise<{ status: number | null; signal: NodeJS.Signals | null; stderr: string }>((resolve) =>
      child.on('close', (status, signal) => resolve({ status, signal, stderr })),
    );
  };
  // one real process refused (the exit code and stderr of a bad flag, as cron sees them), started
  // alongside the real upload: two cold starts at once instead of one after the other
  const refused = runProcess(['--bucket', 'ok-bucket', '--list-page-keys', '0']);
  const s3 = await startS3();
  try {
    const root = mkdtempSync(join(tmpdir(), 'contrail-up-'));
    publish(root, 'b1', TREE);
    const env = { AWS_ACCESS_KEY_ID: CREDS.accessKeyId, AWS_SECRET_ACCESS_KEY: CREDS.secretAccessKey };
    const ok = await runProcess(['--artifacts', root, '--bundles', '', '--endpoint', s3.endpoint, '--bucket', BUCKET, '--prefix', 'cli'], env);
    assert.equal(ok.status, 0, `status ${ok.status} signal ${ok.signal}: ${ok.stderr}`);
    assert.match(ok.stderr, /upload: done: 5 sent.*; url mirror: 5 copied, 0 deleted$/m);
    assert.equal((await rawGet(s3.endpoint, 'cli/v1/airframes/4b1814')).status, 200, 'the url mirror is on by default');
    assert.equal(JSON.parse((await s3.store.get('cli/manifest.json'))!.toString()).build_id, 'b1');
    const bad = await refused;
    assert.equal(bad.status, 2, bad.stderr);
    assert.match(bad.stderr, /^upload: --list-page-keys: must be 1\.\.1000/m);
  } finally {
    await refused;
    await s3.close();
  }
});
