// reading the feed file, with the words a failure is logged in. one function for both places that
// read it: the ingest thread (the server) and the source's own thread (tests and tools, no ingest thread).
import { readFileSync } from 'node:fs';

/** an error's errno code, else its message */
export const errnoOf = (e: unknown): string => (e as NodeJS.ErrnoException).code ?? (e as Error).message;

/** how a file over the byte cap is refused */
export const overLimit = (path: string, bytes: number, maxBytes: number) => `${path} is ${bytes} bytes, over the ${maxBytes} limit`;

/** The file's bytes, or why they could not be read (it may have gone, or grown past the cap, since its stat). */
export function readFeedFile(path: string, maxBytes: number): Buffer | string {
  try {
    const bytes = readFileSync(path);
    return bytes.length > maxBytes ? overLimit(path, bytes.length, maxBytes) : bytes;
  } catch (e) {
    return `cannot read ${path}: ${errnoOf(e)}`;
  }
}
