// a real S3-compatible server (s3rver) on loopback with a temp directory, an S3 store for it, and a
// store wrapper that records every object written (plain puts and completed multipart uploads).
import { mkdtempSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { s3Connection, s3Store, type ObjectStore } from '../../build/upload/object-store.ts';

const require = createRequire(import.meta.url);
// s3rver is CommonJS without types
const S3rver = require('s3rver') as new (o: Record<string, unknown>) => { run(): Promise<{ port: number }>; close(): Promise<void> };

export const BUCKET = 'contrail-test';
// s3rver's fixed credentials
export const CREDS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

export interface S3Server {
  endpoint: string;
  store: ReturnType<typeof s3Store>;
  close(): Promise<void>;
}

export async function startS3(): Promise<S3Server> {
  const server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: mkdtempSync(join(tmpdir(), 'contrail-s3rver-')), configureBuckets: [{ name: BUCKET }] });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  const store = storeAt(endpoint);
  return { endpoint, store, close: async () => (store.close(), server.close()) };
}

/** An S3 store of the test bucket at `endpoint` (s3rver's, or a proxy's in front of it). */
export function storeAt(endpoint: string, sockets = 8): ReturnType<typeof s3Store> {
  const o = { endpoint, bucket: BUCKET, region: 'us-east-1', forcePathStyle: true };
  return s3Store(o, s3Connection(o, CREDS, sockets));
}

export interface Recording extends ObjectStore {
  puts: string[];
}

/** Records the keys of the objects written, in the order they were complete. */
export function recording(inner: ObjectStore): Recording {
  const puts: string[] = [];
  return {
    ...inner,
    puts,
    async put(k, data, h, sha) {
      await inner.put(k, data, h, sha);
      puts.push(k);
    },
    async completeMultipart(k, id, etags) {
      await inner.completeMultipart(k, id, etags);
      puts.push(k);
    },
  };
}

/** A plain GET through s3rver's HTTP front (no SDK), raw bytes and headers as a CDN would see them. */
export function rawGet(endpoint: string, key: string): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    request(`${endpoint}/${BUCKET}/${key}`, { headers: { 'accept-encoding': 'gzip' } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    })
      .on('error', reject)
      .end();
  });
}
