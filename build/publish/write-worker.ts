// a write worker (write-pool.ts starts them): gzips each document of a batch, then writes the files
// (and makes the hard links a batch asks for).
// the main thread has made the folders and decided which files replace a hard link.
import { createHash } from 'node:crypto';
import { parentPort, workerData } from 'node:worker_threads';
import { withCreateLock, type CreateLock } from './create-lock.ts';
import { gzipDoc, relink, writeGz } from './gzip-file.ts';

export interface WriteBatch {
  id: number;
  files: string[];
  /** the JSON text of each document */
  docs: (string | Uint8Array)[];
  /** 1 where the file is a hard link into the previous version (unlinked, then created: gzip-file.ts writeGz) */
  replace: Uint8Array;
  /** 1 where this worker hashes the document (the main thread had nothing to compare it with) */
  hash: Uint8Array;
  /** 1 where the entry is no document: `docs` holds the path of a file to hard-link under the name (a recycled version's object, writer.ts) */
  link: Uint8Array;
  /** where the file under the name is moved first ('': none; gzip-file.ts writeGz) */
  aside: string[];
  /** a file of the folder to rename over the name and write in place ('': none; gzip-file.ts writeGz) */
  spare: string[];
}

export type WriteReply =
  /** sha256 and bytes are set where the batch asked for the hash, '' and 0 elsewhere */
  { id: number; ok: true; gzipBytes: Int32Array; sha256: string[]; bytes: Int32Array } | { id: number; ok: false; index: number; message: string };

const lock = (workerData as { createLock: CreateLock }).createLock;

parentPort!.on('message', (b: WriteBatch) => {
  const gzipBytes = new Int32Array(b.files.length);
  const bytes = new Int32Array(b.files.length);
  const sha256: string[] = new Array<string>(b.files.length).fill('');
  const fail = (index: number, e: unknown) => parentPort!.postMessage({ id: b.id, ok: false, index, message: (e as Error).message } satisfies WriteReply);
  // the whole batch is gzipped first, then its files are created holding the shared lock
  // (create-lock.ts): one worker compresses while the other creates files
  const gz: (Buffer | null)[] = [];
  for (let i = 0; i < b.files.length; i++) {
    if (b.link[i] === 1) {
      gz.push(null);
      continue;
    }
    try {
      const doc = b.docs[i]!;
      // one UTF-8 copy for the hash and the gzip
      const buf = typeof doc === 'string' ? Buffer.from(doc) : doc;
      if (b.hash[i] === 1) {
        sha256[i] = createHash('sha256').update(buf).digest('hex');
        bytes[i] = buf.length;
      }
      gz.push(gzipDoc(buf));
      gzipBytes[i] = gz[i]!.length;
    } catch (e) {
      return fail(i, e);
    }
  }
  const failed = withCreateLock(lock, () => {
    for (let i = 0; i < b.files.length; i++) {
      try {
        const g = gz[i]!;
        const aside = b.aside[i] || null;
        if (g) writeGz(b.files[i]!, g, { replace: b.replace[i] === 1, aside, spare: b.spare[i] || null });
        else relink(b.docs[i] as string, b.files[i]!, aside);
      } catch (e) {
        return { i, e };
      }
    }
    return null;
  });
  if (failed) return fail(failed.i, failed.e);
  parentPort!.postMessage({ id: b.id, ok: true, gzipBytes, sha256, bytes } satisfies WriteReply, [gzipBytes.buffer, bytes.buffer]);
});
