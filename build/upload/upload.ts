// upload the published artifact tree and the researchers' bundles to object storage:
// plan from the last uploaded manifest, put what changed (skipping objects a previous, interrupted
// run already delivered: their stored sha256 matches), delete retired objects past the grace
// period, and put <prefix>/manifest.json LAST so a reader never sees a half-published build.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { currentVersion, MANIFEST_FILE } from '../../artifacts/tree.ts';
import { fileOf } from '../../artifacts/keys.ts';
import { localFile, readIndex } from '../bundle/bundle.ts';
import { BUNDLES_URL } from '../../artifacts/bundles.ts';
import { bundleHeaders, indexHeaders, manifestHeaders, treeHeaders, type ObjectHeaders } from './headers.ts';
import { parseRemoteManifest, planUpload, type LocalObject, type RemoteManifest } from './plan.ts';
import type { Body, ObjectStore } from './object-store.ts';

export interface UploadOptions {
  /** artifact tree root: its `current` version is uploaded */
  root: string;
  /** bundles folder (build/bundle), or '' for none */
  bundles: string;
  store: ObjectStore;
  /** key prefix in the bucket, without leading or trailing slash; '' for the bucket root */
  prefix: string;
  nowMs: number;
  graceMs: number;
  concurrency: number;
  /** progress and summary lines */
  say?: (line: string) => void;
  /** clock for rates only (never decides anything) */
  clock?: () => number;
}

export interface UploadResult {
  buildId: string;
  objects: number;
  put: number;
  /** already in the bucket with the same sha256 (a re-run after an interruption) */
  skipped: number;
  unchanged: number;
  deleted: number;
  retired: number;
  bytes: number;
}

interface Item extends LocalObject {
  body: Body;
  headers: ObjectHeaders;
}


const joinKey = (prefix: string, key: string) => (prefix ? `${prefix}/${key}` : key);

/** Everything one upload sends: the tree objects, the bundle files and the bundles index. */
function localObjects(root: string, bundles: string, prefix: string): { version: NonNullable<ReturnType<typeof currentVersion>>; items: Item[] } {
  const version = currentVersion(root);
  if (!version) throw new Error(`nothing is published under ${root} (no readable current/manifest.json): run the nightly build first`);
  const items: Item[] = [];
  for (const [key, e] of Object.entries(version.manifest.objects).sort(([a], [b]) => (a < b ? -1 : 1))) {
    items.push({ key: joinKey(prefix, key), sha256: e.sha256, bytes: e.gzip_bytes, body: { file: join(version.dir, fileOf(key)), bytes: e.gzip_bytes }, headers: treeHeaders(key) });
  }
  if (bundles) {
    const index = readIndex(bundles);
    if (!index) throw new Error(`${join(bundles, 'index.json')} is missing or invalid: run the bundle step first, or pass --bundles ''`);
    for (const b of index.bundles) {
      const key = b.path.slice(1);
      items.push({ key: joinKey(prefix, key), sha256: b.sha256, bytes: b.bytes, body: { file: localFile(bundles, b), bytes: b.bytes }, headers: bundleHeaders(key.split('/').pop()!) });
    }
    const gz = gzipSync(readFileSync(join(bundles, 'index.json')), { level: 9 });
    items.push({ key: joinKey(prefix, BUNDLES_URL.slice(1)), sha256: createHash('sha256').update(gz).digest('hex'), bytes: gz.length, body: { data: gz }, headers: indexHeaders() });
  }
  return { version, items };
}

export async function upload(o: UploadOptions): Promise<UploadResult> {
  const say = o.say ?? (() => {});
  const clock = o.clock ?? (() => 0);
  const { version, items } = localObjects(o.root, o.bundles, o.prefix);
  const manifestKey = joinKey(o.prefix, MANIFEST_FILE);
  const remote = parseRemoteManifest(await o.store.get(manifestKey), manifestKey);
  const plan = planUpload(items, remote, o.nowMs, o.graceMs);
  say(`upload: build ${version.id}: ${items.length} objects, ${plan.put.length} to send, ${plan.unchanged} unchanged, ${plan.delete.length} to delete, ${Object.keys(plan.retired).length} retired`);

  const r: UploadResult = { buildId: version.id, objects: items.length, put: 0, skipped: 0, unchanged: plan.unchanged, deleted: 0, retired: Object.keys(plan.retired).length, bytes: 0 };
  const started = clock();
  let done = 0;
  let next = 0;
  const report = () => {
    const s = Math.max((clock() - started) / 1000, 1e-3);
    say(`upload: ${done}/${plan.put.length} (${r.put} sent, ${r.skipped} already there; ${Math.round(r.put / s)} objects/s, ${(r.bytes / s / 1e6).toFixed(1)} MB/s)`);
  };
  const every = Math.max(1, Math.ceil(plan.put.length / 20));
  const worker = async () => {
    while (next < plan.put.length) {
      const it = plan.put[next++]!;
      if ((await o.store.head(it.key)) === it.sha256) r.skipped++;
      else {
        await o.store.put(it.key, it.body, it.headers, it.sha256);
        r.put++;
        r.bytes += it.bytes;
      }
      if (++done % every === 0) report();
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(o.concurrency, plan.put.length)) }, worker));
  if (plan.put.length % every !== 0) report();

  for (const key of plan.delete) {
    await o.store.delete(key);
    r.deleted++;
  }
  const { objects: _ignored, ...meta } = version.manifest;
  const doc: RemoteManifest = { ...meta, uploaded_at: new Date(o.nowMs).toISOString(), objects: plan.objects, retired: plan.retired };
  const bytes = Buffer.from(JSON.stringify(doc));
  await o.store.put(manifestKey, { data: bytes }, manifestHeaders(), createHash('sha256').update(bytes).digest('hex'));
  say(`upload: done: ${r.put} sent, ${r.skipped} already there, ${r.unchanged} unchanged, ${r.deleted} deleted, ${r.retired} retired (kept for the grace period); manifest ${manifestKey} last`);
  return r;
}
