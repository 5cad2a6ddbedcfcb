// publishing to a real S3-compatible server (s3rver on loopback): headers per object, only changed
// objects sent, deletion only after the grace period, the manifest last, and a resumable upload.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { commit, stage } from '../../../build/publish/publish.ts';
import { writeBundles } from '../../../build/bundle/bundle.ts';
import { upload, type UploadOptions } from '../../../build/upload/upload.ts';
import { bucketOfKey, IMMUTABLE } from '../../../build/upload/headers.ts';
import { planUpload, parseRemoteManifest } from '../../../build/upload/plan.ts';
import { policyFor } from '../../../schemas/policy.ts';
import { makeFixture, NOW_MS } from '../../helpers/publish-fixture.ts';
import { BUCKET, CREDS, rawGet, recording, startS3 } from '../../helpers/s3.ts';

const T0 = Date.UTC(2026, 10, 22, 4, 0, 0);
const H = 3600_000;
const doc = (n: number) => ({ error: 'not_found', detail: `doc ${n}` }); // any schema-valid document

function publish(root: string, id: string, docs: Record<string, number>) {
  const s = stage(root, id);
  for (const [k, n] of Object.entries(docs)) s.writer.putBytes(k, Buffer.from(JSON.stringify(doc(n))));
  s.writer.writeManifest({ build_id: id, built_at: new Date(T0).toISOString(), archive_through: '2026-11-21', window_days: 1, counts: {} });
  commit(root, s);
}

const TREE = { 'v1/airframes/4b1814': 1, 'v1/airports/ZRH': 2, 'v1/alliances/star/routes': 3, 'v1/route/SWR100': 4, 'meta/routes': 5 };
const opts = (root: string, store: UploadOptions['store'], nowMs = T0): UploadOptions => ({ root, bundles: '', store, prefix: 'pub', nowMs, graceMs: 48 * H, concurrency: 3 });

test('a full upload sends every object with the headers of its URL and puts the manifest last', async () => {
  const s3 = await startS3();
  try {
    const fx = await makeFixture(2, 3);
    const out = join(fx.dir, 'bundles');
    const b = await writeBundles({ log: fx.log, root: fx.root, out, nowMs: NOW_MS });
    const store = recording(s3.store);
    const r = await upload({ ...opts(fx.root, store), bundles: out });
    assert.equal(store.puts.at(-1), 'pub/manifest.json', 'the manifest is the last put');
    assert.equal(r.put, r.objects);
    assert.equal(store.puts.length, r.objects + 1);

    const airframe = Object.keys((await import('../../../artifacts/tree.ts')).currentVersion(fx.root)!.manifest.objects).find((k) => k.startsWith('v1/airframes/'))!;
    const got = await rawGet(s3.endpoint, `pub/${airframe}`);
    assert.equal(got.status, 200);
    assert.equal(got.headers['content-encoding'], 'gzip');
    assert.equal(got.headers['content-type'], 'application/json; charset=utf-8');
    assert.equal(got.headers['cache-control'], policyFor('airframe').cache);
    assert.equal(JSON.parse(gunzipSync(got.body).toString()).hex, airframe.split('/').pop());

    const rolling = b.index.bundles.find((x) => x.kind === 'rolling')!;
    const file = await rawGet(s3.endpoint, `pub${rolling.path}`);
    assert.equal(file.headers['cache-control'], IMMUTABLE);
    assert.equal(file.headers['content-type'], 'application/gzip');
    assert.equal(file.headers['content-encoding'], undefined, 'a bundle is a download, not an encoded document');
    assert.equal(file.body.length, rolling.bytes);

    const index = await rawGet(s3.endpoint, 'pub/v1/bundles');
    assert.equal(index.headers['cache-control'], policyFor('docs').cache);
    assert.deepEqual(JSON.parse(gunzipSync(index.body).toString()).bundles, b.index.bundles);

    const m = await rawGet(s3.endpoint, 'pub/manifest.json');
    assert.equal(m.headers['cache-control'], 'no-cache');
    const manifest = JSON.parse(m.body.toString());
    assert.equal(manifest.build_id, 'b1');
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
    assert.deepEqual(store.puts.sort(), ['pub/manifest.json', 'pub/v1/airframes/4b1815', 'pub/v1/airports/ZRH']);
    assert.deepEqual([r.put, r.unchanged, r.skipped], [2, 4, 0]);
    const again = recording(s3.store);
    await upload(opts(root, again, T0 + 2 * H));
    assert.deepEqual(again.puts, ['pub/manifest.json'], 'nothing changed: only the manifest');
    assert.equal((await rawGet(s3.endpoint, 'pub/meta/routes')).headers['cache-control'], 'no-cache');
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
    const { 'v1/route/SWR100': _gone, ...rest } = TREE;
    publish(root, 'b2', rest);
    const r1 = await upload(opts(root, s3.store, T0 + H));
    assert.deepEqual([r1.deleted, r1.retired], [0, 1]);
    assert.equal((await rawGet(s3.endpoint, 'pub/v1/route/SWR100')).status, 200, 'still there for readers of the old manifest');
    const m = parseRemoteManifest(await s3.store.get('pub/manifest.json'), 'm')!;
    assert.equal(m.retired['pub/v1/route/SWR100']?.since, new Date(T0 + H).toISOString());
    assert.equal(m.objects['pub/v1/route/SWR100'], undefined);
    const r2 = await upload(opts(root, s3.store, T0 + 48 * H + H - 1));
    assert.equal(r2.deleted, 0, 'one millisecond before the grace period ends');
    assert.equal((await rawGet(s3.endpoint, 'pub/v1/route/SWR100')).status, 200);
    const r3 = await upload(opts(root, s3.store, T0 + 49 * H));
    assert.deepEqual([r3.deleted, r3.retired], [1, 0]);
    assert.equal((await rawGet(s3.endpoint, 'pub/v1/route/SWR100')).status, 404);
    assert.deepEqual(parseRemoteManifest(await s3.store.get('pub/manifest.json'), 'm')!.retired, {});
  } finally {
    await s3.close();
  }
});

test('an upload interrupted midway leaves the old manifest; the re-run finishes without re-sending what arrived', async () => {
  const s3 = await startS3();
  try {
    const root = mkdtempSync(join(tmpdir(), 'contrail-up-'));
    publish(root, 'b1', TREE);
    await upload(opts(root, s3.store));
    const before = (await s3.store.get('pub/manifest.json'))!.toString();
    const changed = Object.fromEntries(Object.entries(TREE).map(([k, n]) => [k, n + 100]));
    for (let i = 0; i < 10; i++) changed[`v1/airframes/4b18${String(20 + i)}`] = i;
    publish(root, 'b2', changed);
    const dying = recording(s3.store, 6);
    await assert.rejects(upload({ ...opts(root, dying, T0 + H), concurrency: 1 }), /injected failure after 6 puts/);
    assert.equal(dying.puts.length, 6);
    assert.equal((await s3.store.get('pub/manifest.json'))!.toString(), before, 'the remote manifest was not touched');
    const rerun = recording(s3.store);
    const r = await upload(opts(root, rerun, T0 + H));
    assert.equal(r.skipped, 6, 'the six objects that arrived are not sent again');
    assert.equal(r.put, 15 - 6);
    assert.equal(rerun.puts.filter((k) => dying.puts.includes(k)).length, 0);
    assert.equal(rerun.puts.at(-1), 'pub/manifest.json');
    assert.equal(JSON.parse((await s3.store.get('pub/manifest.json'))!.toString()).build_id, 'b2');
  } finally {
    await s3.close();
  }
});

test('the plan keeps a returning object, refuses duplicate keys, and a malformed remote manifest names the fix', () => {
  const remote = { objects: {}, retired: { a: { since: new Date(T0).toISOString(), sha256: 'x' } } };
  const p = planUpload([{ key: 'a', sha256: 'y', bytes: 1 }], remote, T0 + 100 * H, 48 * H);
  assert.deepEqual([p.put.length, p.delete, p.retired], [1, [], {}]);
  assert.throws(() => planUpload([{ key: 'a', sha256: 'y', bytes: 1 }, { key: 'a', sha256: 'z', bytes: 1 }], null, T0, 0), /listed twice/);
  assert.throws(() => parseRemoteManifest(Buffer.from('{'), 'pub/manifest.json'), /not JSON: delete it/);
  assert.throws(() => parseRemoteManifest(Buffer.from('{"objects":null}'), 'pub/manifest.json'), /no objects\/retired/);
  assert.equal(bucketOfKey('v1/refdata/types/A320'), 'refdata');
  assert.throws(() => bucketOfKey('v9/unknown'), /no artifact kind has a key like v9\/unknown/);
});

test('the publish command uploads with AWS credentials from the environment and rejects malformed flags', async () => {
  const cli = new URL('../../../build/upload/cli.ts', import.meta.url).pathname;
  const run = (args: string[], env: Record<string, string> = {}) =>
    spawnSync(process.execPath, ['--import', 'tsx', cli, ...args], { encoding: 'utf8', env: { ...process.env, ...env } });
  const help = run(['--help']);
  assert.equal(help.status, 0);
  for (const f of ['--endpoint', '--bucket', '--prefix', '--grace-hours', 'AWS_ACCESS_KEY_ID']) assert.ok(help.stdout.includes(f), f);
  assert.match(run(['--bucket', 'Bad_Bucket']).stderr, /--bucket: expected a bucket name/);
  assert.match(run([]).stderr, /--bucket \(or CONTRAIL_S3_BUCKET\) is required/);
  assert.equal(run(['--bucket', 'ok-bucket', '--prefix', '/x/']).status, 2);
  assert.match(run(['--bucket', 'ok-bucket', '--endpoint', 'ftp://x']).stderr, /expected an http\(s\) URL/);
  assert.match(run(['--bucket', 'ok-bucket', '--concurrency', 'many']).stderr, /expected an integer/);
  const s3 = await startS3();
  try {
    const root = mkdtempSync(join(tmpdir(), 'contrail-up-'));
    publish(root, 'b1', TREE);
    const env = { AWS_ACCESS_KEY_ID: CREDS.accessKeyId, AWS_SECRET_ACCESS_KEY: CREDS.secretAccessKey };
    // async: s3rver runs in this process, so a blocking spawnSync would deadlock it
    const child = spawn(process.execPath, ['--import', 'tsx', cli, '--artifacts', root, '--bundles', '', '--endpoint', s3.endpoint, '--bucket', BUCKET, '--prefix', 'cli'], { env: { ...process.env, ...env } });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c));
    const status = await new Promise<number | null>((resolve) => child.on('close', resolve));
    const ok = { status, stderr, signal: null, stdout: '' };
    assert.equal(ok.status, 0, `status ${ok.status} signal ${ok.signal}: ${ok.stderr} ${ok.stdout}`);
    assert.match(ok.stderr, /upload: done: 5 sent/);
    assert.equal(JSON.parse((await s3.store.get('cli/manifest.json'))!.toString()).build_id, 'b1');
  } finally {
    await s3.close();
  }
});
