// what an ArtifactWriter (writer.ts) is given and what it reports: its options, the stats of its
// objects and of the hard-link copy (or take-over) it started from.
import type { Recycled, RecycleReply } from './recycle.ts';
import type { hardLinkCopy } from './hard-link-copy.ts';
import type { ValidateMode } from './validate-sample.ts';

export interface WriterOptions {
  /** threads that gzip and write the files (write-pool.ts); 0: this thread, inside put itself */
  workers?: number;
  /** which documents are checked against their schema (validate-sample.ts); default all */
  validate?: ValidateMode;
  /** seeds the validation sample */
  seed?: number;
  /**
   * make the hard-link copy of the previous version in child processes while the caller goes on:
   * objects stored meanwhile are written at once where cp can skip them (copyKeepsWritten), else
   * they wait in memory; flush waits for the copy (a caller must await flush before
   * writeManifest). default: copied before the constructor returns
   */
  linkInBackground?: boolean;
  /** write beside the background copy (default: where this system's cp can skip what is written, copyKeepsWritten); false: writes wait for it */
  writeBesideCopy?: boolean;
  /** the background copy itself (default hardLinkCopy; a test holds it back to see the writes go first) */
  copy?: typeof hardLinkCopy;
  /**
   * `dir` already holds an older published version, taken over from the prune (publish.ts): it is
   * checked and compared with the previous version (recycle.ts) instead of copied from it, the
   * writes wait for that, and they bring it up to date (its dirty names written over or linked)
   */
  recycled?: boolean;
  /** that folder's check, when the caller started it already (publish.ts stage: before it reads the current manifest) */
  recycling?: Promise<RecycleReply>;
  /** the tree's root (beside versions/ and segments/, publish.ts stage): where the version's segments are written; none: a writer without segments */
  root?: string;
}

/** the hard-link copy of the previous version: how long it took, and how long the build waited for it */
export interface LinkStats {
  ms: number;
  waitedMs: number;
  /** how an older version was taken over instead (WriterOptions.recycled), else null */
  recycled: Recycled | null;
  /** objects kept from the previous version that were hard-linked into the taken-over folder (its dirty ones) */
  relinked: number;
  /** writes to names without a file of the folder's own that took one a relink set aside (writer.ts spares) instead of a new file */
  spared: number;
}

export interface WriterStats {
  objects: number;
  /** objects whose bytes were written by this build */
  written: number;
  /** objects unchanged since the previous version (kept as hard links) */
  linked: number;
  /** objects of the previous version this build no longer has */
  removed: number;
  /** of the written, objects whose previous file was distrusted (verify.ts) and so written anew, not linked */
  repaired: number;
  bytes: number;
}
