// where researchers' bundles live, shared by the build that writes them (build/bundle) and the
// server that lists and serves them (server/handlers/bundles.ts); no dependencies, so the live
// server never loads the build's engine (DuckDB) to serve a file.

export const INDEX_FILE = 'index.json';
/** the URL the index answers; bundle files live below it */
export const BUNDLES_URL = '/v1/bundles';
export const KINDS = ['daily', 'rolling'] as const;
export type BundleKind = (typeof KINDS)[number];
/** a bundle's file name carries the first 12 hex digits of its own sha256 */
export const BUNDLE_FILE = /^contrail-[0-9_-]+-[0-9a-f]{12}\.tar\.gz$/;
/** content-addressed files never change: cache them for a year */
export const IMMUTABLE = 'public, max-age=31536000, immutable';
