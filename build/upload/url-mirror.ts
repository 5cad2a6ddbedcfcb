// the url mirror (--url-mirror, on by default): after the manifest switch, each changed object is
// also placed at its plain URL key <prefix>/<url path> by a server-side copy of its stored key
// (CopyObject: no bytes sent, its Content-Encoding, Content-Type and Cache-Control come with it), for
// origins that cannot resolve a URL through the manifest: a plain CDN whose origin is the bucket, a
// researcher's s3:// glob. each mirror object is one whole document of some build (a copy is one
// atomic write on S3), but the mirror mixes two builds while its copies run: the stored keys the manifest
// names are the consistent view (deploy/README.md). a URL path that left the tree keeps its mirror
// key until its last retired stored key is deleted, after the grace period. what the mirror should
// get is decided here (pure); upload.ts sends it.
import { kindOfKey } from '../../schemas/artifact-kinds.ts';
import { BUNDLES_URL } from '../../artifacts/bundles.ts';
import type { Listed } from './object-store.ts';
import type { Plan } from './plan.ts';
import type { Retired } from './remote-manifest.ts';
import { parseStoredKey } from './stored-keys.ts';

const withPrefix = (prefix: string, key: string) => (prefix ? `${prefix}/${key}` : key);

/** The mirror key of URL path `path` (no leading slash). */
const mirrorKey = withPrefix;

/** The URL path a key of the bucket stands for: a stored key's, or the path of a key at a URL path (the mirror; the layout before stored keys); null for neither. */
function pathOfKey(prefix: string, key: string): string | null {
  const stored = parseStoredKey(prefix, key);
  if (stored) return stored.path;
  const head = prefix ? `${prefix}/` : '';
  return key.startsWith(head) && isTreePath(key.slice(head.length)) ? key.slice(head.length) : null;
}

/** a URL path an upload writes: a tree key of some artifact kind, the bundles index or a bundle file; never the manifest, the marker or a stored key */
const isTreePath = (path: string) => kindOfKey(path) !== null || path === BUNDLES_URL.slice(1) || path.startsWith(`${BUNDLES_URL.slice(1)}/`);

/** the local objects, by entry: the URL path, the stored key and the stored length */
export interface MirrorLocal {
  size: number;
  pathAt(i: number): string;
  storedKeyAt(i: number): string;
  gzipAt(i: number): number;
  hasPath(path: string): boolean;
}

/** The listing prefixes that hold the mirror: one per top folder of the local URL paths (v1/, meta/), never the bucket's root. */
export function mirrorFolders(prefix: string, local: MirrorLocal): string[] {
  const tops = new Set<string>();
  for (let i = 0; i < local.size; i++) {
    const p = local.pathAt(i);
    const slash = p.indexOf('/');
    tops.add(slash >= 0 ? p.slice(0, slash + 1) : p);
  }
  return [...tops].sort().map((t) => withPrefix(prefix, t));
}

/**
 * With the mirror on, a key of the layout before stored keys at a URL path the tree still has is
 * that path's mirror key now: it is dropped from the plan's retired and deleted keys (the manifest
 * must not promise to delete it). Returns how many were dropped.
 */
export function keepMirrorKeys(plan: Plan, prefix: string, local: Pick<MirrorLocal, 'hasPath'>): number {
  const isMirrorOfLocal = (key: string) => !parseStoredKey(prefix, key) && local.hasPath(pathOfKey(prefix, key) ?? '\0');
  let n = 0;
  for (const key of Object.keys(plan.retired)) if (isMirrorOfLocal(key)) delete plan.retired[key], n++;
  const before = plan.delete.length;
  plan.delete = plan.delete.filter((key) => !isMirrorOfLocal(key));
  return n + before - plan.delete.length;
}

export interface MirrorRepair {
  /** the stored objects' listing (objectsPrefix) */
  stored: ReadonlyMap<string, Listed>;
  /** the listing of mirrorFolders */
  mirrored: ReadonlyMap<string, Listed>;
  /** a mirror object modified at or after this (the marker of an interrupted run, ms) is copied again; Infinity for none */
  since: number;
}

export interface MirrorPlan {
  /** local entries to copy to their mirror key, in the local order */
  copy: number[];
  /** mirror keys to delete, after the plan's deletes are decided */
  delete: string[];
}

/**
 * What the mirror gets from an upload: every entry the plan puts (new or changed content) is copied;
 * with `repair` (a resumed run, or a bucket whose manifest did not keep a mirror) also every entry
 * whose mirror object is missing, of another length, of another ETag than its stored key, or written
 * since an interrupted run began (a store killed mid-copy can leave it torn: s3rver writes a file and
 * its metadata apart, docs/perf-log/s3-test-server.md). Deleted: the mirror key of a URL path that
 * left the tree once no retired stored key of that path is left (the grace period of its last
 * version is over), and with `repair` any listed mirror key of such a path.
 */
export function planMirror(prefix: string, local: MirrorLocal, plan: Plan, repair: MirrorRepair | null): MirrorPlan {
  const copy = new Set(plan.put);
  if (repair) {
    for (let i = 0; i < local.size; i++) {
      if (copy.has(i)) continue;
      const m = repair.mirrored.get(mirrorKey(prefix, local.pathAt(i)));
      const s = repair.stored.get(local.storedKeyAt(i));
      if (!m || !s || m.bytes !== local.gzipAt(i) || m.etag !== s.etag || m.modifiedMs >= repair.since) copy.add(i);
    }
  }
  const retiredPaths = pathsOf(prefix, plan.retired);
  const deleting = new Set(plan.delete);
  const del = new Set<string>();
  const gone = (path: string | null) => path !== null && !local.hasPath(path) && !retiredPaths.has(path);
  for (const key of plan.delete) {
    const path = pathOfKey(prefix, key);
    if (gone(path) && !deleting.has(mirrorKey(prefix, path!))) del.add(mirrorKey(prefix, path!));
  }
  if (repair) for (const key of repair.mirrored.keys()) if (!deleting.has(key) && gone(pathOfKey(prefix, key))) del.add(key);
  return { copy: [...copy].sort((a, b) => a - b), delete: [...del].sort() };
}

function pathsOf(prefix: string, retired: Retired): Set<string> {
  const out = new Set<string>();
  for (const key in retired) {
    const p = pathOfKey(prefix, key);
    if (p !== null) out.add(p);
  }
  return out;
}

/**
 * With the mirror off on a bucket whose manifest kept one: the mirror keys of every URL path that
 * manifest names or retires, deleted after the new manifest (left, they would serve its build for ever).
 */
export function dropMirror(
  prefix: string,
  remote: { objects: { size: number; keyAt(i: number): string }; retired: Retired },
  deleting: readonly string[],
): string[] {
  const out = new Set<string>();
  const add = (key: string) => {
    const p = pathOfKey(prefix, key);
    if (p !== null) out.add(mirrorKey(prefix, p));
  };
  for (let i = 0; i < remote.objects.size; i++) add(remote.objects.keyAt(i));
  for (const key in remote.retired) add(key);
  for (const key of deleting) out.delete(key);
  return [...out].sort();
}
