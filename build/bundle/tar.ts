// a streaming .tar.gz writer (POSIX ustar, with a pax header for paths longer than ustar holds).
// written here rather than taken from npm because a bundle must be byte-for-byte reproducible
// (fixed mtime, owner and mode, caller-given order): the same inputs give the same sha256, so an
// unchanged daily bundle keeps its content-addressed name and is never uploaded twice.
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream, renameSync, rmSync, statSync } from 'node:fs';
import { once } from 'node:events';
import { createGzip, type Gzip } from 'node:zlib';

const BLOCK = 512;
const MAX_SIZE = 8 ** 11 - 1; // 11 octal digits

export interface TarResult {
  /** sha256 of the .tar.gz file */
  sha256: string;
  bytes: number;
}

export class TarGzWriter {
  private readonly gzip: Gzip;
  private readonly hash = createHash('sha256');
  private bytes = 0;
  private readonly done: Promise<void>;
  private readonly tmp: string;

  /** @param mtimeS the modification time written for every entry (unix seconds), for reproducible bytes */
  constructor(
    readonly path: string,
    private readonly mtimeS: number,
  ) {
    this.tmp = `${path}.tmp-${process.pid}`;
    // mtime 0 in the gzip header (node's default): reproducible
    this.gzip = createGzip({ level: 9 });
    const out = createWriteStream(this.tmp);
    this.gzip.on('data', (c: Buffer) => {
      this.hash.update(c);
      this.bytes += c.length;
    });
    this.gzip.pipe(out);
    this.done = Promise.all([once(out, 'close'), once(this.gzip, 'end')]).then(() => undefined);
    this.gzip.on('error', (e) => out.destroy(e));
  }

  private async write(b: Buffer): Promise<void> {
    if (!this.gzip.write(b)) await once(this.gzip, 'drain');
  }

  /** Adds a regular file with these bytes. */
  async addBuffer(name: string, data: Buffer): Promise<void> {
    await this.header(name, data.length);
    await this.write(data);
    await this.pad(data.length);
  }

  /** Adds a regular file from disk, streamed; returns its sha256 (for SHA256SUMS). */
  async addFile(name: string, file: string): Promise<string> {
    const size = statSync(file).size;
    await this.header(name, size);
    const h = createHash('sha256');
    let n = 0;
    for await (const chunk of createReadStream(file)) {
      h.update(chunk as Buffer);
      n += (chunk as Buffer).length;
      await this.write(chunk as Buffer);
    }
    if (n !== size) throw new Error(`${file} changed size while it was added to ${this.path}`);
    await this.pad(size);
    return h.digest('hex');
  }

  /** Ends the archive (two zero blocks), then moves it to its final path. */
  async close(): Promise<TarResult> {
    await this.write(Buffer.alloc(2 * BLOCK));
    this.gzip.end();
    await this.done;
    renameSync(this.tmp, this.path);
    return { sha256: this.hash.digest('hex'), bytes: this.bytes };
  }

  /** Drops a half-written archive. */
  abort(): void {
    this.gzip.destroy();
    rmSync(this.tmp, { force: true });
  }

  private async pad(size: number): Promise<void> {
    const rest = size % BLOCK;
    if (rest) await this.write(Buffer.alloc(BLOCK - rest));
  }

  private async header(name: string, size: number): Promise<void> {
    if (size > MAX_SIZE) throw new Error(`${name}: ${size} bytes is more than a ustar entry holds`);
    if (!name || name.startsWith('/') || name.split('/').includes('..')) throw new Error(`unsafe tar entry name ${JSON.stringify(name)}`);
    const split = splitName(name);
    if (!split) {
      // pax extended header carrying the full path; the ustar name below is a truncated fallback
      const body = paxRecord('path', name);
      await this.write(ustarHeader({ name: 'PaxHeader', prefix: '' }, body.length, this.mtimeS, 'x'));
      await this.write(body);
      await this.pad(body.length);
      await this.write(ustarHeader({ name: Buffer.from(name).subarray(-100).toString('latin1').replace(/^\/+/, ''), prefix: '' }, size, this.mtimeS, '0'));
      return;
    }
    await this.write(ustarHeader(split, size, this.mtimeS, '0'));
  }
}

/** ustar splits a long path into prefix (155) + '/' + name (100), at a slash. */
export function splitName(path: string): { name: string; prefix: string } | null {
  const len = Buffer.byteLength(path);
  if (len <= 100) return { name: path, prefix: '' };
  if (len > 256) return null;
  for (let i = path.indexOf('/'); i >= 0; i = path.indexOf('/', i + 1)) {
    const prefix = path.slice(0, i);
    const name = path.slice(i + 1);
    if (Buffer.byteLength(prefix) <= 155 && Buffer.byteLength(name) <= 100 && name) return { name, prefix };
  }
  return null;
}

function paxRecord(key: string, value: string): Buffer {
  const body = ` ${key}=${value}\n`;
  const b = Buffer.byteLength(body);
  // the record's length prefix counts its own digits
  let len = b + String(b).length;
  while (b + String(len).length !== len) len = b + String(len).length;
  return Buffer.from(`${len}${body}`);
}

function octal(n: number, width: number): string {
  return n.toString(8).padStart(width - 1, '0') + '\0';
}

function ustarHeader(p: { name: string; prefix: string }, size: number, mtimeS: number, type: '0' | 'x'): Buffer {
  const h = Buffer.alloc(BLOCK);
  h.write(p.name, 0, 100, 'utf8');
  h.write(octal(0o644, 8), 100, 'ascii');
  h.write(octal(0, 8), 108, 'ascii');
  h.write(octal(0, 8), 116, 'ascii');
  h.write(octal(size, 12), 124, 'ascii');
  h.write(octal(Math.max(0, Math.floor(mtimeS)), 12), 136, 'ascii');
  h.write('        ', 148, 'ascii'); // checksum counts as spaces while summing
  h.write(type, 156, 'ascii');
  h.write('ustar\0', 257, 'ascii');
  h.write('00', 263, 'ascii');
  h.write('contrail', 265, 'ascii');
  h.write('contrail', 297, 'ascii');
  h.write(p.prefix, 345, 155, 'utf8');
  let sum = 0;
  for (const b of h) sum += b;
  h.write(sum.toString(8).padStart(6, '0') + '\0 ', 148, 'ascii');
  return h;
}
