// /v1/route/{callsign} of a callsign only the catalog knows (never heard in the window) answers alike
// wherever it is asked (docs/api.md "Routes of catalog-only callsigns"): the default build writes no
// file for it, so the live server builds the document from its routes table, and the nginx front
// (deploy/nginx) hands its miss to the live server; a --catalog-route-files build writes the file,
// which the front serves from disk and a bucket (s3rver, the url mirror) holds for a CDN whose only
// origin it is. the same log and catalog through both builds; the clock pinned.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { createApp, type App } from '../../server/app.ts';
import { loadServerConfig } from '../../server/config.ts';
import { LogWriter } from '../../build/log/write.ts';
import { upload } from '../../build/upload/upload.ts';
import { currentVersion } from '../../artifacts/tree.ts';
import { fileOf, keys } from '../../artifacts/keys.ts';
import { mulberry32 } from '../../lib/random.ts';
import { DAYS, NOW_MS, legsFor, publishTree, seeded } from '../helpers/publish-fixture.ts';
import { startFront, type Front } from '../helpers/nginx.ts';
import { rawGet, startS3, storeAt, type S3Server } from '../helpers/s3.ts';
import { httpGet } from '../helpers/http.ts';

// the fixture's log flies SWR100, BAW201 and ANA7 (test/helpers/publish-fixture.ts); these two never
const CATALOG = `Callsign,AirlineCode,AirportCodes
SWR2024,LX,LSZH-LSGG
DLH12,LH,EGLL-LSZH
`;
const CATALOG_ONLY = ['SWR2024', 'DLH12'];

let dir = '';
let off = '';
let on = '';
let app: App | null = null;
let live = '';
let front: Front | null = null;
let s3: S3Server | null = null;

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'contrail-catalog-route-'));
  const log = join(dir, 'log');
  const rand = seeded(4);
  const w = await LogWriter.open(log, 1);
  try {
    for (const d of DAYS) await w.writeDay(d, legsFor(d, 40, rand));
  } finally {
    w.close();
  }
  off = join(dir, 'off');
  on = join(dir, 'on');
  await publishTree(log, off, 'b1', { catalog: CATALOG });
  await publishTree(log, on, 'b1', { catalog: CATALOG, catalogRouteFiles: true });
  const { config } = loadServerConfig(['--port', '0', '--feed', '', '--artifacts', off, '--state', join(dir, 'state'), '--no-rate-limits'], {});
  app = await createApp(config, { log: () => {}, clock: () => NOW_MS, poll: false });
  live = `http://127.0.0.1:${app.port}`;
  const bundles = join(dir, 'bundles');
  mkdirSync(bundles);
  // when the test runs as root, nginx workers drop to nobody: the temp dirs (mode 0700) must be readable
  spawnSync('chmod', ['-R', 'a+rX', dir]);
  front = await startFront({ live: [`127.0.0.1:${app.port}`], artifacts: off, bundles });
  s3 = await startS3();
  await upload({
    root: on,
    bundles: '',
    store: storeAt(s3.endpoint),
    prefix: 'pub',
    nowMs: NOW_MS,
    graceMs: 48 * 3600_000,
    concurrency: 4,
    clock: () => NOW_MS,
    rand: mulberry32(9),
    sleep: async () => {},
    urlMirror: true,
  });
});

after(async () => {
  front?.stop();
  app?.stop();
  await s3?.close();
  rmSync(dir, { recursive: true, force: true });
});

const stored = (root: string, key: string) => join(currentVersion(root)!.dir, fileOf(key));

test('the default build writes no file for a catalog-only callsign; the build with --catalog-route-files does, and both write the heard ones alike', () => {
  for (const cs of CATALOG_ONLY) {
    assert.equal(existsSync(stored(off, keys.route(cs))), false, cs);
    assert.equal(existsSync(stored(on, keys.route(cs))), true, cs);
  }
  const heard = Object.keys(currentVersion(off)!.manifest.objects).filter((k) => k.startsWith('v1/route/'));
  assert.ok(heard.length > 0, 'heard.length > 0');
  for (const k of heard) assert.deepEqual(readFileSync(stored(off, k)), readFileSync(stored(on, k)), k);
  const onRoutes = Object.keys(currentVersion(on)!.manifest.objects).filter((k) => k.startsWith('v1/route/'));
  assert.deepEqual(onRoutes.sort(), [...heard, ...CATALOG_ONLY.map((cs) => keys.route(cs))].sort());
});

test('a catalog-only route answers alike from the live server, through the nginx front and from the bucket: the file a --catalog-route-files build writes', async () => {
  for (const cs of CATALOG_ONLY) {
    const file = gunzipSync(readFileSync(stored(on, keys.route(cs)))).toString();
    const server = await httpGet(`${live}/v1/route/${cs}`, { schema: 'route' });
    const viaFront = await httpGet(`${front!.base}/v1/route/${cs}`, { schema: 'route' });
    const bucket = await rawGet(s3!.endpoint, `pub/${keys.route(cs)}`);
    assert.deepEqual([server.status, viaFront.status, bucket.status], [200, 200, 200], cs);
    assert.equal(server.text, file, `${cs}: the server's answer is the file's document`);
    assert.equal(viaFront.text, file, `${cs}: the front's answer (the live server's) is the file's document`);
    assert.equal(gunzipSync(bucket.body).toString(), file, `${cs}: the bucket's object is the file`);
    assert.equal(viaFront.headers['cache-control'], server.headers['cache-control'], cs);
    assert.equal(server.json.route_source, 'catalog');
    assert.equal(server.json.observed, null);
  }
  // the broadcast spelling (a leading zero) finds the catalog's key, through the front too
  const zero = await httpGet(`${front!.base}/v1/route/DLH012`);
  assert.equal(zero.status, 200);
  assert.equal(zero.json.callsign, 'DLH12');
  // a callsign neither heard nor in the catalog stays not_observed everywhere
  const none = await httpGet(`${front!.base}/v1/route/SWR9999`);
  const noneLive = await httpGet(`${live}/v1/route/SWR9999`);
  assert.deepEqual([none.status, none.text], [noneLive.status, noneLive.text]);
  assert.equal(none.json.error, 'not_observed');
});

test('a heard route is the stored file through the front and from the server alike', async () => {
  const heard = Object.keys(currentVersion(off)!.manifest.objects).find((k) => k.startsWith('v1/route/'))!;
  const file = gunzipSync(readFileSync(stored(off, heard))).toString();
  assert.equal((await httpGet(`${front!.base}/${heard}`)).text, file);
  assert.equal((await httpGet(`${live}/${heard}`)).text, file);
});
