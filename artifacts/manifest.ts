// the manifest of one build: what it covers and a content hash per object, so an upload
// sends only what changed and a reader can verify what it got (schemas/manifest.schema.json).

export interface ObjectEntry {
  /** sha256 of the uncompressed JSON */
  sha256: string;
  /** uncompressed bytes */
  bytes: number;
  /** bytes of the stored gzip object */
  gzip_bytes: number;
}

/** the manifest without its object list (version.json) */
export type ManifestHeader = Omit<Manifest, 'objects'>;

export interface Manifest {
  build_id: string;
  /** ISO 8601 UTC */
  built_at: string;
  /** newest day in the flight log (ISO date), null when the log is empty */
  archive_through: string | null;
  /** days of history the log covers */
  window_days: number;
  /** counts per artifact kind and of the log */
  counts: Record<string, number>;
  /** the closed days served from shared segments, by <kind>/<date> (artifacts/segments.ts); absent without segments */
  segments?: Record<string, { segment_id: string; sha256: string }>;
  objects: Record<string, ObjectEntry>;
}
