// where an object lives in the bucket: never at its URL path, which a new build would have to
// overwrite while readers still follow the old manifest (issue 47: an upload stopped at 18 % left
// 1,694 objects of build B under build A's manifest), but under a key made of its URL path and its
// content: <prefix>/o/<url path>/<sha256>-<bytes>. a key is only ever written with the bytes its
// name promises, so an upload writes nothing a reader of the current manifest can see, and the
// bucket's manifest (written last) switches every URL at once. the manifest names these keys; a
// reader (the CDN's resolver, a researcher's script) maps a URL to its key through it
// (deploy/README.md). sha256: of the JSON for a tree object (the version manifest's), of the file for
// a researchers' file; bytes: as stored (the gzip length), so a gzip made another way is another key.
import type { ObjectTable } from '../../artifacts/object-table.ts';

/** the folder of the stored objects, under the prefix */
const OBJECTS_FOLDER = 'o';

/** how a stored key is spelled, for the bucket manifest's header (readers' documentation) */
export const STORED_AS = `${OBJECTS_FOLDER}/<url path>/<sha256>-<bytes>`;

const withPrefix = (prefix: string, key: string) => (prefix ? `${prefix}/${key}` : key);

/** The stored key of the object at URL path `path` (no leading slash, no prefix) with this content. */
export function storedKey(prefix: string, path: string, sha256: string, bytes: number): string {
  return withPrefix(prefix, `${OBJECTS_FOLDER}/${path}/${sha256}-${bytes}`);
}

/** The stored key of entry `i` of a table keyed by URL path. */
export const storedKeyAt = (prefix: string, t: ObjectTable, i: number) => storedKey(prefix, t.keyAt(i), t.shaAt(i), t.gzipAt(i));

/** where the stored objects of `prefix` are (a listing's prefix) */
export const objectsPrefix = (prefix: string) => withPrefix(prefix, `${OBJECTS_FOLDER}/`);

const LEAF = /\/([0-9a-f]{64})-(\d+)$/;

/** The URL path, sha256 and bytes of a stored key of `prefix`; null when it is not one. */
export function parseStoredKey(prefix: string, key: string): { path: string; sha256: string; bytes: number } | null {
  const head = objectsPrefix(prefix);
  const m = LEAF.exec(key);
  if (!key.startsWith(head) || !m || key.length - m[0].length <= head.length) return null;
  return { path: key.slice(head.length, key.length - m[0].length), sha256: m[1]!, bytes: Number(m[2]) };
}
