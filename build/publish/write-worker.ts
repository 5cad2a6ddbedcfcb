// a write worker (write-pool.ts starts them): gzips each document of a batch and writes its file.
// the main thread has made the folders and decided which files replace a hard link.
import { createHash } from 'node:crypto';
import { parentPort } from 'node:worker_threads';
import { writeGzipped } from './gzip-file.ts';

export interface WriteBatch {
  id: number;
  files: string[];
  /** the JSON text of each document */
  docs: (string | Uint8Array)[];
  /** 1 where the file is a hard link into the previous version (write aside, then rename) */
  replace: Uint8Array;
  /** 1 where this worker hashes the document (the main thread had nothing to compare it with) */
  hash: Uint8Array;
}

export type WriteReply =
  /** sha256 and bytes are set where the batch asked for the hash, '' and 0 elsewhere */
  | { id: number; ok: true; gzipBytes: Int32Array; sha256: string[]; bytes: Int32Array }
  | { id: number; ok: false; index: number; message: string };

parentPort!.on('message', (b: WriteBatch) => {
  const gzipBytes = new Int32Array(b.files.length);
  const bytes = new Int32Array(b.files.length);
  const sha256: string[] = new Array<string>(b.files.length).fill('');
  for (let i = 0; i < b.files.length; i++) {
    try {
      const doc = b.docs[i]!;
      // one UTF-8 copy for the hash and the gzip
      const buf = typeof doc === 'string' ? Buffer.from(doc) : doc;
      if (b.hash[i] === 1) {
        sha256[i] = createHash('sha256').update(buf).digest('hex');
        bytes[i] = buf.length;
      }
      gzipBytes[i] = writeGzipped(b.files[i]!, buf, b.replace[i] === 1);
    } catch (e) {
      parentPort!.postMessage({ id: b.id, ok: false, index: i, message: (e as Error).message } satisfies WriteReply);
      return;
    }
  }
  parentPort!.postMessage({ id: b.id, ok: true, gzipBytes, sha256, bytes } satisfies WriteReply, [gzipBytes.buffer, bytes.buffer]);
});
