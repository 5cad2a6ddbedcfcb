// large files (the researchers' bundles) go up in parts: S3 takes one PUT of at most 5 GB, and a
// part that fails is retried alone instead of the whole file. parts are read from disk one at a time
// per request slot, so memory stays at (in flight) x (part size).
import { createHash } from 'node:crypto';
import { open } from 'node:fs/promises';
import type { ObjectHeaders } from './headers.ts';
import type { ObjectStore } from './object-store.ts';

/** S3's limits: at most 10,000 parts, each but the last at least 5 MiB */
export const MAX_PARTS = 10_000;
export const MIN_PART_BYTES = 5 * 1024 * 1024;

export interface Part {
  /** 1-based, as S3 numbers them */
  number: number;
  offset: number;
  length: number;
}

/** The parts of a file of `bytes`: `partBytes` each (the last one shorter), grown when 10,000 would not hold the file. */
export function partsOf(bytes: number, partBytes: number): Part[] {
  const size = Math.max(partBytes, Math.ceil(bytes / MAX_PARTS));
  const parts: Part[] = [];
  for (let offset = 0, number = 1; offset < bytes || number === 1; offset += size, number++)
    parts.push({ number, offset, length: Math.min(size, bytes - offset) });
  return parts;
}

/** The ETag S3 gives a multipart object: the md5 of the parts' md5s, then `-<parts>`. */
export function multipartEtag(partMd5s: readonly Buffer[]): string {
  return `${createHash('md5').update(Buffer.concat(partMd5s)).digest('hex')}-${partMd5s.length}`;
}

async function readPart(file: string, p: Part): Promise<Buffer> {
  const fh = await open(file, 'r');
  try {
    const buf = Buffer.alloc(p.length);
    const { bytesRead } = await fh.read(buf, 0, p.length, p.offset);
    if (bytesRead !== p.length) throw new Error(`${file} is shorter than the manifest says (changed during the upload?)`);
    return buf;
  } finally {
    await fh.close();
  }
}

/**
 * The ETags a store may give this file: S3's multipart form for these parts, and the md5 of the
 * whole content (what s3rver and some other stores give a completed multipart object).
 */
export async function fileEtags(file: string, parts: readonly Part[]): Promise<string[]> {
  const whole = createHash('md5');
  const partMd5s: Buffer[] = [];
  for (const p of parts) {
    const b = await readPart(file, p);
    whole.update(b);
    partMd5s.push(createHash('md5').update(b).digest());
  }
  return [multipartEtag(partMd5s), whole.digest('hex')];
}

/** one request of the upload: through the in-flight limit and the retries */
export type Send = <T>(what: string, fn: () => Promise<T>) => Promise<T>;

/** Put a file in parts (each read, sent and retried on its own); aborts the upload on failure so no parts linger. */
export async function putMultipart(
  store: ObjectStore,
  send: Send,
  key: string,
  file: string,
  parts: readonly Part[],
  headers: ObjectHeaders,
  sha256: string,
): Promise<void> {
  const id = await send(`create multipart ${key}`, () => store.createMultipart(key, headers, sha256));
  try {
    const etags = await Promise.all(
      parts.map((p) => send(`put ${key} part ${p.number}/${parts.length}`, async () => store.putPart(key, id, p.number, await readPart(file, p)))),
    );
    await send(`complete multipart ${key}`, () => store.completeMultipart(key, id, etags));
  } catch (e) {
    await store.abortMultipart(key, id).catch(() => {}); // best effort: a bucket lifecycle rule cleans up what is left
    throw e;
  }
}
