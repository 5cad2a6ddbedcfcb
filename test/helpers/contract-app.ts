// the real app (server/app.ts createApp: every route on the real uWebSockets.js server) for the
// contract test, with the rate limits on and X-Forwarded-For trusted from loopback (so each route's
// requests count as their own client), a real readsb feed file, a feeder list, and a published tree
// or none. the clock is the caller's; and a small HTTP client that keeps what the server sent.
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { Agent, request, type IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { createApp, type App } from '../../server/app.ts';
import { loadServerConfig } from '../../server/config.ts';
import type { ContractTree } from './contract-tree.ts';
import type { Answer } from './openapi-check.ts';

const SAMPLE_FILE = new URL('../fixtures/feed/readsb_sample.json', import.meta.url);
export const SAMPLE = JSON.parse(readFileSync(SAMPLE_FILE, 'utf8')) as { now: number; aircraft: Record<string, unknown>[] };
/** the station of the feeder list (a random UUID made for this test) */
export const STATION_UUID = '7c1e9a42-3b5d-4f60-8a2e-5d9c0b1f4e37';

export interface ContractApp {
  app: App;
  base: string;
  logs: string[];
  stop(): Promise<void>;
}

export async function startContractApp(tree: ContractTree | null, clock: () => number): Promise<ContractApp> {
  const dir = mkdtempSync(join(tmpdir(), 'contrail-contract-app-'));
  const feed = join(dir, 'aircraft.json');
  writeFileSync(feed, JSON.stringify({ ...SAMPLE, now: clock() / 1000 }));
  const feeders = join(dir, 'feeders.json');
  const station = { uuid: STATION_UUID, lat: 47.4581, lon: 8.5555, connected: true };
  writeFileSync(feeders, JSON.stringify({ generated_at: Math.floor(clock() / 1000), feeders: [station] }));
  const flags = ['--port', '0', '--feed', feed, '--state', join(dir, 'state'), '--stations', feeders, '--trust-proxy', '127.0.0.1'];
  // without a tree: history configured, nothing published yet (readiness then waits for a build)
  if (tree) flags.push('--artifacts', tree.root, '--bundles', tree.bundles);
  else flags.push('--artifacts', mkdirSync(join(dir, 'tree'), { recursive: true })!);
  const { config } = loadServerConfig(flags, {});
  const logs: string[] = [];
  const app = await createApp(config, { log: (l) => logs.push(l), clock, poll: false });
  await app.services.feed!.pollOnce();
  await app.services.stations.source!.poll();
  const base = `http://127.0.0.1:${app.port}`;
  // the snapshot goes live once prepared off the loop, and reaches the trace store and the
  // estimator in slices: wait for all three (a few hundred ms)
  const hex = SAMPLE.aircraft.find((a) => a.lat !== undefined)!.hex as string;
  for (const until = Date.now() + 30_000; ; ) {
    const paths = ['/v1/now', '/v1/estimated', `/v1/trace/${hex}`];
    const got = await Promise.all(paths.map((p) => send(base, { path: p, headers: { 'x-forwarded-for': '10.255.255.1' } })));
    if (got.every((g) => g.status === 200)) break;
    if (Date.now() > until) throw new Error(`the app did not become ready in 30 s: ${got.map((g) => g.status).join(', ')}`);
    await new Promise((r) => setTimeout(r, 20));
  }
  return { app, base, logs, stop: () => app.stop() };
}

const agent = new Agent({ keepAlive: true, maxSockets: 4 });

export interface Sent {
  path: string;
  method?: string;
  headers?: Record<string, string>;
}

/** one request on a kept-alive connection; the body decoded as its Content-Encoding says */
export function send(base: string, s: Sent): Promise<Answer> {
  const method = s.method ?? 'GET';
  return new Promise((resolve, reject) => {
    const req = request(base + s.path, { method, headers: s.headers ?? {}, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', reject);
      res.on('end', () => {
        const headers = flat(res.headers);
        const wire = Buffer.concat(chunks);
        const coding = headers['content-encoding'];
        const body = !wire.length ? wire : coding === 'gzip' ? gunzipSync(wire) : coding === 'br' ? brotliDecompressSync(wire) : wire;
        resolve({ method, status: res.statusCode ?? 0, headers, body });
      });
    });
    req.setTimeout(10_000, () => req.destroy(new Error(`no answer to ${method} ${s.path} in 10 s`)));
    req.on('error', reject);
    req.end();
  });
}

/** a WebSocket upgrade: the 101 and its open socket, or the HTTP answer that refused it */
export function upgrade(base: string, path: string, headers: Record<string, string>): Promise<{ answer: Answer; socket: Socket | null }> {
  return new Promise((resolve, reject) => {
    const req = request(base + path, {
      agent: false,
      headers: { Connection: 'Upgrade', Upgrade: 'websocket', 'Sec-WebSocket-Version': '13', 'Sec-WebSocket-Key': 'dGhlIHNhbXBsZSBub25jZQ==', ...headers },
    });
    const answer = (res: IncomingMessage, body: Buffer): Answer => ({ method: 'GET', status: res.statusCode ?? 0, headers: flat(res.headers), body });
    req.on('upgrade', (res, socket) => resolve({ answer: answer(res, Buffer.alloc(0)), socket }));
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ answer: answer(res, Buffer.concat(chunks)), socket: null }));
    });
    req.setTimeout(10_000, () => req.destroy(new Error(`no answer to the upgrade of ${path} in 10 s`)));
    req.on('error', reject);
    req.end();
  });
}

function flat(h: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h)) if (v !== undefined) out[k] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}

export function closeClients(): void {
  agent.destroy();
}
