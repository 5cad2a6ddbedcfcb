// the segment layout (docs/artifacts.md, "Closed days at a year's scale"): a closed day's documents
// of one kind live once, in an immutable folder that versions share through a symlink, instead of
// being hard-linked into every version:
//   <root>/segments/<kind>/<date>/<segment_id>/<name>.gz      the objects
//   <root>/segments/<kind>/<date>/<segment_id>/segment.json   its manifest, written last
//   <root>/versions/<build_id>/segments/<kind>/<date>          a symlink to the segment it serves
// a version's manifest names its segments ({"<kind>/<date>": {segment_id, sha256}}); a key of a
// segment kind whose day is named there is read through the link (storedFileOf).
import { fileOf } from './keys.ts';

export const SEGMENTS = 'segments';
/** a segment's manifest, the last file written into it */
export const SEGMENT_FILE = 'segment.json';

/** how a segment kind's keys map to a day and a name inside its segment (schemas/artifact-kinds.ts keys) */
const KINDS = {
  // v1/flights/{hex}/{date}: <hex>.gz
  flights: /^v1\/flights\/([0-9a-f]{6})\/(\d{4}-\d{2}-\d{2})$/,
  // v1/airports/{code}/movements/{date}: <code>.gz (the IATA and the ICAO spelling, same bytes)
  movements: /^v1\/airports\/([A-Z0-9]{3,4})\/movements\/(\d{4}-\d{2}-\d{2})$/,
} as const;

export type SegmentKind = keyof typeof KINDS;
export const SEGMENT_KINDS = Object.keys(KINDS) as SegmentKind[];

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const NAME = /^[0-9a-zA-Z]{3,6}$/;
/** a segment id: a build id (publish.ts newBuildId), which sorts by time */
const SEGMENT_ID = /^[0-9A-Za-z][0-9A-Za-z_-]*$/;

/** what a version's manifest says of one day of a segment kind */
export interface SegmentRef {
  segment_id: string;
  /** sha256 of the segment's segment.json (hex): the segment is the one the version was built with */
  sha256: string;
}

/** a version's segments, by segmentDay(kind, date) */
export type SegmentRefs = Record<string, SegmentRef>;

/** where a key of a segment kind lives: its kind, day and name in the segment; null for any other key */
export function segmentOfKey(key: string): { kind: SegmentKind; date: string; name: string } | null {
  for (const kind of SEGMENT_KINDS) {
    const m = KINDS[kind].exec(key);
    if (m) return { kind, date: m[2]!, name: m[1]! };
  }
  return null;
}

/** the key of `name` in the segment of `kind` and `date` */
export function keyInSegment(kind: SegmentKind, date: string, name: string): string {
  const key = kind === 'flights' ? `v1/flights/${name}/${date}` : `v1/airports/${name}/movements/${date}`;
  if (!KINDS[kind].test(key)) throw new Error(`${JSON.stringify(name)} is no ${kind} name for ${date}`);
  return key;
}

/** the manifest's name of a kind's day, and the path of its link inside a version: `<kind>/<date>` */
export function segmentDay(kind: SegmentKind, date: string): string {
  if (!DATE.test(date)) throw new Error(`segment day ${JSON.stringify(date)} is not YYYY-MM-DD`);
  return `${kind}/${date}`;
}

/** the link of a kind's day inside a version folder */
export const segmentLinkOf = (kind: SegmentKind, date: string) => `${SEGMENTS}/${segmentDay(kind, date)}`;

/** a segment's folder under the tree's root */
export function segmentDirOf(kind: SegmentKind, date: string, id: string): string {
  assertSegmentId(id);
  return `${SEGMENTS}/${segmentDay(kind, date)}/${id}`;
}

/** what a version's link points at, relative to the link: versions/<id>/segments/<kind>/<date> is four folders below the root */
export const segmentLinkTarget = (kind: SegmentKind, date: string, id: string) => `../../../../${segmentDirOf(kind, date, id)}`;

function assertSegmentId(id: string): void {
  if (!SEGMENT_ID.test(id) || id.includes('.partial-')) throw new Error(`segment id ${JSON.stringify(id)} is not a build id`);
}

export const isSegmentName = (name: string) => NAME.test(name);

/**
 * The file of `key` inside a version folder: through the version's segment link when `segments`
 * (its manifest's) names the key's day, else `<key>.gz` as every other object.
 */
export function storedFileOf(key: string, segments: SegmentRefs | undefined): string {
  const s = segments && segmentOfKey(key);
  if (s && segments[segmentDay(s.kind, s.date)]) return `${segmentLinkOf(s.kind, s.date)}/${s.name}.gz`;
  return fileOf(key);
}
