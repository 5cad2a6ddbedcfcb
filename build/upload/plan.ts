// what one upload does, decided from the local objects and the last uploaded manifest (pure):
// put what is new or whose sha256 changed, keep what is the same, and retire what left the tree:
// a retired object stays in the bucket for the grace period (readers holding the previous
// manifest or a CDN copy can still fetch it), then is deleted.

interface RemoteEntry {
  sha256: string;
  bytes: number;
}

/** <prefix>/manifest.json: uploaded last, so it only ever names objects that are all in place */
export interface RemoteManifest {
  build_id: string;
  built_at: string;
  archive_through: string | null;
  window_days: number;
  counts: Record<string, number>;
  /** ISO 8601 UTC, when this upload finished */
  uploaded_at: string;
  /** remote key (prefix included) -> content hash */
  objects: Record<string, RemoteEntry>;
  /** remote key -> when it first went missing from the tree (ISO 8601 UTC); deleted after the grace period */
  retired: Record<string, { since: string; sha256: string }>;
}

export interface LocalObject {
  /** remote key, prefix included */
  key: string;
  sha256: string;
  bytes: number;
}

export interface Plan<T extends LocalObject> {
  put: T[];
  unchanged: number;
  /** keys to delete now: retired longer than the grace period */
  delete: string[];
  objects: RemoteManifest['objects'];
  retired: RemoteManifest['retired'];
}

export function planUpload<T extends LocalObject>(local: readonly T[], remote: Pick<RemoteManifest, 'objects' | 'retired'> | null, nowMs: number, graceMs: number): Plan<T> {
  const objects: RemoteManifest['objects'] = {};
  const put: T[] = [];
  let unchanged = 0;
  for (const o of local) {
    if (objects[o.key]) throw new Error(`object ${o.key} listed twice in one upload`);
    objects[o.key] = { sha256: o.sha256, bytes: o.bytes };
    if (remote?.objects[o.key]?.sha256 === o.sha256) unchanged++;
    else put.push(o);
  }
  const retired: RemoteManifest['retired'] = {};
  const del: string[] = [];
  const now = new Date(nowMs).toISOString();
  const gone = (key: string, since: string, sha256: string) => {
    if (objects[key]) return; // back in the tree: no longer retired
    if (nowMs - Date.parse(since) >= graceMs) del.push(key);
    else retired[key] = { since, sha256 };
  };
  for (const [key, r] of Object.entries(remote?.retired ?? {})) gone(key, r.since, r.sha256);
  for (const [key, r] of Object.entries(remote?.objects ?? {})) if (!retired[key] && !del.includes(key)) gone(key, now, r.sha256);
  return { put, unchanged, delete: del.sort(), objects, retired };
}

/** Parses a remote manifest; null when absent, an error naming the fix when malformed. */
export function parseRemoteManifest(bytes: Buffer | null, key: string): RemoteManifest | null {
  if (!bytes) return null;
  let doc: RemoteManifest;
  try {
    doc = JSON.parse(bytes.toString('utf8')) as RemoteManifest;
  } catch {
    throw new Error(`${key} in the bucket is not JSON: delete it to upload everything again`);
  }
  if (typeof doc?.objects !== 'object' || doc.objects === null || typeof doc.retired !== 'object' || doc.retired === null) {
    throw new Error(`${key} in the bucket has no objects/retired maps: delete it to upload everything again`);
  }
  return doc;
}
