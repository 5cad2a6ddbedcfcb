// write one segment (artifacts/segments.ts): one kind's documents of one day, into
// segments/<kind>/<date>/<id>.partial-<pid>, then its segment.json, then one rename to <id>. a
// segment is never written after its rename, so every version that names it reads the same bytes;
// a build killed before the rename leaves only a partial folder no version names (swept by the
// next build's stage, publish.ts). the documents are few a day (a global day: ~36,000 flights and a
// few thousand movements) and this thread gzips them: the write pool is for the year-wide kinds.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipDoc } from './gzip-file.ts';
import { keyInSegment, segmentDirOf, SEGMENT_FILE, isSegmentName, type SegmentKind, type SegmentRef } from '../../artifacts/segments.ts';
import type { SegmentManifest } from '../../artifacts/segment-manifest.ts';
import type { ObjectEntry } from '../../artifacts/manifest.ts';

export const SEGMENT_PARTIAL = '.partial-';

export class SegmentSink {
  readonly dir: string;
  private readonly final: string;
  private readonly objects: Record<string, ObjectEntry> = {};
  private done = false;
  /** objects and gzip bytes written */
  readonly stats = { objects: 0, bytes: 0 };

  /**
   * @param root the tree's root (beside versions/)
   * @param check validates the document of a key (the writer's schema sampling), given its text or parsed form
   */
  constructor(
    root: string,
    readonly kind: SegmentKind,
    readonly date: string,
    readonly id: string,
    private readonly check: (key: string, doc: () => unknown) => void = () => {},
  ) {
    this.final = join(root, segmentDirOf(kind, date, id));
    if (existsSync(this.final)) throw new Error(`segment ${kind}/${date}/${id} exists already: a segment is written once, under a new build id`);
    this.dir = `${this.final}${SEGMENT_PARTIAL}${process.pid}`;
    rmSync(this.dir, { recursive: true, force: true });
    mkdirSync(this.dir, { recursive: true });
  }

  /** the key `name` stands for in this segment (artifacts/segments.ts keyInSegment) */
  keyOf(name: string): string {
    return keyInSegment(this.kind, this.date, name);
  }

  /** Validate and store the document of `name` (a hex, an airport code), given as its JSON text or bytes; `doc` is its parsed form when the caller has it. */
  put(name: string, json: string | Uint8Array, doc?: unknown): void {
    if (this.done) throw new Error(`segment ${this.kind}/${this.date}/${this.id} is finished: it is never written again`);
    if (!isSegmentName(name)) throw new Error(`${JSON.stringify(name)} is no name in a ${this.kind} segment`);
    if (name in this.objects) throw new Error(`segment ${this.kind}/${this.date}/${this.id} holds ${name} already`);
    const key = this.keyOf(name);
    this.check(key, () => (doc !== undefined ? doc : JSON.parse(typeof json === 'string' ? json : Buffer.from(json).toString('utf8'))));
    const data = typeof json === 'string' ? Buffer.from(json) : json;
    const gz = gzipDoc(data);
    writeFileSync(join(this.dir, `${name}.gz`), gz, { flag: 'wx' });
    this.objects[name] = { sha256: createHash('sha256').update(data).digest('hex'), bytes: data.length, gzip_bytes: gz.length };
    this.stats.objects++;
    this.stats.bytes += gz.length;
  }

  /** Write segment.json, then rename the folder into place: the segment is whole from here on. */
  finish(builtAt: string): SegmentRef & { manifest: SegmentManifest } {
    const manifest: SegmentManifest = { kind: this.kind, date: this.date, segment_id: this.id, built_at: builtAt, objects: this.objects };
    const text = JSON.stringify(manifest);
    const tmp = join(this.dir, `${SEGMENT_FILE}.tmp`);
    writeFileSync(tmp, text);
    renameSync(tmp, join(this.dir, SEGMENT_FILE));
    renameSync(this.dir, this.final);
    this.done = true;
    return { segment_id: this.id, sha256: createHash('sha256').update(text).digest('hex'), manifest };
  }

  /** Drop an unfinished segment (the build failed): no version names it. */
  abandon(): void {
    if (!this.done) rmSync(this.dir, { recursive: true, force: true });
    this.done = true;
  }
}
