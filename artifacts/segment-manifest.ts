// a segment's segment.json (schemas/segment.schema.json): the names, hashes and lengths of one
// kind's objects of one day. read where a segment is trusted (a build keeping a day, the prune, an
// upload): a missing or malformed one is a SegmentError that names the file and says what to do.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { problems } from '../schemas/index.ts';
import { SEGMENT_FILE, type SegmentKind } from './segments.ts';
import type { ObjectEntry } from './manifest.ts';

export interface SegmentManifest {
  kind: SegmentKind;
  date: string;
  segment_id: string;
  built_at: string;
  objects: Record<string, ObjectEntry>;
}

export class SegmentError extends Error {
  override name = 'SegmentError';
}

/** what a segment's folder holds: its manifest and that file's sha256 (the version's SegmentRef) */
export interface ReadSegment {
  manifest: SegmentManifest;
  sha256: string;
}

// a closed day is frozen: only a build from the whole log makes its segment again
const REMEDY = 'build every day again (npm run nightly -- --rebuild)';

/** The text of a segment.json as a SegmentManifest; throws a SegmentError naming `file` when it is not one. */
export function parseSegmentManifest(text: Buffer | string, file: string): SegmentManifest {
  let doc: unknown;
  try {
    doc = JSON.parse(typeof text === 'string' ? text : text.toString('utf8'));
  } catch (e) {
    throw new SegmentError(`${file} is not JSON (${(e as Error).message}): ${REMEDY}`);
  }
  const p = problems('segment', doc);
  if (p.length) throw new SegmentError(`${file} does not match schemas/segment.schema.json: ${p.slice(0, 3).join('; ')}: ${REMEDY}`);
  return doc as SegmentManifest;
}

/**
 * The bytes of the segment.json in `dir` and their sha256, checked against `sha256` (a version's
 * entry) when given: what a build checks of a day it keeps, without parsing it (a year's flights
 * segments are ~4 MB of entries each). Throws a SegmentError naming the file when it is missing or other.
 */
export function segmentFile(dir: string, sha256?: string): { file: string; text: Buffer; sha256: string } {
  const file = join(dir, SEGMENT_FILE);
  let text: Buffer;
  try {
    text = readFileSync(file);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') throw new SegmentError(`${file} is missing: the segment was never finished or was damaged; ${REMEDY}`);
    throw e;
  }
  const got = createHash('sha256').update(text).digest('hex');
  if (sha256 !== undefined && sha256 !== got)
    throw new SegmentError(`${file} is not the segment.json the version was built with (sha256 ${got}, the manifest says ${sha256}): ${REMEDY}`);
  return { file, text, sha256: got };
}

/**
 * The manifest of the segment in `dir`, checked against what its place in the tree says it is
 * (`kind`, `date`, `id`: its folder's names) and, given `sha256`, against the version's entry.
 */
export function readSegment(dir: string, want: { kind: SegmentKind; date: string; id: string; sha256?: string }): ReadSegment {
  const { file, text, sha256 } = segmentFile(dir, want.sha256);
  const m = parseSegmentManifest(text, file);
  const got = `${m.kind}/${m.date}/${m.segment_id}`;
  if (got !== `${want.kind}/${want.date}/${want.id}`)
    throw new SegmentError(`${file} says it is segment ${got}, but it lies at ${want.kind}/${want.date}/${want.id}: ${REMEDY}`);
  return { manifest: m, sha256 };
}
