// write one build's artifacts into a fresh version directory: validate, hash, gzip.
// a nightly run changes a small part of the tree, so the new version starts as a hard-link copy
// of the previous one (`cp -al`: one pass in C, no bytes copied) and only objects whose hash
// changed are written (to a temporary name, then renamed over the link, which leaves the previous
// version's file untouched). objects the build did not produce again are removed at the end.
import { MANIFEST_FILE, VERSION_FILE } from '../../artifacts/tree.ts';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { assertValid } from '../../schemas/index.ts';
import { kindOfKey } from '../../schemas/artifact-kinds.ts';
import { assertSafeKey, fileOf } from '../../artifacts/keys.ts';
import type { Manifest, ObjectEntry } from '../../artifacts/manifest.ts';

// most documents are a few hundred bytes: zlib's setup, not compression, is their cost, and a
// 4 KB window (windowBits 12) compresses them exactly as well at about 1.35x the speed (measured:
// 52k vs 39k docs/s). larger documents (an airframe's 200 legs, an airport's board) get the full
// window at level 6: 1.7x level 9's speed for 0.6 % more bytes (5.6k vs 3.3k/s on an 18 KB
// airframe). both are deterministic, so unchanged documents keep their bytes night after night.
const SMALL_DOC = 4096;
const SMALL_GZIP = { level: 9, windowBits: 12, memLevel: 5 };
const BIG_GZIP = { level: 6 };

export interface WriterStats {
  objects: number;
  /** objects whose bytes were written by this build */
  written: number;
  /** objects unchanged since the previous version (kept as hard links) */
  linked: number;
  /** objects of the previous version this build no longer has */
  removed: number;
  bytes: number;
}

export class ArtifactWriter {
  readonly objects: Record<string, ObjectEntry> = {};
  readonly stats: WriterStats = { objects: 0, written: 0, linked: 0, removed: 0, bytes: 0 };
  private readonly dirs = new Set<string>();

  /**
   * @param dir the new version directory (must not be published yet)
   * @param previous the published version to reuse unchanged objects from, if any
   */
  constructor(
    readonly dir: string,
    private readonly previous: { dir: string; manifest: Manifest } | null,
  ) {
    if (previous && existsSync(previous.dir)) {
      mkdirSync(dirname(dir), { recursive: true });
      const r = spawnSync('cp', ['-al', previous.dir, dir], { encoding: 'utf8' });
      if (r.status !== 0) throw new Error(`cannot hard-link ${previous.dir} to ${dir}: ${r.stderr || r.error?.message}`);
    } else {
      mkdirSync(dir, { recursive: true });
    }
  }

  /** Validate `doc` against the schema of its kind (schemas/artifact-kinds.ts), then store it under `key`. */
  put(key: string, doc: unknown): void {
    const k = kindOfKey(key);
    if (!k) throw new Error(`no artifact kind has a key like ${JSON.stringify(key)}: add a row to schemas/artifact-kinds.ts`);
    assertValid(k.kind.schema, doc, key);
    this.putBytes(key, Buffer.from(JSON.stringify(doc)));
  }

  /** Store raw JSON bytes (already validated by the caller) under `key`. */
  putBytes(key: string, json: Buffer): void {
    assertSafeKey(key);
    if (this.objects[key]) throw new Error(`artifact ${key} written twice in one build`);
    const sha256 = createHash('sha256').update(json).digest('hex');
    const file = join(this.dir, fileOf(key));
    const parent = dirname(file);
    if (!this.dirs.has(parent)) {
      mkdirSync(parent, { recursive: true });
      this.dirs.add(parent);
    }
    const prev = this.previous?.manifest.objects[key];
    let gzBytes: number;
    if (prev && prev.sha256 === sha256) {
      // already here: hard-linked from the previous version
      gzBytes = prev.gzip_bytes;
      this.stats.linked++;
    } else {
      const gz = gzipSync(json, json.length < SMALL_DOC ? SMALL_GZIP : BIG_GZIP);
      if (prev) {
        const tmp = `${file}.tmp`;
        writeFileSync(tmp, gz);
        renameSync(tmp, file);
      } else {
        writeFileSync(file, gz);
      }
      gzBytes = gz.length;
      this.stats.written++;
    }
    this.objects[key] = { sha256, bytes: json.length, gzip_bytes: gzBytes };
    this.stats.objects++;
    this.stats.bytes += gzBytes;
  }

  /** Read back an object of this build (for cross-checks). */
  read(key: string): unknown {
    return JSON.parse(gunzipSync(readFileSync(join(this.dir, fileOf(key)))).toString('utf8'));
  }

  /**
   * Keep every object of the previous version this build did not write, as it was (a partial
   * build such as the hourly `today` roll). Call before writeManifest.
   */
  keepTheRest(): void {
    for (const [key, entry] of Object.entries(this.previous?.manifest.objects ?? {})) {
      if (this.objects[key]) continue;
      this.objects[key] = entry;
      this.stats.objects++;
      this.stats.linked++;
      this.stats.bytes += entry.gzip_bytes;
    }
  }

  /** Remove objects of the previous version this build did not produce, then write the manifest. */
  writeManifest(m: Omit<Manifest, 'objects'>): Manifest {
    for (const key of Object.keys(this.previous?.manifest.objects ?? {})) {
      if (!this.objects[key]) {
        rmSync(join(this.dir, fileOf(key)), { force: true });
        this.stats.removed++;
      }
    }
    const manifest: Manifest = { ...m, objects: this.objects };
    assertValid('manifest', manifest, 'manifest');
    for (const [name, doc] of [[MANIFEST_FILE, manifest], [VERSION_FILE, m]] as const) {
      const tmp = join(this.dir, `${name}.tmp`);
      writeFileSync(tmp, JSON.stringify(doc));
      renameSync(tmp, join(this.dir, name));
    }
    return manifest;
  }
}
