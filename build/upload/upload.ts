// upload the published artifact tree and the researchers' bundles to object storage:
// plan from the last uploaded manifest, put what changed through a bounded pool of keep-alive
// connections (large files in parts), retry throttling and transient failures with back-off, put
// <prefix>/manifest.json LAST, then delete retired objects past the grace period. every object is
// stored under a key of its URL path and its content (stored-keys.ts), never overwritten with other
// bytes: what an upload puts is under keys the bucket's current manifest does not name, so a reader
// following that manifest never sees a mix of two builds, however the upload ends (issue 47).
// a marker object (<prefix>/upload-pending.json) is put before the first object and deleted after
// the deletes: when a run finds it, the previous run was cut short, so it lists the stored objects
// once, skips what already arrived (served with the same size, ETag, headers and sha256) and retires what that run left that no
// manifest names (objects of an abandoned build, deletes it did not finish).
// with the url mirror on (url-mirror.ts), after the manifest each changed object is also copied to
// its URL path, server-side, for origins that serve a URL as it is (a plain CDN, an s3:// glob).
import { readFile as readFileCallback, readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { join } from 'node:path';
import { createHash, randomInt } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { gzipSync } from 'node:zlib';
import { currentTable, MANIFEST_FILE, type TableVersion } from '../../artifacts/tree.ts';
import { ObjectTable, Origin } from '../../artifacts/object-table.ts';
import { fileOf } from '../../artifacts/keys.ts';
import { indexFiles, localFile, readIndex } from '../bundle/index-file.ts';
import { BUNDLES_URL } from '../../artifacts/bundles.ts';
import { mulberry32 } from '../../lib/random.ts';
import { bundleHeaders, indexHeaders, manifestHeaders, servedAsPut, treeHeaders, type ObjectHeaders } from './headers.ts';
import { adoptOrphans, planUpload } from './plan.ts';
import { objectsPrefix, parseStoredKey, STORED_AS, storedKey, storedKeyAt } from './stored-keys.ts';
import { parseRemoteManifest, remoteManifestBytes } from './remote-manifest.ts';
import type { Listed, ObjectStore } from './object-store.ts';
import { DEFAULT_RETRY, describe, withRetry, type RetryPolicy } from './retry.ts';
import { limiter } from './limit.ts';
import { fileEtags, partsOf, putMultipart, type Part, type Send } from './multipart.ts';
import { mirrorLine, progressLine, type Tally } from './progress.ts';
import { dropMirror, keepMirrorKeys, mirrorFolders, planMirror, type MirrorLocal, type MirrorPlan } from './url-mirror.ts';

/** files from this size on go up in parts of DEFAULT_PART_BYTES */
export const DEFAULT_MULTIPART_BYTES = 16 * 1024 * 1024;
export const DEFAULT_PART_BYTES = 8 * 1024 * 1024;
export const PENDING_FILE = 'upload-pending.json';

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
  /** requests in flight at most */
  concurrency: number;
  retry?: RetryPolicy;
  multipartBytes?: number;
  partBytes?: number;
  /** after the manifest, copy each changed object to its URL path too (url-mirror.ts); off unless set */
  urlMirror?: boolean;
  /** stops taking new objects (or copies) when aborted; the requests in flight finish, then the upload rejects */
  signal?: AbortSignal;
  /** progress and summary lines */
  say?: (line: string) => void;
  /** clock for rates only (never decides anything) */
  clock?: () => number;
  /** a progress line this often while sending */
  progressMs?: number;
  /** back-off jitter in [0, 1) and the wait itself: seeded and instant in tests */
  rand?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

export interface UploadResult {
  buildId: string;
  objects: number;
  put: number;
  /** already in the bucket with the same content (a re-run after an interruption) */
  skipped: number;
  unchanged: number;
  deleted: number;
  retired: number;
  bytes: number;
  retries: number;
  /** a previous run had been cut short: this one checked what had arrived */
  resumed: boolean;
  /** url mirror objects copied and deleted */
  mirrored: number;
  mirrorDeleted: number;
}

type Body = { data: Buffer } | { file: string; bytes: number };

interface Item {
  /** stored key (stored-keys.ts), prefix included */
  key: string;
  sha256: string;
  /** as stored */
  bytes: number;
  body: Body;
  headers: ObjectHeaders;
}

/** the upload was stopped by its signal (SIGINT, SIGTERM) */
export class Interrupted extends Error {
  override name = 'Interrupted';
}

/** a failure after the bucket's manifest was switched to this build: its url mirror or deletes are unfinished */
export class AfterSwitch extends Error {
  override name = 'AfterSwitch';
}

const joinKey = (prefix: string, key: string) => (prefix ? `${prefix}/${key}` : key);
const sha256Of = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const md5 = (b: Buffer) => createHash('md5').update(b).digest('hex');

/**
 * Everything one upload sends, as a table of stored keys with their sha256 and bytes as stored
 * (gzip length): the tree's objects first, in its manifest's order (entry i is the version's entry
 * i), then the bundle files and the bundles index (`extra`, from entry `version.objects.size` on).
 */
interface Local {
  version: TableVersion;
  objects: ObjectTable;
  extra: Item[];
}

function localObjects(root: string, bundles: string, prefix: string): Local {
  const version = currentTable(root);
  if (!version) throw new Error(`nothing is published under ${root} (no readable current/manifest.json): run the nightly build first`);
  const tree = version.objects;
  const objects = new ObjectTable(tree.size + 64);
  for (let i = 0; i < tree.size; i++) objects.addCopy(storedKeyAt(prefix, tree, i), tree, i, Origin.WRITTEN);
  const extra: Item[] = [];
  if (bundles) {
    const index = readIndex(bundles);
    if (!index) throw new Error(`${join(bundles, 'index.json')} is missing or invalid: run the bundle step first, or pass --bundles ''`);
    for (const b of indexFiles(index)) {
      const key = b.path.slice(1);
      extra.push({
        key: storedKey(prefix, key, b.sha256, b.bytes),
        sha256: b.sha256,
        bytes: b.bytes,
        body: { file: localFile(bundles, b), bytes: b.bytes },
        headers: bundleHeaders(key),
      });
    }
    // its sha256 is of the JSON, as for the tree's objects: of the content once Content-Encoding is undone
    const json = readFileSync(join(bundles, 'index.json'));
    const gz = gzipSync(json, { level: 9 });
    const sha256 = sha256Of(json);
    extra.push({ key: storedKey(prefix, BUNDLES_URL.slice(1), sha256, gz.length), sha256, bytes: gz.length, body: { data: gz }, headers: indexHeaders() });
  }
  for (const it of extra) objects.add(it.key, it.sha256, it.bytes, it.bytes);
  return { version, objects, extra };
}

/** local entry `i` as an item to send */
function itemAt(l: Local, i: number): Item {
  const tree = l.version.objects;
  if (i >= tree.size) return l.extra[i - tree.size]!;
  const key = tree.keyAt(i);
  const bytes = tree.gzipAt(i);
  return { key: l.objects.keyAt(i), sha256: tree.shaAt(i), bytes, body: { file: join(l.version.dir, fileOf(key)), bytes }, headers: treeHeaders(key) };
}

// fs.readFile's callback form: a third of the CPU of fs/promises' FileHandle for a small file
// (bench/read-files.ts: 16-21 against 44-55 µs a file)
const readFile = promisify(readFileCallback);

/** the local objects as the url mirror sees them: by URL path */
function mirrorView(l: Local, prefix: string): MirrorLocal {
  const tree = l.version.objects;
  const extraPaths = l.extra.map((it) => parseStoredKey(prefix, it.key)!.path);
  const extra = new Set(extraPaths);
  return {
    size: l.objects.size,
    pathAt: (i) => (i < tree.size ? tree.keyAt(i) : extraPaths[i - tree.size]!),
    storedKeyAt: (i) => l.objects.keyAt(i),
    gzipAt: (i) => l.objects.gzipAt(i),
    hasPath: (p) => tree.has(p) || extra.has(p),
  };
}

/** fn(0..count-1), `concurrency` at a time, until done, failed or aborted; rethrows the first failure */
async function drain(count: number, concurrency: number, signal: AbortSignal | undefined, fn: (j: number) => Promise<void>): Promise<void> {
  let next = 0;
  let failure: { e: unknown } | null = null;
  const worker = async () => {
    while (next < count && !failure && !signal?.aborted) {
      try {
        await fn(next++);
      } catch (e) {
        failure ??= { e };
      }
    }
  };
  // a worker per request slot: each keeps one connection busy (a multipart file's parts queue for slots)
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, count)) }, worker));
  if (failure) throw (failure as { e: unknown }).e;
}

async function readBody(it: Item): Promise<Buffer> {
  if ('data' in it.body) return it.body.data;
  const data = await readFile(it.body.file);
  if (data.length !== it.body.bytes)
    throw new Error(`${it.body.file} has ${data.length} bytes, the manifest says ${it.body.bytes}: the tree changed during the upload`);
  return data;
}

export async function upload(o: UploadOptions): Promise<UploadResult> {
  const say = o.say ?? (() => {});
  const clock = o.clock ?? Date.now;
  const multipartBytes = o.multipartBytes ?? DEFAULT_MULTIPART_BYTES;
  const partBytes = o.partBytes ?? DEFAULT_PART_BYTES;
  const started = clock();
  const took = () => `${((clock() - started) / 1000).toFixed(1)} s`;
  const local = localObjects(o.root, o.bundles, o.prefix);
  const version = local.version;
  say(`upload: build ${version.id}: ${local.objects.size} objects to upload, read in ${took()}; fetching ${joinKey(o.prefix, MANIFEST_FILE)}`);
  const store = o.store;
  const t: Tally = { done: 0, total: 0, sent: 0, skipped: 0, bytes: 0, totalBytes: 0, retries: 0 };
  const limit = limiter(o.concurrency);
  const retrier = {
    policy: o.retry ?? DEFAULT_RETRY,
    rand: o.rand ?? mulberry32(randomInt(2 ** 31)),
    sleep: o.sleep ?? ((ms: number) => sleep(ms)),
    onRetry: (what: string, attempt: number, e: unknown, wait: number) => {
      t.retries++;
      if (t.retries <= 20 || t.retries % 100 === 0) say(`upload: ${what}: ${describe(e)}, retry ${attempt} in ${wait} ms (${t.retries} retries so far)`);
    },
  };
  const send: Send = (what, fn) => limit(() => withRetry(what, fn, retrier));

  const manifestKey = joinKey(o.prefix, MANIFEST_FILE);
  const pendingKey = joinKey(o.prefix, PENDING_FILE);
  const remoteBytes = await send(`get ${manifestKey}`, () => store.get(manifestKey));
  say(remoteBytes ? `upload: ${manifestKey}: ${(remoteBytes.length / 1e6).toFixed(1)} MB fetched at ${took()}` : `upload: no ${manifestKey}: a first upload`);
  const remote = parseRemoteManifest(remoteBytes, manifestKey);
  const plan = planUpload(local.objects, remote, o.nowMs, o.graceMs);
  const mirrorOn = o.urlMirror ?? false;
  const keptMirror = remote?.header.url_mirror === true;
  const mirrorLocal = mirrorView(local, o.prefix);
  // keys of the layout before stored keys at URL paths the tree still has: the mirror's now
  if (mirrorOn) {
    const kept = keepMirrorKeys(plan, o.prefix, mirrorLocal);
    if (kept) say(`upload: ${kept} objects at their URL paths kept as the url mirror's`);
  }

  // a marker left by a run that did not finish: what it sent may be there already, and what it left
  // that no manifest names is retired (deleted after the grace period like any other)
  const pending = await send(`get ${pendingKey}`, () => store.read(pendingKey));
  let there = new Map<string, Listed>();
  if (pending) {
    const under = objectsPrefix(o.prefix);
    there = await send(`list ${under}`, () => store.list(under));
    const orphans = adoptOrphans(plan, there.keys(), local.objects, remote, o.nowMs);
    say(
      `upload: ${pendingKey} is there: the last upload was cut short; ${there.size} stored objects in the bucket (those served with the same size, ETag, headers and sha256 are not sent again), ${orphans} named by no manifest retired`,
    );
  } else if (plan.put.length || plan.delete.length || mirrorOn !== keptMirror) {
    const marker = Buffer.from(JSON.stringify({ build_id: version.id, started_at: new Date(o.nowMs).toISOString() }));
    await send(`put ${pendingKey}`, () => store.put(pendingKey, marker, manifestHeaders(), sha256Of(marker)));
  }
  t.total = plan.put.length;
  t.totalBytes = plan.put.reduce((s, i) => s + local.objects.gzipAt(i), 0);
  say(
    `upload: planned at ${took()}: ${plan.put.length} to send (${(t.totalBytes / 1e6).toFixed(1)} MB), ${plan.unchanged} unchanged, ${plan.delete.length} to delete, ${Object.keys(plan.retired).length} retired`,
  );

  /**
   * true when a previous run already delivered this object as it is put now: listed with the same
   * size and ETag, and served with these bytes (read back, for a small object), these headers and
   * this sha256 metadata. a store killed mid-write can list an object it did not store whole
   * (s3rver writes its ETag before its bytes are on disk, and its headers in a file of their own:
   * docs/perf-log/s3-test-server.md), and the manifest is about to name it; such an object is sent
   * again, over the torn one (test/build/upload/interrupt.slow.test.ts)
   */
  const arrived = async (it: Item, data: Buffer | null, parts: Part[] | null): Promise<boolean> => {
    const l = there.get(it.key);
    if (!l || l.bytes !== it.bytes) return false;
    if (data) {
      if (l.etag !== md5(data)) return false;
      const got = await send(`get ${it.key}`, () => store.read(it.key));
      return got !== null && got.data.equals(data) && servedAsPut(got.meta, it.headers, it.sha256);
    }
    if (!('file' in it.body) || !(await fileEtags(it.body.file, parts!)).includes(l.etag)) return false;
    const meta = await send(`head ${it.key}`, () => store.head(it.key));
    return meta !== null && meta.bytes === it.bytes && servedAsPut(meta, it.headers, it.sha256);
  };

  const sendOne = async (it: Item) => {
    const parts = it.bytes >= multipartBytes && 'file' in it.body ? partsOf(it.bytes, partBytes) : null;
    const data = parts ? null : await readBody(it);
    if (await arrived(it, data, parts)) t.skipped++;
    else {
      if (parts && 'file' in it.body) await putMultipart(store, send, it.key, it.body.file, parts, it.headers, it.sha256);
      else await send(`put ${it.key}`, () => store.put(it.key, data!, it.headers, it.sha256));
      t.sent++;
      t.bytes += it.bytes;
    }
    t.done++;
  };

  const sending = clock();
  const ticker = setInterval(() => say(progressLine(t, clock() - sending)), o.progressMs ?? 2000);
  ticker.unref();
  try {
    await drain(plan.put.length, o.concurrency, o.signal, (j) => sendOne(itemAt(local, plan.put[j]!)));
  } finally {
    clearInterval(ticker);
    if (plan.put.length) say(progressLine(t, clock() - sending));
  }
  if (o.signal?.aborted)
    throw new Interrupted(`interrupted after ${t.done} of ${t.total} objects (${t.sent} sent): ${manifestKey} is unchanged; run again to send the rest`);

  const header = { ...version.header, uploaded_at: new Date(o.nowMs).toISOString(), stored_as: STORED_AS, url_mirror: mirrorOn };
  const bytes = remoteManifestBytes(header, local.objects, plan.retired);
  await send(`put ${manifestKey}`, () => store.put(manifestKey, bytes, manifestHeaders(), sha256Of(bytes)));

  // the url mirror, after the switch: its copies come from the stored keys the manifest now names.
  // a resumed run (or the first with the mirror on) also copies what is missing, different or
  // written since the interrupted run began (its marker's Last-Modified, the store's clock)
  const mirrorPhase = async (): Promise<MirrorPlan> => {
    if (!mirrorOn) {
      if (!keptMirror) return { copy: [], delete: [] };
      // the mirror turned off: what it holds would serve this build's predecessors for ever
      const del = dropMirror(o.prefix, remote!, plan.delete);
      say(`upload: the url mirror is off: its ${del.length} objects are deleted`);
      return { copy: [], delete: del };
    }
    let repair = null;
    if (pending || !keptMirror) {
      const stored = pending ? there : await send(`list ${objectsPrefix(o.prefix)}`, () => store.list(objectsPrefix(o.prefix)));
      const mirrored = new Map<string, Listed>();
      for (const folder of mirrorFolders(o.prefix, mirrorLocal)) {
        for (const [k, l] of await send(`list ${folder}`, () => store.list(folder))) mirrored.set(k, l);
      }
      repair = { stored, mirrored, since: pending ? Math.floor(pending.meta.modifiedMs / 1000) * 1000 : Infinity };
    }
    const m = planMirror(o.prefix, mirrorLocal, plan, repair);
    say(`upload: url mirror: ${m.copy.length} to copy to their URL paths, ${m.delete.length} to delete`);
    let copied = 0;
    const mirroring = clock();
    const ticker = setInterval(() => say(mirrorLine(copied, m.copy.length, clock() - mirroring)), o.progressMs ?? 2000);
    ticker.unref();
    try {
      await drain(m.copy.length, o.concurrency, o.signal, async (j) => {
        const i = m.copy[j]!;
        const to = joinKey(o.prefix, mirrorLocal.pathAt(i));
        await send(`copy ${to}`, () => store.copy(mirrorLocal.storedKeyAt(i), to));
        copied++;
      });
    } finally {
      clearInterval(ticker);
      if (m.copy.length) say(mirrorLine(copied, m.copy.length, clock() - mirroring));
    }
    if (o.signal?.aborted) {
      throw new Interrupted(
        `interrupted after ${copied} of ${m.copy.length} url mirror copies: ${manifestKey} names build ${version.id}; run again to finish the mirror`,
      );
    }
    return m;
  };
  let mirror: MirrorPlan;
  try {
    mirror = await mirrorPhase();
    // no manifest in the bucket names them any more (cut short here, the marker stays and the next run retires them again)
    await Promise.all([...plan.delete, ...mirror.delete].map((key) => send(`delete ${key}`, () => store.delete(key))));
    if (pending || plan.put.length || plan.delete.length || mirrorOn !== keptMirror) await send(`delete ${pendingKey}`, () => store.delete(pendingKey));
  } catch (e) {
    if (e instanceof Interrupted) throw e;
    const why = (e as Error)?.message ?? String(e);
    throw new AfterSwitch(`${manifestKey} names build ${version.id}, but its url mirror or deletes are unfinished: ${why}`, { cause: e });
  }
  const mirrorSaid = mirrorOn || mirror.delete.length ? `; url mirror: ${mirror.copy.length} copied, ${mirror.delete.length} deleted` : '';
  say(
    `upload: done: ${t.sent} sent, ${t.skipped} already there, ${plan.unchanged} unchanged, ${plan.delete.length} deleted, ${Object.keys(plan.retired).length} retired (kept for the grace period), ${t.retries} retries; manifest ${manifestKey} last${mirrorSaid}`,
  );
  return {
    buildId: version.id,
    objects: local.objects.size,
    put: t.sent,
    skipped: t.skipped,
    unchanged: plan.unchanged,
    deleted: plan.delete.length,
    retired: Object.keys(plan.retired).length,
    bytes: t.bytes,
    retries: t.retries,
    resumed: !!pending,
    mirrored: mirror.copy.length,
    mirrorDeleted: mirror.delete.length,
  };
}
