// the segments one version serves (artifacts/segments.ts): the days a build writes anew (a
// SegmentSink each, renamed into place before the version names it) and the days it keeps (the
// previous version's entry carried over: no query, no object touched). at the manifest the version
// gets one symlink per day, made fresh (a hard-link copy or a taken-over folder brings the old
// ones), and its manifest the entries (writer.ts writeManifest).
import { mkdirSync, rmSync, symlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { segmentFile } from '../../artifacts/segment-manifest.ts';
import {
  SEGMENTS,
  segmentDay,
  segmentDirOf,
  segmentLinkOf,
  segmentLinkTarget,
  type SegmentKind,
  type SegmentRef,
  type SegmentRefs,
} from '../../artifacts/segments.ts';
import { SegmentSink } from './segment-writer.ts';

export class VersionSegments {
  private readonly refs = new Map<string, SegmentRef>();
  private readonly open = new Set<SegmentSink>();
  /** days written tonight and days carried over */
  readonly stats = { written: 0, kept: 0 };

  /**
   * @param root the tree's root (beside versions/), null for a writer outside a tree (no segments)
   * @param previous the previous version's segments (its manifest's), if any
   * @param check the writer's validation of a key's document
   */
  constructor(
    private readonly root: string | null,
    private readonly previous: SegmentRefs | undefined,
    private readonly check: (key: string, doc: () => unknown) => void,
  ) {}

  private tree(): string {
    if (this.root === null) throw new Error('this writer was made outside a published tree (publish.ts stage): it has no segments');
    return this.root;
  }

  /** Open the segment of `kind` and `date` this build writes (`id`: the build's id). */
  write(kind: SegmentKind, date: string, id: string): SegmentSink {
    const day = segmentDay(kind, date);
    if (this.refs.has(day)) throw new Error(`the version names segment ${day} already`);
    const sink = new SegmentSink(this.tree(), kind, date, id, this.check);
    this.open.add(sink);
    return sink;
  }

  /** Finish `sink` (its segment.json, its rename) and name it in the version. */
  finish(sink: SegmentSink, builtAt: string): SegmentRef {
    if (!this.open.delete(sink)) throw new Error(`segment ${sink.kind}/${sink.date}/${sink.id} was not opened by this writer, or is finished`);
    const { segment_id, sha256 } = sink.finish(builtAt);
    this.refs.set(segmentDay(sink.kind, sink.date), { segment_id, sha256 });
    this.stats.written++;
    return { segment_id, sha256 };
  }

  /**
   * Serve the previous version's segment of `kind` and `date` again; false when that version names
   * none (the caller builds the day). Its segment.json must be the one that version was built with
   * (segment-manifest.ts segmentFile: a SegmentError naming it, else): the objects were checked when
   * the segment was made and are never written after, so they are not read here.
   */
  keepDay(kind: SegmentKind, date: string): boolean {
    const day = segmentDay(kind, date);
    const ref = this.previous?.[day];
    if (!ref || this.refs.has(day)) return false;
    segmentFile(join(this.tree(), segmentDirOf(kind, date, ref.segment_id)), ref.sha256);
    this.refs.set(day, ref);
    this.stats.kept++;
    return true;
  }

  /** the version's entries, sorted, or undefined when it names none */
  entries(): SegmentRefs | undefined {
    if (this.refs.size === 0) return undefined;
    return Object.fromEntries([...this.refs].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  }

  /** Make the version folder's links (one per day, relative) and drop any others; throws on a segment still open. */
  link(dir: string): void {
    const open = [...this.open].map((s) => `${s.kind}/${s.date}`);
    if (open.length) throw new Error(`segments ${open.join(', ')} are not finished: finish them before writeManifest`);
    rmSync(join(dir, SEGMENTS), { recursive: true, force: true });
    for (const [day, ref] of this.refs) {
      const [kind, date] = day.split('/') as [SegmentKind, string];
      const link = join(dir, segmentLinkOf(kind, date));
      mkdirSync(dirname(link), { recursive: true });
      symlinkSync(segmentLinkTarget(kind, date, ref.segment_id), link);
    }
  }

  /** Drop the segments opened and not finished (the build is abandoned). */
  abandon(): void {
    for (const s of this.open) s.abandon();
    this.open.clear();
  }
}
