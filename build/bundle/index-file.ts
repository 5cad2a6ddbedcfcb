// the bundles' index.json on disk (/v1/bundles) and the files it lists: what the upload reads. apart
// from bundle.ts, which writes them, so that the upload command does not load DuckDB (~1.4 s of
// start-up; docs/perf-log/s3-test-server.md).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { assertValid } from '../../schemas/index.ts';
import { INDEX_FILE, urlOf, type DayTableName, type DocName, type TableName } from '../../artifacts/bundles.ts';

export interface FileEntry {
  /** URL path, e.g. /v1/bundles/log/day=2026-11-21/legs.parquet */
  path: string;
  bytes: number;
  sha256: string;
  /** when these bytes were first published (ISO 8601 UTC); unchanged files keep it */
  updated_at: string;
}
export interface LogEntry extends FileEntry {
  day: string;
  rows: number;
}
export interface TableEntry extends FileEntry {
  name: TableName;
  rows: number;
  /** the artifact build the table was made from */
  build_id: string;
}
/** one day of a day table (flights, points) */
export interface DayTableEntry extends FileEntry {
  name: DayTableName;
  day: string;
  rows: number;
  build_id: string;
}
export interface DocEntry extends FileEntry {
  name: DocName;
}

export interface BundlesIndex {
  generated_at: string;
  license: 'ODbL-1.0';
  credits_url: string;
  /** newest log day, null when the log is empty */
  archive_through: string | null;
  /** the artifact build the tables come from, null when none is published */
  build_id: string | null;
  /** first and last day the tables cover (the build's window), null without tables */
  tables_from: string | null;
  tables_to: string | null;
  log: LogEntry[];
  tables: TableEntry[];
  /** the flights table, one file per day of the tables' window, oldest first */
  flights: DayTableEntry[];
  /** the flights' tracks, the same days */
  points: DayTableEntry[];
  docs: DocEntry[];
}

/** Reads <out>/index.json, or null when absent, unreadable or of an older layout (every file is hashed again then). */
export function readIndex(out: string): BundlesIndex | null {
  try {
    const doc = JSON.parse(readFileSync(join(out, INDEX_FILE), 'utf8')) as BundlesIndex;
    assertValid('bundles-index', doc, INDEX_FILE);
    return doc;
  } catch {
    return null;
  }
}

/** Every file the index lists, docs last (what an upload sends, in order). */
export const indexFiles = (i: BundlesIndex): FileEntry[] => [...i.log, ...i.tables, ...i.flights, ...i.points, ...i.docs];

/** The file on disk of an index entry. */
export const localFile = (out: string, e: Pick<FileEntry, 'path'>): string => join(out, e.path.slice(urlOf('').length));
