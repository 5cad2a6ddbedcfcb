// what one upload does, decided from the local objects and the last uploaded manifest (pure), both
// keyed by stored key (stored-keys.ts: a URL path and its content):
// put what is new or whose sha256 or stored size changed, keep what is the same, and retire what
// left the tree: a retired object stays in the bucket for the grace period (readers holding the
// previous manifest or a CDN copy can still fetch it), then is deleted. both sides are tables
// (artifacts/object-table.ts) of remote keys, prefix included, with their bytes as stored.
import type { ObjectTable } from '../../artifacts/object-table.ts';
import type { Retired } from './remote-manifest.ts';

export interface Plan {
  /** the local entries to send, in the local table's order */
  put: number[];
  unchanged: number;
  /** keys to delete now: retired longer than the grace period */
  delete: string[];
  retired: Retired;
}

export function planUpload(local: ObjectTable, remote: { objects: ObjectTable; retired: Retired } | null, nowMs: number, graceMs: number): Plan {
  const put: number[] = [];
  let unchanged = 0;
  for (let i = 0; i < local.size; i++) {
    const r = remote ? remote.objects.indexOfKeyOf(local, i) : -1;
    if (r >= 0 && remote!.objects.sameObject(r, local, i)) unchanged++;
    else put.push(i);
  }
  const retired: Retired = {};
  const del: string[] = [];
  const now = new Date(nowMs).toISOString();
  const gone = (key: string, since: string, sha256: string) => {
    if (local.has(key)) return; // back in the tree: no longer retired
    if (nowMs - Date.parse(since) >= graceMs) del.push(key);
    else retired[key] = { since, sha256 };
  };
  for (const [key, r] of Object.entries(remote?.retired ?? {})) gone(key, r.since, r.sha256);
  const retiredBefore = new Set(del);
  for (const key in retired) retiredBefore.add(key);
  if (remote) {
    for (let j = 0; j < remote.objects.size; j++) {
      if (local.indexOfKeyOf(remote.objects, j) >= 0) continue;
      const key = remote.objects.keyAt(j);
      if (!retiredBefore.has(key)) gone(key, now, remote.objects.shaAt(j));
    }
  }
  return { put, unchanged, delete: del.sort(), retired };
}

/**
 * Retire (from `nowMs`, into plan.retired) the stored objects a listing found that neither this
 * upload nor the bucket's manifest names and the plan does not delete: what an upload cut short left
 * (the objects of a build that was never uploaded whole, or deletes after its manifest that did not
 * happen). Only keys the listing gives are touched: its caller lists the stored objects' folder.
 * Returns how many were retired.
 */
export function adoptOrphans(
  plan: Plan,
  listed: Iterable<string>,
  local: ObjectTable,
  remote: { objects: ObjectTable; retired: Retired } | null,
  nowMs: number,
): number {
  const deleting = new Set(plan.delete);
  const since = new Date(nowMs).toISOString();
  let n = 0;
  for (const key of listed) {
    if (local.has(key) || remote?.objects.has(key) || key in plan.retired || deleting.has(key)) continue;
    const sha256 = /\/([0-9a-f]{64})-\d+$/.exec(key)?.[1] ?? '';
    plan.retired[key] = { since, sha256 };
    n++;
  }
  return n;
}
