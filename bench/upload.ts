// the upload against a real S3-compatible server: s3rver (the tests' server) in its own process on
// loopback, a seeded artifact tree of many small gzipped JSON documents published with the real
// writer, then full uploads at several in-flight counts (each to a fresh prefix), a no-change
// re-run, and the client's and the server's CPU per object (the machine's cores are shared: the
// rates compare settings measured in the same run). each level runs twice: with the upload's
// hand-signed PUT, and with the AWS SDK's PutObject in its place (what the SDK costs).
// usage: node --import tsx bench/upload.ts [--objects 20000] [--concurrency 1,8,32,64] [--store-dir /tmp]
import './help.ts';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { commit, stage } from '../build/publish/publish.ts';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { s3Connection, s3Store, type ObjectStore } from '../build/upload/object-store.ts';
import { upload } from '../build/upload/upload.ts';
import { mulberry32 } from '../lib/random.ts';
import { flag, numberFlag } from './flags.ts';
import { cpuSeconds, startServer } from './s3rver.ts';

const OBJECTS = numberFlag('objects', 20_000);
const LEVELS = flag('concurrency', '1,8,32,64').split(',').map(Number);
const STORE_DIR = flag('store-dir', tmpdir());
const BUCKET = 'bench';

/** a seeded tree shaped like the real one: airframes, routes, airports; 0.3-3 KB of JSON each */
function seededTree(n: number): string {
  const root = mkdtempSync(join(tmpdir(), 'contrail-bench-up-'));
  const rand = mulberry32(14);
  const s = stage(root, 'bench1');
  const word = () => Math.floor(rand() * 36 ** 6).toString(36);
  for (let i = 0; i < n; i++) {
    const key = i % 3 === 0 ? `v1/airframes/${(0x400000 + i).toString(16)}` : i % 3 === 1 ? `v1/route/B${i}` : `v1/airports/Z${i.toString(36).toUpperCase()}`;
    const legs = Array.from({ length: 2 + Math.floor(rand() * 20) }, () => ({
      from: word().slice(0, 4),
      to: word().slice(0, 4),
      dep: Math.floor(rand() * 1e9),
      arr: Math.floor(rand() * 1e9),
    }));
    s.writer.putBytes(key, Buffer.from(JSON.stringify({ id: key, legs })));
  }
  s.writer.writeManifest({ build_id: 'bench1', built_at: '2026-11-25T00:00:00.000Z', archive_through: '2026-11-24', window_days: 1, counts: {} });
  commit(root, s);
  return root;
}

const t0 = performance.now();
const root = seededTree(OBJECTS);
const warm = seededTree(1000);
console.log(`tree: ${OBJECTS} objects in ${((performance.now() - t0) / 1000).toFixed(1)} s; s3rver store in ${STORE_DIR}; node ${process.version}`);
const dir = mkdtempSync(join(STORE_DIR, 'contrail-bench-s3-'));
const server = await startServer(dir, BUCKET);
const o = { endpoint: server.endpoint, bucket: BUCKET, region: 'us-east-1', forcePathStyle: true };
const creds = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };
console.log('| in flight | PUT | objects | wall s | objects/s | MB/s | client CPU ms/object | s3rver CPU ms/object |');
console.log('|---|---|---|---|---|---|---|---|');
try {
  for (const [i, concurrency] of LEVELS.entries()) {
    const conn = s3Connection(o, creds, concurrency);
    const signed = s3Store(o, conn);
    const sdk: ObjectStore = {
      ...signed,
      put: async (Key, Body, h, sha256) =>
        void (await conn.client.send(
          new PutObjectCommand({
            Bucket: BUCKET,
            Key,
            Body,
            ContentType: h.contentType,
            ContentEncoding: h.contentEncoding,
            CacheControl: h.cacheControl,
            Metadata: { sha256 },
          }),
        )),
    };
    const run = async (prefix: string, store: ObjectStore, put: string, tree = root) => {
      const c0 = process.cpuUsage();
      const s0 = cpuSeconds(server.pid);
      const t = performance.now();
      const r = await upload({ root: tree, bundles: '', store, prefix, nowMs: Date.UTC(2026, 10, 25), graceMs: 0, concurrency, clock: Date.now });
      const s = (performance.now() - t) / 1000;
      const c = process.cpuUsage(c0);
      const sent = Math.max(r.put, 1);
      return {
        r,
        s,
        line: `| ${concurrency} | ${put} | ${r.put} | ${s.toFixed(2)} | ${Math.round(r.put / s)} | ${(r.bytes / s / 1e6).toFixed(2)} | ${((c.user + c.system) / 1e3 / sent).toFixed(2)} | ${(((cpuSeconds(server.pid) - s0) * 1e3) / sent).toFixed(2)} |`,
      };
    };
    // warm-up (modules, JIT, connections), not reported
    if (i === 0) for (const [k, st] of [sdk, signed].entries()) await run(`warm-${k}`, st, '', warm);
    console.log((await run(`sdk-${i}`, sdk, 'SDK')).line);
    console.log((await run(`full-${i}`, signed, 'signed')).line);
    if (i === LEVELS.length - 1) {
      const again = await run(`full-${i}`, signed, 'signed');
      console.log(`no-change re-run at ${concurrency} in flight: ${again.r.put} sent, ${again.r.unchanged} unchanged, ${again.s.toFixed(2)} s`);
    }
    signed.close();
  }
} finally {
  server.stop();
  rmSync(dir, { recursive: true, force: true });
  rmSync(root, { recursive: true, force: true });
  rmSync(warm, { recursive: true, force: true });
}
