// per-object HTTP headers in object storage: the same Content-Type, Content-Encoding and
// Cache-Control the live server sends for that URL (spec 8, schemas/policy.ts), so a CDN in
// front of the bucket honours them as they are. the researchers' files keep the live server's
// type and an hour's cache (artifacts/bundles.ts DATA_CACHE): their URLs are stable.
import { policyFor } from '../../schemas/policy.ts';
import { kindOfKey } from '../../schemas/artifact-kinds.ts';

import { DATA_CACHE, PARQUET_TYPE, TEXT_TYPE } from '../../artifacts/bundles.ts';
/** the remote manifest and the server's meta/* inputs: always revalidated */
const REVALIDATE = 'no-cache';
const JSON_TYPE = 'application/json; charset=utf-8';

export interface ObjectHeaders {
  contentType: string;
  contentEncoding?: 'gzip';
  cacheControl: string;
  contentDisposition?: string;
}

/** The bucket of a tree key (schemas/artifact-kinds.ts), or null for the server-only meta/* objects. Throws on a key of no kind. */
export function bucketOfKey(key: string): string | null {
  const k = kindOfKey(key);
  if (!k) throw new Error(`no artifact kind has a key like ${key}: add a row to schemas/artifact-kinds.ts`);
  return k.kind.bucket;
}

/** Headers of one artifact-tree object (stored gzipped). */
export function treeHeaders(key: string): ObjectHeaders {
  const bucket = bucketOfKey(key);
  return { contentType: JSON_TYPE, contentEncoding: 'gzip', cacheControl: bucket ? policyFor(bucket).cache : REVALIDATE };
}

/** Headers of a researchers' file (a Parquet file or a text), stored as it is: range reads need the bytes unencoded. */
export function bundleHeaders(key: string): ObjectHeaders {
  return { contentType: key.endsWith('.parquet') ? PARQUET_TYPE : TEXT_TYPE, cacheControl: DATA_CACHE };
}

/** Headers of the bundles index (/v1/bundles), stored gzipped. */
export function indexHeaders(): ObjectHeaders {
  return { contentType: JSON_TYPE, contentEncoding: 'gzip', cacheControl: policyFor('docs').cache };
}

export function manifestHeaders(): ObjectHeaders {
  return { contentType: JSON_TYPE, cacheControl: REVALIDATE };
}

/**
 * true when the store serves an object with the headers and the sha256 metadata it was put with: a
 * store killed mid-write can list an object whose bytes are whole but whose headers were never
 * written (s3rver keeps them in a file of their own: served without Content-Encoding, the gzip
 * bytes reach a client as they are; docs/perf-log/s3-test-server.md)
 */
export function servedAsPut(
  served: { contentType?: string; contentEncoding?: string; cacheControl?: string; contentDisposition?: string; sha256?: string },
  h: ObjectHeaders,
  sha256: string,
): boolean {
  return (
    served.sha256 === sha256 &&
    served.contentType === h.contentType &&
    served.contentEncoding === h.contentEncoding &&
    served.cacheControl === h.cacheControl &&
    served.contentDisposition === h.contentDisposition
  );
}
