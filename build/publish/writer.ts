// write one build's artifacts into a fresh version directory: validate, hash, gzip.
// the gzip and the file write can run on worker threads (write-pool.ts) while this thread builds
// the next documents; it hashes each one itself, so unchanged objects never leave this thread.
// a nightly run changes a small part of the tree, so the new version starts as a hard-link copy
// of the previous one (hard-link-copy.ts; with `linkInBackground` it runs while the steps compute,
// and writes go on beside it where this system's cp can skip what they wrote, else they wait for it)
// and only objects whose hash changed are written (the link unlinked and a new file created, which
// leaves the previous version's file untouched). objects the build did not produce again are
// removed at the end. or (`recycled`) the directory is an old version the commit would prune,
// taken over (recycle.ts): only its names whose files are not the previous version's ("dirty") are
// written (over the folder's own file in place where no other version links it), linked from the
// previous version, or removed; the old files a name loses are moved to a trash, and a written name
// that holds no file of the folder's own takes one of those instead of a new file (taken-over.ts).
import { MANIFEST_FILE, VERSION_FILE } from '../../artifacts/tree.ts';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { assertValid } from '../../schemas/index.ts';
import { kindOfKey } from '../../schemas/artifact-kinds.ts';
import { assertSafeKey, fileOf } from '../../artifacts/keys.ts';
import type { ManifestHeader } from '../../artifacts/manifest.ts';
import { ObjectTable, Origin } from '../../artifacts/object-table.ts';
import { writeManifestFile, type TableManifest } from '../../artifacts/manifest-file.ts';
import { relink, writeGzipped, type WriteTarget } from './gzip-file.ts';
import { WritePool } from './write-pool.ts';
import { copyKeepsWritten, hardLinkCopy, hardLinkCopySync } from './hard-link-copy.ts';
import { ObjectFolders, removeEmptied, sealNames } from './names-seal.ts';
import { recycleOrCopy, recycleOrCopySync, type Recycled } from './recycle.ts';
import { TakenOver } from './taken-over.ts';
import { asBuffer } from '../../lib/bytes.ts';
import { validationSampler } from './validate-sample.ts';
import type { LinkStats, WriterOptions, WriterStats } from './writer-options.ts';
import { VersionSegments } from './version-segments.ts';

export type { WriterOptions } from './writer-options.ts';

/** texts from this length on (an airframe, a board) go to the workers as their UTF-8 bytes, moved, not copied */
const TRANSFER_FROM = 4096;
/**
 * writes, and the length of their documents' text, held in memory while the background copy or the
 * check of a taken-over folder runs, before drain() waits for it: a night's routes (130 k documents,
 * ~0.2 GB of text) are made and hashed while the check runs, not held at the first 4096 (the step
 * still waits for the check to write its state files; what shortened that wait was starting the
 * check sooner, publish.ts stage: docs/perf-log/nightly-steady-state.md, night 3)
 */
const MAX_WAITING = 500_000;
const MAX_WAITING_BYTES = 256 << 20;

/** the version a build starts from: its folder and its objects */
export interface PreviousVersion {
  dir: string;
  objects: ObjectTable;
  /** its manifest's header: the segments it serves (artifacts/segments.ts) */
  header?: ManifestHeader;
}

export class ArtifactWriter {
  /** this build's objects (object-table.ts: a year's 2 M entries held outside V8's heap), room made for the previous version's */
  readonly objects: ObjectTable;
  readonly stats: WriterStats = { objects: 0, written: 0, linked: 0, removed: 0, repaired: 0, bytes: 0 };
  private readonly dirs = new Set<string>();
  /** the folders the objects are in, for the seal on the version's names (names-seal.ts) */
  private readonly folders = new ObjectFolders();
  /** whether writeManifest sealed the version's names (names-seal.ts) */
  sealed = false;
  private readonly pool: WritePool | null;
  private readonly sampled: (kind: string, key: string) => boolean;
  /** the writes that wait for the background copy (null when none wait: no copy, or cp skips what they wrote) */
  private waiting: (() => void)[] | null = null;
  private waitingBytes = 0;
  private linking: Promise<void> | null = null;
  /** the background copy still runs, or failed (copyError) */
  private copying = false;
  private copyError: Error | null = null;
  readonly link: LinkStats = { ms: 0, waitedMs: 0, recycled: null, relinked: 0, spared: 0 };
  /** the folder taken over from the prune (taken-over.ts), null when built from nothing or a copy */
  private readonly over: TakenOver | null;
  /** keys whose previous file does not hold what the previous manifest says (verify.ts): never linked or kept */
  private distrusted: Set<string> | null = null;
  /** the closed days this version serves from shared segments (version-segments.ts): written, or kept from the previous version */
  readonly segments: VersionSegments;

  /**
   * @param dir the new version directory (must not be published yet)
   * @param previous the published version to reuse unchanged objects from, if any
   * @param opts write workers and validation; by default every document is validated and written here
   */
  constructor(
    readonly dir: string,
    private readonly previous: PreviousVersion | null,
    opts: WriterOptions = {},
  ) {
    this.objects = new ObjectTable(previous?.objects.size ?? 0);
    this.segments = new VersionSegments(opts.root ?? null, previous?.header?.segments, (key, doc) => this.check(key, doc));
    this.over = opts.recycled ? new TakenOver(dir) : null;
    if (previous && existsSync(previous.dir)) {
      mkdirSync(dirname(dir), { recursive: true });
      const t0 = Date.now();
      if (opts.linkInBackground) {
        const writeBeside = !opts.recycled && (opts.writeBesideCopy ?? copyKeepsWritten());
        this.waiting = writeBeside ? null : [];
        this.copying = true;
        const copy = opts.recycled
          ? recycleOrCopy(dir, previous.dir, previous.objects, opts.recycling).then((r) => void this.recycledWith(r))
          : (opts.copy ?? hardLinkCopy)(previous.dir, dir, previous.objects, writeBeside);
        this.linking = copy.then(
          () => {
            this.link.ms = Date.now() - t0;
            this.copying = false;
            const writes = this.waiting ?? [];
            this.waiting = null;
            this.waitingBytes = 0;
            for (const w of writes) w();
          },
          (e: unknown) => {
            this.copyError = e as Error;
            throw e;
          },
        );
        this.linking.catch(() => {}); // reported by readyForFiles() and flush()
      } else {
        if (opts.recycled) this.recycledWith(recycleOrCopySync(dir, previous.dir));
        else hardLinkCopySync(previous.dir, dir);
        this.link.ms = Date.now() - t0;
      }
    } else {
      if (opts.recycled) rmSync(dir, { recursive: true, force: true }); // nothing to bring it up to date with
      mkdirSync(dir, { recursive: true });
    }
    this.pool = opts.workers ? new WritePool(opts.workers) : null;
    this.sampled = validationSampler(opts.validate ?? 'all', opts.seed ?? 0);
  }

  /** where a taken-over folder's own files go when a name is written or linked over (publish.ts removes it after the commit); null when not taken over */
  get trash(): string | null {
    return this.over?.trash ?? null;
  }

  private recycledWith(r: Recycled): void {
    this.link.recycled = r;
    this.over!.dirty = r.dirty;
  }

  /** Whether the folder has a file under `key` (a previous version's, or a taken-over one's), to write over it. */
  private has(key: string): boolean {
    return this.over?.owns(key) ?? (this.previous !== null && this.previous.objects.indexOf(key) >= 0);
  }

  /**
   * An object kept from the previous version: in a taken-over folder whose file under `key` is not
   * the previous version's (dirty), the previous version's file is hard-linked there (when the
   * folder is known: the taken-over folder's check may still run).
   */
  private linkKept(key: string): void {
    this.write(() => {
      if (!this.over?.isDirty(key)) return;
      const file = join(this.dir, fileOf(key));
      const source = join(this.previous!.dir, fileOf(key));
      this.mkdirOf(file);
      this.link.relinked++;
      const aside = this.over?.asideOf(key) ?? null;
      const spare = () => aside && this.over!.addSpare(aside);
      if (this.pool) this.pool.addLink(key, file, source, aside, spare);
      else {
        relink(source, file, aside);
        spare();
      }
    });
  }

  /**
   * How the write of `key` goes (gzip-file.ts writeGz), decided when it is made: over a link into the
   * previous version, over the taken-over folder's own file, or into a spare (taken-over.ts) where
   * the name holds none of the folder's own files and one is on disk.
   */
  private targetOf(key: string): WriteTarget {
    const aside = this.over?.asideOf(key) ?? null;
    const spare = this.over && !aside ? this.over.takeSpare() : null;
    if (spare) this.link.spared++;
    return { replace: this.has(key), aside, spare };
  }

  /** Validate `doc` against the schema of its kind (schemas/artifact-kinds.ts) when sampled, then store it under `key`. */
  put(key: string, doc: unknown): void {
    this.check(key, () => doc);
    this.store(key, JSON.stringify(doc));
  }

  /**
   * Store a document given as its JSON text (made by DuckDB or shared by two keys), or as that
   * text's UTF-8 bytes, validated like put: `doc` is the parsed document when the caller has it,
   * else the text is parsed when sampled. Bytes in a buffer of their own are moved to a write
   * worker, not copied: the caller must not touch them again.
   */
  putJson(key: string, json: string | Uint8Array, doc?: unknown): void {
    this.check(key, () => (doc !== undefined ? doc : JSON.parse(typeof json === 'string' ? json : asBuffer(json).toString('utf8'))));
    this.store(key, json);
  }

  /** Store JSON text or bytes already validated by the caller (or a second key of the same document) under `key`. */
  putBytes(key: string, json: string | Buffer): void {
    this.store(key, json);
  }

  /**
   * Distrust the previous version's files under `keys` (verify.ts found them damaged): a document
   * stored under one of them is written as a new file even when its hash is the previous manifest's,
   * and keep() refuses them. Call before the first put.
   */
  distrust(keys: Iterable<string>): void {
    this.distrusted ??= new Set();
    for (const k of keys) this.distrusted.add(k);
  }

  /**
   * Keep the previous version's object under `key` unbuilt (the caller knows its inputs are
   * unchanged): it is already here as a hard link. false when the previous version has no such object.
   */
  keep(key: string): boolean {
    const p = this.previous?.objects.indexOf(key) ?? -1;
    if (p < 0 || this.distrusted?.has(key)) return false;
    this.entry(key, this.objects.addCopy(key, this.previous!.objects, p, Origin.KEPT));
    this.stats.linked++;
    this.linkKept(key);
    return true;
  }

  /**
   * Wait until a file may be written into `dir` other than through put: a new file renamed into
   * place, never one written through a name that exists (it may be a previous version's file). At once when
   * writes go beside the background copy (it skips what they wrote), else when the copy is done.
   * Throws when the copy failed.
   */
  async readyForFiles(): Promise<void> {
    if (this.waiting === null && this.linking) {
      if (this.copyError) throw this.copyError;
      return;
    }
    await this.copied();
  }

  /** Wait until the version folder holds the previous version's objects (the background copy is done); throws when it failed. */
  private async copied(): Promise<void> {
    if (!this.linking) return;
    const t0 = Date.now();
    const copying = this.copying;
    await this.linking;
    if (copying) this.link.waitedMs += Date.now() - t0;
  }

  /** Wait while the write workers are behind, or many writes wait for the hard-link copy (call between chunks of a long step). */
  async drain(): Promise<void> {
    if (this.waiting && (this.waiting.length >= MAX_WAITING || this.waitingBytes >= MAX_WAITING_BYTES)) await this.copied();
    await this.pool?.drain();
  }

  /** Wait until every object is on disk and in `objects`; throws the first failed write. Call before writeManifest. */
  async flush(): Promise<void> {
    await this.copied();
    await this.pool?.flush();
  }

  /** Stop the write workers: after flush, or when the build is abandoned (then a running copy is waited for, its failure ignored). */
  async close(): Promise<void> {
    await this.linking?.catch(() => {});
    await this.pool?.close();
  }

  private check(key: string, doc: () => unknown): void {
    const k = kindOfKey(key);
    if (!k) throw new Error(`no artifact kind has a key like ${JSON.stringify(key)}: add a row to schemas/artifact-kinds.ts`);
    if (this.sampled(k.name, key)) assertValid(k.kind.schema, doc(), key);
  }

  /** run a file write now, or when the background hard-link copy has made the folder (when it cannot skip what is written) */
  private write(w: () => void, bytes = 0): void {
    if (this.waiting) {
      this.waiting.push(w);
      this.waitingBytes += bytes;
    } else w();
  }

  private mkdirOf(file: string): void {
    const parent = dirname(file);
    if (!this.dirs.has(parent)) {
      mkdirSync(parent, { recursive: true });
      this.dirs.add(parent);
    }
  }

  private store(key: string, json: string | Uint8Array): void {
    assertSafeKey(key);
    const file = join(this.dir, fileOf(key));
    const p = this.previous?.objects.indexOf(key) ?? -1;
    const t = this.objects;
    if (p < 0 && this.pool) {
      // nothing to compare with (a first build, a new key): the worker hashes it beside the gzip
      const i = t.add(key, null, 0, 0); // filled in when the worker reports
      const pool = this.pool;
      this.write(() => {
        this.mkdirOf(file);
        pool.add(key, file, json, this.targetOf(key), true, (gz, sha256, bytes) => {
          t.setSha(i, sha256);
          t.setBytes(i, bytes);
          t.setGzip(i, gz);
          this.stats.bytes += gz;
        });
      }, json.length);
      this.entry(key, i);
      this.stats.written++;
      return;
    }
    // the unchanged check needs the hash at once. a large text is hashed as the UTF-8 bytes the
    // worker will gzip, and those bytes move to the worker instead of a copy of the text
    const data = this.pool && typeof json === 'string' && json.length >= TRANSFER_FROM ? Buffer.from(json) : json;
    const sha256 = createHash('sha256').update(data).digest();
    const bytes = typeof data === 'string' ? Buffer.byteLength(data) : data.length;
    const prev = this.previous?.objects;
    const distrusted = p >= 0 && this.distrusted?.has(key) === true;
    if (distrusted) this.stats.repaired++;
    if (prev && p >= 0 && prev.shaIs(p, sha256) && !distrusted) {
      // already here: hard-linked from the previous version
      this.entry(key, t.add(key, sha256, bytes, prev.gzipAt(p), Origin.SAME));
      this.stats.linked++;
      this.linkKept(key);
      return;
    }
    const i = t.add(key, sha256, bytes, 0); // gzip_bytes 0 until written
    this.entry(key, i);
    this.stats.written++;
    if (this.pool) {
      const pool = this.pool;
      this.write(() => {
        this.mkdirOf(file);
        pool.add(key, file, data, this.targetOf(key), false, (gz) => {
          t.setGzip(i, gz);
          this.stats.bytes += gz;
        });
      }, bytes);
    } else {
      // at once unless the copy still runs
      this.write(() => {
        this.mkdirOf(file);
        const gz = writeGzipped(file, data, this.targetOf(key));
        t.setGzip(i, gz);
        this.stats.bytes += gz;
      }, bytes);
    }
  }

  /** count `key`, entry `i` of this build's table (its folder, for the seal) */
  private entry(key: string, i: number): void {
    this.folders.add(key);
    this.stats.objects++;
    this.stats.bytes += this.objects.gzipAt(i);
  }

  private assertFlushed(what: string): void {
    if (this.copyError)
      throw new Error(
        `the hard-link copy of the previous version failed (${this.copyError.message}): nothing can be ${what === 'read' ? 'read' : 'published'}`,
      );
    if (this.copying) throw new Error(`the hard-link copy of the previous version is still running: await writer.flush() before ${what}`);
    if (this.pool && this.pool.pending > 0) throw new Error(`${this.pool.pending} objects are still being written: await writer.flush() before ${what}`);
  }

  /** Read back an object of this build (for cross-checks). */
  read(key: string): unknown {
    this.assertFlushed('read');
    return JSON.parse(gunzipSync(readFileSync(join(this.dir, fileOf(key)))).toString('utf8'));
  }

  /**
   * Keep every object of the previous version this build did not write, as it was (a partial
   * build such as the hourly `today` roll). Call before writeManifest.
   */
  keepTheRest(): void {
    const prev = this.previous?.objects;
    if (!prev) return;
    for (let p = 0; p < prev.size; p++) {
      const key = prev.keyAt(p);
      if (this.objects.indexOf(key) >= 0) continue;
      this.entry(key, this.objects.addCopy(key, prev, p, Origin.KEPT));
      this.stats.linked++;
      this.linkKept(key);
    }
  }

  /**
   * Remove objects of the previous version this build did not produce (and the folders that leaves
   * empty), then write the manifest (manifest-file.ts; its header checked against the schema, its
   * entries held in their types by the table), then seal the version's names (names-seal.ts).
   */
  writeManifest(header: ManifestHeader): TableManifest {
    this.assertFlushed('writeManifest');
    this.segments.link(this.dir);
    const segments = this.segments.entries();
    const m: ManifestHeader = segments ? { ...header, segments } : header;
    const before = this.previous?.objects ?? null;
    const removed: string[] = [];
    const remove = (key: string) => {
      const aside = this.over?.asideOf(key) ?? null;
      if (aside) renameSync(join(this.dir, fileOf(key)), aside);
      else rmSync(join(this.dir, fileOf(key)), { force: true });
      removed.push(key);
    };
    for (let p = 0; before && p < before.size; p++) {
      if (this.objects.indexOfKeyOf(before, p) < 0) {
        remove(before.keyAt(p));
        this.stats.removed++;
      }
    }
    // a taken-over folder's own objects that neither version has
    for (const [key, has] of this.over?.dirty ?? []) if (has && !before?.has(key) && !this.objects.has(key)) remove(key);
    removeEmptied(this.dir, removed, this.folders);
    assertValid('manifest', { ...m, objects: {} }, 'manifest');
    const tmp = join(this.dir, `${MANIFEST_FILE}.tmp`);
    writeManifestFile(tmp, m, this.objects);
    renameSync(tmp, join(this.dir, MANIFEST_FILE));
    const vtmp = join(this.dir, `${VERSION_FILE}.tmp`);
    writeFileSync(vtmp, JSON.stringify(m));
    renameSync(vtmp, join(this.dir, VERSION_FILE));
    this.sealed = sealNames(this.dir, this.folders);
    return { header: m, objects: this.objects };
  }
}
