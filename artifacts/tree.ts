// the published artifact tree on disk:
//   <root>/versions/<build_id>/manifest.json and <key>.gz objects  (immutable once published)
//   <root>/current -> versions/<build_id>                          (switched by one rename)
import { readFileSync, readlinkSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Manifest } from '../build/publish/manifest.ts';

export const CURRENT = 'current';
export const VERSIONS = 'versions';

export interface Version {
  id: string;
  dir: string;
  manifest: Manifest;
}

/** The published version, or null when nothing is published (or the tree is unreadable). */
export function currentVersion(root: string): Version | null {
  let target: string;
  try {
    target = readlinkSync(join(root, CURRENT));
  } catch {
    return null;
  }
  const dir = resolve(root, target);
  try {
    const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as Manifest;
    return { id: manifest.build_id, dir, manifest };
  } catch {
    return null;
  }
}
