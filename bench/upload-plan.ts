// what an upload costs besides its PUTs, on a real tree (the simulator's year names 2 M objects):
// reading the local manifest, fetching and reading the bucket's, planning, and writing the new one
// last. against s3rver (bench/s3rver.ts), the bucket's manifest is first placed as an earlier upload
// of `--previous` would have left it; then `npm run upload`'s code runs against it:
//   - with --previous the version `current` points to: a no-change upload, timed to its end;
//   - with --previous an earlier version: the increment's plan, timed to its first PUT, then stopped.
// prints wall, CPU and peak RSS of this process (the placing step apart).
// usage: node --import tsx bench/upload-plan.ts --tree <artifacts root> [--previous <version dir>] [--store-dir /tmp]
import './help.ts';
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readManifestFile } from '../artifacts/manifest-file.ts';
import { ObjectTable, Origin } from '../artifacts/object-table.ts';
import { manifestHeaders } from '../build/upload/headers.ts';
import { s3Connection, s3Store } from '../build/upload/object-store.ts';
import { remoteManifestBytes } from '../build/upload/remote-manifest.ts';
import { storedKeyAt } from '../build/upload/stored-keys.ts';
import { Interrupted, upload } from '../build/upload/upload.ts';
import { flag } from './flags.ts';
import { startServer } from './s3rver.ts';

const TREE = flag('tree', '');
if (!TREE) throw new Error('--tree <artifacts root> is required (a tree the nightly build published)');
const PREVIOUS = realpathSync(flag('previous', join(TREE, 'current')));
const STORE_DIR = flag('store-dir', tmpdir());
const BUCKET = 'bench';
const PREFIX = 'p';
const NOW = Date.UTC(2026, 10, 27, 4);

const gib = (n: number) => (n / 2 ** 30).toFixed(2);
const dir = mkdtempSync(join(STORE_DIR, 'contrail-bench-s3-'));
const server = await startServer(dir, BUCKET);
const o = { endpoint: server.endpoint, bucket: BUCKET, region: 'us-east-1', forcePathStyle: true };
const store = s3Store(o, s3Connection(o, { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' }, 64));
try {
  // the bucket as an upload of PREVIOUS left it: its manifest (the objects themselves are not needed to plan)
  let t = performance.now();
  const prev = readManifestFile(join(PREVIOUS, 'manifest.json'));
  const placed = new ObjectTable(prev.objects.size);
  // under the keys an upload stores them at (build/upload/stored-keys.ts)
  for (let i = 0; i < prev.objects.size; i++) placed.addCopy(storedKeyAt(PREFIX, prev.objects, i), prev.objects, i, Origin.WRITTEN);
  const bytes = remoteManifestBytes({ ...prev.header, uploaded_at: new Date(NOW - 86_400_000).toISOString() }, placed, {});
  await store.put(`${PREFIX}/manifest.json`, bytes, manifestHeaders(), createHash('sha256').update(bytes).digest('hex'));
  console.log(
    `placed the bucket manifest of ${PREVIOUS}: ${prev.objects.size} objects, ${(bytes.length / 1e6).toFixed(0)} MB, in ${((performance.now() - t) / 1000).toFixed(1)} s; node ${process.version}`,
  );

  let peak = 0;
  const sample = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 50);
  const stop = new AbortController();
  t = performance.now();
  const c0 = process.cpuUsage();
  const at = () => `${((performance.now() - t) / 1000).toFixed(1)} s`;
  try {
    const r = await upload({
      root: TREE,
      bundles: '',
      store,
      prefix: PREFIX,
      nowMs: NOW,
      graceMs: 48 * 3600_000,
      concurrency: 64,
      signal: stop.signal,
      clock: Date.now,
      say: (line) => {
        console.log(`${at()} ${line}`);
        // an increment: stopped at its first PUT, its plan timed
        if (/ [1-9]\d* to send/.test(line)) stop.abort();
      },
    });
    console.log(`no-change upload: ${r.unchanged} unchanged, ${r.put} sent`);
  } catch (e) {
    if (!(e instanceof Interrupted)) throw e;
    console.log('the increment stopped at its first PUT: the time is its plan');
  }
  const c = process.cpuUsage(c0);
  clearInterval(sample);
  console.log(
    `wall ${at()}, CPU ${((c.user + c.system) / 1e6).toFixed(1)} s, peak RSS ${gib(peak)} GiB (the placing step included: ${gib(process.resourceUsage().maxRSS * 1024)} GiB)`,
  );
} finally {
  store.close();
  server.stop();
  rmSync(dir, { recursive: true, force: true });
}
