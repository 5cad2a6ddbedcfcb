// write one build's artifacts into a fresh version directory: validate, gzip, hash, and
// hard-link objects whose bytes did not change since the previous version (cheap nightly runs).
import { createHash } from 'node:crypto';
import { existsSync, linkSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { assertValid } from '../../schemas/index.ts';
import { assertSafeKey, fileOf } from '../../artifacts/keys.ts';
import type { Manifest, ObjectEntry } from './manifest.ts';

export interface WriterStats {
  objects: number;
  written: number;
  linked: number;
  bytes: number;
}

export class ArtifactWriter {
  readonly objects: Record<string, ObjectEntry> = {};
  readonly stats: WriterStats = { objects: 0, written: 0, linked: 0, bytes: 0 };
  private readonly dirs = new Set<string>();

  /**
   * @param dir the new version directory (must not be published yet)
   * @param previous the published version to reuse unchanged objects from, if any
   */
  constructor(
    readonly dir: string,
    private readonly previous: { dir: string; manifest: Manifest } | null,
  ) {
    mkdirSync(dir, { recursive: true });
  }

  /** Validate `doc` against schemas/<schema>.schema.json, then store it under `key`. */
  put(key: string, doc: unknown, schema: string): void {
    assertValid(schema, doc, key);
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
    if (prev && prev.sha256 === sha256 && existsSync(join(this.previous!.dir, fileOf(key)))) {
      linkSync(join(this.previous!.dir, fileOf(key)), file);
      gzBytes = prev.gzip_bytes;
      this.stats.linked++;
    } else {
      // gzip output is deterministic for the same input (node writes mtime 0), so unchanged docs hash the same
      const gz = gzipSync(json, { level: 9 });
      writeFileSync(file, gz);
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

  writeManifest(m: Omit<Manifest, 'objects'>): Manifest {
    const manifest: Manifest = { ...m, objects: this.objects };
    assertValid('manifest', manifest, 'manifest');
    writeFileSync(join(this.dir, 'manifest.json'), JSON.stringify(manifest));
    return manifest;
  }
}
