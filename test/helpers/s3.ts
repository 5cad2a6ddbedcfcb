// a real S3-compatible server (s3rver) on loopback with a temp directory, in a child process of its
// own (so a test can kill it mid-upload and start it again on the same store and port), an S3 store
// for it, and a store wrapper that records every object written (plain puts and completed multipart
// uploads). s3rver encrypts its ListObjectsV2 continuation tokens with DES, which Node 20's OpenSSL 3
// has only in its legacy provider: without --openssl-legacy-provider every listing past 1,000 keys
// answers 500 (docs/perf-log/s3-test-server.md), so the child runs with it; and its metadata files
// are written whole or not at all (below).
import { mkdtempSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { s3Connection, s3Store, type ObjectStore } from '../../build/upload/object-store.ts';

// s3rver is CommonJS without types; its entry is loaded in the child
const require = createRequire(import.meta.url);
const S3RVER = require.resolve('s3rver');

export const BUCKET = 'contrail-test';
// s3rver's fixed credentials
export const CREDS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

export interface S3Server {
  endpoint: string;
  store: ReturnType<typeof s3Store>;
  /** where the server keeps its objects */
  directory: string;
  /** the server process, SIGKILLed: whatever it was writing is left as it is on disk */
  kill(): Promise<void>;
  /** a new server process on the same directory and port */
  restart(): Promise<void>;
  close(): Promise<void>;
}

/** s3rver on `directory` in a child process (port 0: any free one); resolves with its port once it listens */
function serve(directory: string, port: number): Promise<{ child: ChildProcess; port: number }> {
  // its metadata file is written in place (truncated, then written): killed between the two, the
  // file holds no JSON and every listing and GET of the folder answers 500 for ever, a state no S3
  // store has (a PUT is atomic there). it is written to a temporary file and renamed here; the
  // object's bytes and its .md5 file stay as s3rver writes them, so a killed server still leaves
  // objects torn (bytes short of their ETag, bytes without headers) for the upload to find
  const code = `const req = (await import('node:module')).createRequire(${JSON.stringify(S3RVER)});
const S3rver = req(${JSON.stringify(S3RVER)});
const Store = req('./stores/filesystem.js');
const { ALLOWED_METADATA } = req('./models/object.js');
const { rename, writeFile } = await import('node:fs/promises');
let tmp = 0;
Store.prototype.putMetadata = async function (bucket, key, metadata, md5) {
  const json = {};
  for (const [k, v] of Object.entries(metadata)) if (ALLOWED_METADATA.includes(k) || k.startsWith('x-amz-meta-')) json[k] = v;
  if (md5) await writeFile(this.getResourcePath(bucket, key, 'object.md5'), md5);
  const path = this.getResourcePath(bucket, key, 'metadata.json');
  const part = path + '.' + process.pid + '-' + tmp++;
  await writeFile(part, JSON.stringify(json, null, 2));
  await rename(part, path);
};
const s = new S3rver({ port: ${port}, address: '127.0.0.1', silent: true, directory: ${JSON.stringify(directory)}, configureBuckets: [{ name: ${JSON.stringify(BUCKET)} }] });
console.log((await s.run()).port);`;
  const child = spawn(process.execPath, ['--openssl-legacy-provider', '--no-warnings', '--input-type=module', '-e', code], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    child.stdout!.once('data', (d: Buffer) => resolve({ child, port: Number(String(d).trim()) }));
    child.once('exit', (c) => reject(new Error(`s3rver exited ${c} before it listened`)));
  });
}

const exited = (c: ChildProcess) =>
  new Promise<void>((resolve) => (c.exitCode !== null || c.signalCode !== null ? resolve() : c.once('exit', () => resolve())));

export async function startS3(): Promise<S3Server> {
  const directory = mkdtempSync(join(tmpdir(), 'contrail-s3rver-'));
  let { child, port } = await serve(directory, 0);
  const endpoint = `http://127.0.0.1:${port}`;
  const store = storeAt(endpoint);
  const kill = async () => {
    child.kill('SIGKILL');
    await exited(child);
  };
  return {
    endpoint,
    store,
    directory,
    kill,
    restart: async () => {
      await kill();
      ({ child, port } = await serve(directory, port));
    },
    close: async () => {
      store.close();
      await kill();
    },
  };
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
