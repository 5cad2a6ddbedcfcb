// a write worker (write-pool.ts starts them): gzips each document of a batch and writes its file.
// the main thread has made the folders and decided which files replace a hard link.
import { parentPort } from 'node:worker_threads';
import { writeGzipped } from './gzip-file.ts';

export interface WriteBatch {
  id: number;
  files: string[];
  /** the JSON text of each document */
  docs: (string | Uint8Array)[];
  /** 1 where the file is a hard link into the previous version (write aside, then rename) */
  replace: Uint8Array;
}

export type WriteReply =
  | { id: number; ok: true; gzipBytes: Int32Array }
  | { id: number; ok: false; index: number; message: string };

parentPort!.on('message', (b: WriteBatch) => {
  const gzipBytes = new Int32Array(b.files.length);
  for (let i = 0; i < b.files.length; i++) {
    try {
      gzipBytes[i] = writeGzipped(b.files[i]!, b.docs[i]!, b.replace[i] === 1);
    } catch (e) {
      parentPort!.postMessage({ id: b.id, ok: false, index: i, message: (e as Error).message } satisfies WriteReply);
      return;
    }
  }
  parentPort!.postMessage({ id: b.id, ok: true, gzipBytes } satisfies WriteReply, [gzipBytes.buffer]);
});
