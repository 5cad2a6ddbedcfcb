// the published artifact tree on disk:
//   <root>/versions/<build_id>/manifest.json and <key>.gz objects  (immutable once published)
//   <root>/versions/<build_id>/version.json: the manifest without its object list, for readers
//   that need only what the build covers (the server: a year's manifest is ~100 MB of hashes)
//   <root>/current -> versions/<build_id>                          (switched by one rename)
import { readFileSync, readlinkSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Manifest, ManifestHeader } from './manifest.ts';

export const CURRENT = 'current';
/** the whole manifest of a version (artifacts/manifest.ts), written last */
export const MANIFEST_FILE = 'manifest.json';
/** the manifest without its object list */
export const VERSION_FILE = 'version.json';
export const VERSIONS = 'versions';

export interface Version {
  id: string;
  dir: string;
  manifest: Manifest;
}

/** The directory `current` points at, or null when nothing is published. */
function currentDir(root: string): string | null {
  try {
    return resolve(root, readlinkSync(join(root, CURRENT)));
  } catch {
    return null;
  }
}

/** The published version, or null when nothing is published (or the tree is unreadable). */
export function currentVersion(root: string): Version | null {
  const dir = currentDir(root);
  if (!dir) return null;
  try {
    const manifest = JSON.parse(readFileSync(join(dir, MANIFEST_FILE), 'utf8')) as Manifest;
    return { id: manifest.build_id, dir, manifest };
  } catch {
    return null;
  }
}

export interface VersionHeader {
  id: string;
  dir: string;
  header: ManifestHeader;
}

/** The published version's header (version.json), or null when nothing is published. */
export function currentHeader(root: string): VersionHeader | null {
  const dir = currentDir(root);
  if (!dir) return null;
  try {
    const header = JSON.parse(readFileSync(join(dir, VERSION_FILE), 'utf8')) as ManifestHeader;
    return { id: header.build_id, dir, header };
  } catch {
    // a tree from before version.json: read the whole manifest once
    const v = currentVersion(root);
    if (!v) return null;
    const { objects: _objects, ...header } = v.manifest;
    return { id: v.id, dir: v.dir, header };
  }
}
