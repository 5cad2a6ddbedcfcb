// the published artifact tree on disk:
//   <root>/versions/<build_id>/manifest.json and <key>.gz objects  (immutable once published)
//   <root>/versions/<build_id>/version.json: the manifest without its object list, for readers
//   that need only what the build covers (the server: a year's manifest is ~270 MB of hashes)
//   <root>/current -> versions/<build_id>                          (switched by one rename)
import { readFileSync, readlinkSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { fileOf } from './keys.ts';
import type { Manifest, ManifestHeader } from './manifest.ts';
import type { ObjectTable } from './object-table.ts';
import { readManifestFile } from './manifest-file.ts';

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

/** only "not there" means "not published"; any other I/O error (EMFILE, EACCES, EIO) is thrown, so a
 * reader keeps what it has instead of unloading the history on a transient fault */
const absent = (e: unknown) => ['ENOENT', 'ENOTDIR'].includes((e as NodeJS.ErrnoException).code ?? '');

/** what `read` gives, or null when the file it reads is not there (any other fault is thrown) */
function unlessAbsent<T>(read: () => T): T | null {
  try {
    return read();
  } catch (e) {
    if (absent(e)) return null;
    throw e;
  }
}

/** The directory `current` points at, or null when nothing is published. */
const currentDir = (root: string): string | null => unlessAbsent(() => resolve(root, readlinkSync(join(root, CURRENT))));

/** JSON of a version file, or null when the file is not there; throws on any other fault or bad JSON */
function readJson<T>(dir: string, name: string): T | null {
  const text = unlessAbsent(() => readFileSync(join(dir, name), 'utf8'));
  return text === null ? null : (JSON.parse(text) as T);
}

/** One stored object of a version, parsed (objects are gzipped JSON), or null when it is absent. */
export function readObject(dir: string, key: string): unknown | null {
  const gz = unlessAbsent(() => readFileSync(join(dir, fileOf(key))));
  if (gz === null) return null;
  try {
    return JSON.parse(gunzipSync(gz).toString('utf8'));
  } catch (e) {
    throw new Error(`${key}: ${(e as Error).message}`);
  }
}

/** The published version, or null when nothing is published. Throws when the tree is there but unreadable. */
export function currentVersion(root: string): Version | null {
  const dir = currentDir(root);
  if (!dir) return null;
  const manifest = readJson<Manifest>(dir, MANIFEST_FILE);
  return manifest ? { id: manifest.build_id, dir, manifest } : null;
}

/** a version with its objects as a table (object-table.ts): what a build starts from */
export interface TableVersion {
  id: string;
  dir: string;
  header: ManifestHeader;
  objects: ObjectTable;
}

/** The published version with its objects as a table, or null when nothing is published. Throws when the tree is there but unreadable. */
export function currentTable(root: string): TableVersion | null {
  const dir = currentDir(root);
  const read = dir === null ? null : unlessAbsent(() => readManifestFile(join(dir, MANIFEST_FILE)));
  return read && { id: read.header.build_id, dir: dir!, header: read.header, objects: read.objects };
}

export interface VersionHeader {
  id: string;
  dir: string;
  header: ManifestHeader;
}

/** The published version's header (version.json), or null when nothing is published. Throws when unreadable. */
export function currentHeader(root: string): VersionHeader | null {
  const dir = currentDir(root);
  if (!dir) return null;
  const header = readJson<ManifestHeader>(dir, VERSION_FILE);
  if (header) return { id: header.build_id, dir, header };
  // a tree from before version.json: read the whole manifest once
  const v = currentVersion(root);
  if (!v) return null;
  const { objects: _objects, ...rest } = v.manifest;
  return { id: v.id, dir: v.dir, header: rest };
}
