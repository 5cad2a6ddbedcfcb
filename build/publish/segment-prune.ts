// which segments (artifacts/segments.ts) the published versions still name, and the removal of the
// others after a commit (publish.ts): a segment is removed only when no version left, the current
// one and the `--keep` older ones, names it, by its link or by its manifest. a version whose names
// cannot be read stops the prune (nothing is removed): better a segment kept a night too long than
// a served day gone.
import { lstatSync, readdirSync, readFileSync, readlinkSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { SEGMENTS, SEGMENT_KINDS, segmentDirOf, type SegmentKind } from '../../artifacts/segments.ts';
import type { ManifestHeader } from '../../artifacts/manifest.ts';
import { VERSION_FILE, VERSIONS } from '../../artifacts/tree.ts';
import { SEGMENT_PARTIAL } from './segment-writer.ts';

const absent = (e: unknown) => ['ENOENT', 'ENOTDIR'].includes((e as NodeJS.ErrnoException).code ?? '');

/** names in a folder, [] when it is not there */
function namesIn(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch (e) {
    if (absent(e)) return [];
    throw e;
  }
}

/**
 * The segment folders (segments/<kind>/<date>/<id>, relative to the root) the versions under
 * versions/ name: each version's links and its version.json's entries. Partial versions (a build
 * under way) count too. Throws when a version's names cannot be read.
 */
export function namedSegments(root: string): Set<string> {
  const named = new Set<string>();
  for (const v of namesIn(join(root, VERSIONS))) {
    const dir = join(root, VERSIONS, v);
    if (!lstatSync(dir).isDirectory()) continue;
    for (const kind of SEGMENT_KINDS)
      for (const date of namesIn(join(dir, SEGMENTS, kind))) {
        const target = readlinkSync(join(dir, SEGMENTS, kind, date));
        named.add(target.replace(/^(\.\.\/)+/, ''));
      }
    let text: string | null = null;
    try {
      text = readFileSync(join(dir, VERSION_FILE), 'utf8');
    } catch (e) {
      if (!absent(e)) throw e;
    }
    if (text === null) continue; // a partial version, or one from before version.json: its links say it
    const header = JSON.parse(text) as ManifestHeader;
    for (const [day, ref] of Object.entries(header.segments ?? {})) {
      const [kind, date] = day.split('/') as [SegmentKind, string];
      named.add(segmentDirOf(kind, date, ref.segment_id));
    }
  }
  return named;
}

/** every segment folder on disk, finished or partial, relative to the root */
function segmentFolders(root: string): string[] {
  const out: string[] = [];
  for (const kind of namesIn(join(root, SEGMENTS)))
    for (const date of namesIn(join(root, SEGMENTS, kind)))
      for (const id of namesIn(join(root, SEGMENTS, kind, date))) out.push(`${SEGMENTS}/${kind}/${date}/${id}`);
  return out;
}

/**
 * Remove the segments no version names, and the partial segments of builds that are gone (`partials`:
 * only while no build runs, publish.ts stage and commit hold the build lock). Returns what it removed.
 */
export function pruneSegments(root: string, { partials = true } = {}): string[] {
  const named = namedSegments(root);
  const removed: string[] = [];
  for (const s of segmentFolders(root)) {
    const partial = s.includes(SEGMENT_PARTIAL);
    if (partial ? !partials : named.has(s)) continue;
    rmSync(join(root, s), { recursive: true, force: true });
    removed.push(s);
  }
  // a day's folder left empty
  for (const kind of namesIn(join(root, SEGMENTS)))
    for (const date of namesIn(join(root, SEGMENTS, kind))) {
      const day = join(root, SEGMENTS, kind, date);
      if (namesIn(day).length === 0) rmSync(day, { recursive: true });
    }
  return removed;
}
