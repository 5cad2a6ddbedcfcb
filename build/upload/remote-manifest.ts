// the manifest an upload keeps in the bucket, <prefix>/manifest.json: the build's header, when it
// was uploaded, every object in the bucket (its key, prefix included, the sha256 the version's
// manifest gives it and its bytes as stored) and the objects retired from the tree, each with
// when it left. its text is what JSON.stringify spells:
//   {<the build's header>,"uploaded_at":..,"objects":{"<key>":{"sha256":..,"bytes":..},..},"retired":{..}}
// read and written with the version manifest's scanner and writer (artifacts/manifest-file.ts),
// so the year's 2 M objects are never 2 M JavaScript objects: with JSON.parse, Records and
// JSON.stringify, a no-change upload of the year's tree took 66-75 s and 5 GB (docs/perf-log/upload.md, at the year's scale).
import { ObjectTable } from '../../artifacts/object-table.ts';
import { isAt, objectChunks, objectsAt, scanObjects } from '../../artifacts/manifest-file.ts';
import type { ManifestHeader } from '../../artifacts/manifest.ts';

export type Retired = Record<string, { since: string; sha256: string }>;

/** the header: the build's manifest header, when this upload finished (ISO 8601 UTC), how objects are stored, and whether the bucket keeps a url mirror (url-mirror.ts) */
export type RemoteHeader = ManifestHeader & { uploaded_at: string; stored_as?: string; url_mirror?: boolean };

export interface RemoteManifest {
  header: RemoteHeader;
  /** remote key (prefix included) -> sha256 and bytes as stored (in both of the table's lengths) */
  objects: ObjectTable;
  /** remote key -> when it first went missing from the tree; deleted after the grace period */
  retired: Retired;
}

const RETIRED = Buffer.from(',"retired":');

/** The text of a remote manifest, as JSON.stringify({ ...header, objects, retired }) spells it. */
export function remoteManifestBytes(header: RemoteHeader, objects: ObjectTable, retired: Retired): Buffer {
  const head = JSON.stringify({ ...header, objects: {} }).slice(0, -2);
  // each megabyte of text made bytes as it comes, so the strings of the whole text are never held at once
  const entries = Array.from(objectChunks(objects, 'stored'), (s) => Buffer.from(s));
  return Buffer.concat([Buffer.from(head), ...entries, Buffer.from(`},"retired":${JSON.stringify(retired)}}`)]);
}

/** Parses a remote manifest; null when absent, an error naming the fix when it is not one. */
export function parseRemoteManifest(bytes: Buffer | null, key: string): RemoteManifest | null {
  if (!bytes) return null;
  const fix = (what: string) => new Error(`${key} in the bucket ${what}: delete it to upload everything again`);
  // the writer's own layout: the objects scanned, the header and the retired objects (few) parsed
  const at = objectsAt(bytes);
  let scan: ReturnType<typeof scanObjects> = null;
  try {
    scan = at < 0 ? null : scanObjects(bytes, at, 'stored');
  } catch (e) {
    throw fix(`has an entry that is not one (${(e as Error).message})`); // a key named twice
  }
  const tail = scan && isAt(bytes, scan.end, RETIRED) ? scan.end + RETIRED.length : -1;
  let doc: Record<string, unknown>;
  try {
    doc = JSON.parse(tail >= 0 ? `${bytes.toString('utf8', 0, at)}"objects":{},"retired":${bytes.toString('utf8', tail)}` : bytes.toString('utf8')) as Record<
      string,
      unknown
    >;
  } catch {
    throw fix('is not JSON');
  }
  const { objects, retired, ...header } = doc ?? {};
  const isMap = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
  if (!isMap(objects) || !isMap(retired)) throw fix('has no objects/retired maps');
  for (const [k, r] of Object.entries(retired as Retired)) {
    if (typeof r?.sha256 !== 'string' || typeof r.since !== 'string' || Number.isNaN(Date.parse(r.since)))
      throw fix(`has a retired entry ${k} without a sha256 and the time it left (since)`);
  }
  if (tail >= 0) return { header: header as RemoteHeader, objects: scan!.objects, retired: retired as Retired };
  const table = new ObjectTable();
  try {
    for (const [k, e] of Object.entries(objects as Record<string, { sha256: string; bytes: number }>)) {
      if (!Number.isSafeInteger(e?.bytes) || e.bytes < 0) throw new Error(`${k}: bytes must be a whole number of 0 or more`);
      table.add(k, e.sha256, e.bytes, e.bytes);
    }
  } catch (e) {
    throw fix(`has an entry that is not one (${(e as Error).message})`);
  }
  return { header: header as RemoteHeader, objects: table, retired: retired as Retired };
}
