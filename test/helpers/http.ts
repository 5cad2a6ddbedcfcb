// start routes on the real uWebSockets.js server on a free loopback port, and fetch from it.
// every response is validated: non-200 against schemas/error, 200 against the schema the test names.
import assert from 'node:assert/strict';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { request } from 'node:http';
import { problems } from '../../schemas/index.ts';
import { startServer, type ServerOptions } from '../../server/http/uws.ts';
import type { Route } from '../../server/http/types.ts';

export interface Got {
  status: number;
  headers: Record<string, string>;
  /** the decoded body (gunzipped when the server sent gzip) */
  text: string;
  /** the same as bytes (a Parquet file, a part of one) */
  body: Buffer;
  /** bytes as they came over the wire */
  wireBytes: number;
  json: any;
}

export interface TestServer {
  base: string;
  port: number;
  /** GET a path; `schema` names the schema a 200 must match */
  get(path: string, opts?: { schema?: string; headers?: Record<string, string>; method?: string }): Promise<Got>;
  close(): void;
}

export async function serve(routes: Route[], opts: Partial<ServerOptions> = {}): Promise<TestServer> {
  const running = await startServer(routes, {
    host: '127.0.0.1',
    port: 0,
    trustProxy: [],
    rateLimits: true,
    log: () => {},
    ...opts,
  });
  const base = `http://127.0.0.1:${running.port}`;
  return {
    base,
    port: running.port,
    close: () => running.close(),
    get: (path, o = {}) => httpGet(base + path, o),
  };
}

/** A raw GET (node:http, so the test sees exactly what the server sent, gzip included). */
export function httpGet(url: string, o: { schema?: string; headers?: Record<string, string>; method?: string } = {}): Promise<Got> {
  return new Promise((resolve, reject) => {
    // agent: false, so no keep-alive socket holds a test file open after its last request
    const req = request(url, { method: o.method ?? 'GET', headers: o.headers ?? {}, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', reject);
      res.on('end', () => {
        const wire = Buffer.concat(chunks);
        const headers: Record<string, string> = {};
        for (const [k, v] of Object.entries(res.headers)) if (typeof v === 'string') headers[k] = v;
        const coding = headers['content-encoding'];
        // a HEAD answer names its coding but has no body to decode
        const body = o.method === 'HEAD' ? wire : coding === 'gzip' ? gunzipSync(wire) : coding === 'br' ? brotliDecompressSync(wire) : wire;
        const text = body.toString('utf8');
        let json: unknown;
        try {
          json = text ? JSON.parse(text) : undefined;
        } catch {
          json = undefined;
        }
        const got: Got = { status: res.statusCode ?? 0, headers, text, body, wireBytes: wire.length, json };
        try {
          if (o.method !== 'HEAD') checkShape(got, o.schema);
        } catch (e) {
          return reject(e);
        }
        resolve(got);
      });
    });
    req.on('error', reject);
    req.end();
  });
}

function checkShape(got: Got, schema: string | undefined): void {
  // 204 (a CORS preflight) and 304 (the client's copy is current) have no body by definition
  if (got.status === 204 || got.status === 304) return assert.equal(got.text, '', `a ${got.status} has no body`);
  // a part of a file: its bytes, and the header saying which
  if (got.status === 206) return assert.match(got.headers['content-range'] ?? '', /^bytes \d+-\d+\/\d+$/);
  if (got.status !== 200) {
    assert.deepEqual(problems('error', got.json), [], `${got.status} body must be a section-7 error: ${got.text}`);
    assert.equal(got.headers['cache-control'], 'no-store', 'every non-200 carries Cache-Control: no-store');
    return;
  }
  if (schema) assert.deepEqual(problems(schema, got.json), [], `200 body must match schemas/${schema}.schema.json`);
}
