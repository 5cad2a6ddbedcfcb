// issue 47: the bucket never shows a mix of two builds. the real upload command is stopped by SIGTERM,
// killed by SIGKILL (before and after its manifest) and loses its S3 server mid-way; after each, every
// object the bucket's manifest names is in the bucket with the sha256 the manifest lists, and the next
// run finishes the upload. the command lists the bucket in pages of PAGE keys (--list-page-keys; S3's
// own page is 1,000), so a resumed run's listing of the N + ... stored objects takes several pages
// (continuation tokens: test/helpers/s3.ts), counted at the proxy. N and every share are 0.15 of the
// 1,100 this test once sent to span two of S3's pages (docs/perf-log/s3-test-server.md). otherwise the
// command runs with its defaults, so the url mirror too: once the runs finish, every URL path holds
// the build's object.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import { commit, stage } from '../../../build/publish/publish.ts';
import { PENDING_FILE, upload } from '../../../build/upload/upload.ts';
import { parseRemoteManifest } from '../../../build/upload/remote-manifest.ts';
import { objectsPrefix, storedKey } from '../../../build/upload/stored-keys.ts';
import { currentVersion } from '../../../artifacts/tree.ts';
import { mulberry32 } from '../../../lib/random.ts';
import { BUCKET, CREDS, rawGet, startS3, type S3Server } from '../../helpers/s3.ts';
import { faultProxy, type Fault } from '../../helpers/fault-proxy.ts';
import { ROOT } from '../../helpers/processes.ts';

const T0 = Date.UTC(2026, 10, 22, 4, 0, 0);
// b1: N airframes; b2: CHANGED of them changed, GONE gone, UNCHANGED as they were, NEW new
const N = 165;
const [CHANGED, GONE, NEW] = [105, 30, 15];
const UNCHANGED = N - CHANGED - GONE;
const PAGE = 50;
const hexOf = (i: number) => (0x400000 + i).toString(16);
const doc = (i: number, night: number) => ({ error: 'not_found', detail: `airframe ${hexOf(i)} night ${night}` });

function publish(root: string, id: string, docs: Map<string, unknown>) {
  const s = stage(root, id);
  for (const [k, d] of docs) s.writer.putBytes(k, Buffer.from(JSON.stringify(d)));
  s.writer.writeManifest({ build_id: id, built_at: new Date(T0).toISOString(), archive_through: '2026-11-21', window_days: 1, counts: {} });
  commit(root, s);
}

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/** every object the bucket's manifest names is there with the listed bytes and sha256; its build id */
async function manifestHolds(s3: S3Server, when: string): Promise<string> {
  const m = parseRemoteManifest(await s3.store.get('pub/manifest.json'), 'pub/manifest.json')!;
  const keys = [...m.objects.keys()];
  for (let at = 0; at < keys.length; at += 32) {
    await Promise.all(
      keys.slice(at, at + 32).map(async (key) => {
        const i = m.objects.indexOf(key);
        const got = await rawGet(s3.endpoint, key);
        assert.equal(got.status, 200, `${when}: ${key} is missing`);
        assert.equal(got.body.length, m.objects.gzipAt(i), `${when}: ${key} has other bytes`);
        const content = got.headers['content-encoding'] === 'gzip' ? gunzipSync(got.body) : got.body;
        assert.equal(sha256(content), m.objects.shaAt(i), `${when}: ${key} does not hold what the manifest lists`);
      }),
    );
  }
  return m.header.build_id;
}

/** the upload command against `endpoint`; `onStarted` gets the child once it runs */
function runCli(root: string, endpoint: string, extra: string[] = []) {
  const cli = join(ROOT, 'build/upload/cli.ts');
  const args = [
    '--import',
    'tsx',
    cli,
    '--artifacts',
    root,
    '--bundles',
    '',
    '--endpoint',
    endpoint,
    '--bucket',
    BUCKET,
    '--prefix',
    'pub',
    '--concurrency',
    '8',
    '--grace-hours',
    '0',
    '--list-page-keys',
    String(PAGE),
    ...extra,
  ];
  const child = spawn(process.execPath, args, {
    env: { ...process.env, AWS_ACCESS_KEY_ID: CREDS.accessKeyId, AWS_SECRET_ACCESS_KEY: CREDS.secretAccessKey },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (c: Buffer) => (stderr += c));
  const done = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>((resolve) =>
    child.on('close', (code, signal) => resolve({ code, signal, stderr })),
  );
  return { child, done };
}

const isObjectPut = (method: string | undefined, path: string) => method === 'PUT' && path.startsWith('pub/o/');
/** a ListObjectsV2 page of the stored objects (path '' is the bucket itself) */
const isStoredListPage = (req: { method?: string; url?: string }, path: string) =>
  req.method === 'GET' && path === '' && new URL(req.url ?? '/', 'http://x').searchParams.get('prefix') === objectsPrefix('pub');

test("an upload stopped by SIGTERM, killed by SIGKILL or cut off from its S3 server never leaves the bucket's manifest naming other bytes; the next run completes", async () => {
  const s3 = await startS3();
  const root = mkdtempSync(join(tmpdir(), 'contrail-up-int-'));
  const rand = mulberry32(47);
  // closed and killed whatever happens, so a failed assertion does not leave the test hanging
  const proxies: { close(): Promise<void> }[] = [];
  const tracked = async (p: ReturnType<typeof faultProxy>) => {
    const x = await p;
    proxies.push(x);
    return x;
  };
  let cli: ReturnType<typeof runCli> | null = null;
  try {
    // b1: N airframes, uploaded whole
    const b1 = new Map<string, unknown>(Array.from({ length: N }, (_, i) => [`v1/airframes/${hexOf(i)}`, doc(i, 1)]));
    publish(root, 'b1', b1);
    await upload({
      root,
      bundles: '',
      store: s3.store,
      prefix: 'pub',
      nowMs: T0,
      graceMs: 0,
      concurrency: 8,
      clock: () => T0,
      rand: mulberry32(1),
      sleep: async () => {},
    });
    assert.equal(await manifestHolds(s3, 'after b1'), 'b1');
    // b2: CHANGED + NEW to send, CHANGED + GONE to delete once the manifest names b2
    const b2 = new Map<string, unknown>();
    for (let i = 0; i < N; i++) if (i < CHANGED || i >= CHANGED + GONE) b2.set(`v1/airframes/${hexOf(i)}`, i < CHANGED ? doc(i, 2) : doc(i, 1));
    for (let i = N; i < N + NEW; i++) b2.set(`v1/airframes/${hexOf(i)}`, doc(i, 2));
    publish(root, 'b2', b2);
    const toSend = CHANGED + NEW;
    const b2Size = CHANGED + UNCHANGED + NEW;
    const toDelete = CHANGED + GONE;

    // SIGTERM at 18 %: the requests in flight land, then exit 130
    let puts = 0;
    let proxy = await tracked(
      faultProxy(s3.endpoint, (req, path) => {
        if (isObjectPut(req.method, path) && ++puts === Math.round(toSend * 0.18)) cli!.child.kill('SIGTERM');
        return null;
      }),
    );
    cli = runCli(root, proxy.endpoint);
    const term = await cli.done;
    assert.equal(term.code, 130, term.stderr);
    assert.match(term.stderr, new RegExp(`interrupted after \\d+ of ${toSend} objects .*pub/manifest.json is unchanged`));
    const afterTerm = proxy.stored.filter((k) => k.startsWith('pub/o/')).length;
    assert.ok(afterTerm >= Math.round(toSend * 0.18) && afterTerm < toSend, `${afterTerm} arrived`);
    assert.equal(await manifestHolds(s3, 'after SIGTERM'), 'b1');
    assert.notEqual(await s3.store.get(`pub/${PENDING_FILE}`), null);
    await proxy.close();

    // SIGKILL at 3/8 of what is to send: whatever was in flight is cut
    puts = 0;
    let pages = 0;
    proxy = await tracked(
      faultProxy(s3.endpoint, (req, path) => {
        if (isStoredListPage(req, path)) pages++;
        if (isObjectPut(req.method, path) && ++puts === Math.round((toSend * 3) / 8)) cli!.child.kill('SIGKILL');
        return null;
      }),
    );
    cli = runCli(root, proxy.endpoint);
    const kill = await cli.done;
    assert.equal(kill.signal, 'SIGKILL');
    // its listing: b1's N and what had arrived, in several pages
    const listed = Number(/(\d+) stored objects in the bucket/.exec(kill.stderr)?.[1]);
    assert.ok(listed >= N + afterTerm, `the resumed run listed ${listed} stored objects: ${kill.stderr}`);
    assert.ok(pages >= Math.ceil(listed / PAGE) && pages >= 3, `${listed} stored objects listed in ${pages} pages of ${PAGE}`);
    assert.equal(await manifestHolds(s3, 'after SIGKILL'), 'b1');
    await proxy.close();

    // the S3 server killed mid-way (an object may be left torn on its disk), the upload gives up
    puts = 0;
    proxy = await tracked(
      faultProxy(s3.endpoint, (req, path): Fault => {
        if (isObjectPut(req.method, path) && ++puts === Math.round(toSend * 0.075) + Math.floor(rand() * Math.round(toSend * 0.025))) void s3.kill();
        return null;
      }),
    );
    cli = runCli(root, proxy.endpoint, ['--retries', '1']);
    const lost = await cli.done;
    assert.equal(lost.code, 1, lost.stderr);
    assert.match(lost.stderr, /gave up after 2 attempts/);
    await s3.restart();
    assert.equal(await manifestHolds(s3, 'after the S3 server was killed'), 'b1');
    await proxy.close();

    // SIGKILL after the manifest, at the first delete: the manifest names b2, its deletes are not done
    proxy = await tracked(
      faultProxy(s3.endpoint, (req): Fault => {
        if (req.method !== 'DELETE' || cli!.child.exitCode !== null) return null;
        cli!.child.kill('SIGKILL');
        return 'reset';
      }),
    );
    cli = runCli(root, proxy.endpoint);
    const late = await cli.done;
    assert.equal(late.signal, 'SIGKILL', late.stderr);
    assert.equal(await manifestHolds(s3, 'after SIGKILL among the deletes'), 'b2');
    await proxy.close();

    // the next run completes: nothing to send, what the deletes left is retired; the one after deletes it
    cli = runCli(root, s3.endpoint);
    const next = await cli.done;
    assert.equal(next.code, 0, next.stderr);
    assert.match(next.stderr, new RegExp(`upload: done: 0 sent, 0 already there, ${b2Size} unchanged`));
    assert.match(next.stderr, new RegExp(`${b2Size + toDelete} stored objects in the bucket .*, ${toDelete} named by no manifest retired`));
    cli = runCli(root, s3.endpoint);
    const last = await cli.done;
    assert.equal(last.code, 0, last.stderr);
    assert.match(last.stderr, new RegExp(`\\b${toDelete} deleted`));
    assert.equal(await manifestHolds(s3, 'at the end'), 'b2');
    const version = currentVersion(root)!;
    const want = Object.entries(version.manifest.objects)
      .map(([k, e]) => storedKey('pub', k, e.sha256, e.gzip_bytes))
      .sort();
    assert.deepEqual([...(await s3.store.list(objectsPrefix('pub'))).keys()].sort(), want, "exactly b2's objects are left");
    assert.equal(await s3.store.get(`pub/${PENDING_FILE}`), null);
    const paths = Object.keys(version.manifest.objects).sort();
    assert.deepEqual(
      [...(await s3.store.list('pub/v1/')).keys()].sort(),
      paths.map((p) => `pub/${p}`),
      "the url mirror holds exactly b2's URL paths",
    );
    for (let at = 0; at < paths.length; at += 32) {
      await Promise.all(
        paths.slice(at, at + 32).map(async (p) => {
          const got = await rawGet(s3.endpoint, `pub/${p}`);
          assert.equal(got.headers['content-encoding'], 'gzip', `pub/${p}`);
          assert.equal(sha256(gunzipSync(got.body)), version.manifest.objects[p]!.sha256, `the url mirror's pub/${p} holds b2's object`);
        }),
      );
    }
  } finally {
    cli?.child.kill('SIGKILL');
    await Promise.all(proxies.map((p) => p.close().catch(() => {})));
    await s3.close();
  }
});
