// the uWebSockets.js adapter: the only file that touches uws request/response objects.
// everything read from `req` is copied out before any await (the request object dies with the callback).
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Log } from '../../lib/log.ts';
import { ClientIp } from './client-ip.ts';
import { WINDOW_S } from '../../schemas/policy.ts';
import { RateLimiter, type RateDecision } from './ratelimit.ts';
import { encodeError, headerBlock, type Wire } from './respond.ts';
import { CompressionShed } from './compress-shed.ts';
import { SECURITY_HEADERS } from './security.ts';
import { HEADERS_READ, makePipeline, type Incoming, type Limits, type Pipeline } from './pipeline.ts';
import type { Observed, Route } from './types.ts';
import type * as Uws from 'uWebSockets.js';

const require = createRequire(import.meta.url);

/**
 * Load the native uWebSockets.js binary, never its slow JavaScript fallback
 * (the npm build silently falls back when the binary does not load).
 */
export function loadNativeUws(): typeof Uws {
  const pkg = dirname(require.resolve('uWebSockets.js/package.json'));
  const file = join(pkg, 'binaries', `uws_${process.platform}_${process.arch}_${process.versions.modules}.node`);
  try {
    const uws = require(file) as typeof Uws & { _cfg?: (key: string) => void };
    // no `uWebSockets: 20` header on answers: the binary's one switch for it (uWS Loop::setSilent,
    // per thread, so every serving thread calls this), untyped in its .d.ts (docs/operating.md)
    uws._cfg?.('silent');
    return uws;
  } catch (e) {
    throw new Error(
      `the native uWebSockets.js binary did not load (${file}): ${(e as Error).message.split('\n')[0]}. ` +
        `Contrail refuses to run on the JavaScript fallback. Use Node 20 on linux-x64/arm64 or darwin, and reinstall with \`npm ci\`.`,
    );
  }
}

export interface ServerOptions {
  host: string;
  port: number;
  /** false: build the app and its pipeline but accept no connection (a test pins them to another thread) */
  listen?: boolean;
  trustProxy: string[];
  rateLimits: boolean;
  /**
   * counts the HTTP buckets somewhere shared (Redis, shared-limits.ts) instead of this process's
   * memory; its answer comes later. the /v1/stream bucket stays in this process (its upgrade is answered at once)
   */
  shared?: { hit(bucket: string, client: string, limit: number, nowMs: number): Promise<RateDecision> };
  /** the clock, unix ms; tests pin it */
  clock?: () => number;
  /** bytes from which a body compressed per request is gzipped on the libuv pool (0: never; ServerConfig.gzipOffLoop) */
  gzipOffLoop?: number;
  /** this thread's event-loop utilisation (0..1] from which answers made for one request go out uncompressed (0 or absent: never; ServerConfig.shedCompressionAt) */
  shedCompressionAt?: number;
  log?: Log;
  /** hears every answer: the route pattern, its bucket, the status, the time taken, and the request (for the access log) */
  observe?: (route: string, bucket: string, status: number, ms: number, req: Observed) => void;
  /** the rate-limit counts (default: this thread's own memory; server/serve/ shares one between serving threads) */
  limiter?: Limits;
  /** answers what no route here matches, instead of the 404 (a serving worker forwards it, server/serve/) */
  unrouted?: Pipeline;
  /** registers WebSocket routes (server/stream/socket.ts) on the app before the HTTP catch-all */
  sockets?: (app: Uws.TemplatedApp, edge: SocketEdge) => void;
}

/** What a WebSocket route shares with the HTTP boundary: the client's address, the limits, the error writer. */
export interface SocketEdge {
  /** the client IP of a request (the socket peer, or X-Forwarded-For from a trusted proxy) */
  ipOf(res: Uws.HttpResponse, forwardedFor: string): string;
  limiter: Limits;
  rateLimits: boolean;
  clock: () => number;
  log: Log;
  /** answer a refused upgrade with the section-7 error (and its rate-limit headers) */
  refuse(res: Uws.HttpResponse, err: unknown, rl: [string, string][]): void;
}

export interface Running {
  port: number;
  /** this thread's compression shedding (null: off) */
  shed: CompressionShed | null;
  /** stop listening (open connections finish) */
  close(): void;
  /** stop listening and close every open connection (a serving thread that ends) */
  closeAll(): void;
  limiter: Limits;
  /** this thread's request pipeline (answers what another serving thread forwards) */
  pipeline: Pipeline;
}

/** response headers a page on another origin may read */
const CORS_EXPOSE = 'RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, Retry-After, ETag, Content-Range, Accept-Ranges, Content-Length, Last-Modified';
// on every answer: any origin may read it (without Expose-Headers a map's JavaScript reads
// RateLimit-Remaining and Retry-After as null), and the security headers (security.ts); written
// as one pre-built block. the origin allowed is `*` whoever asks, so no answer varies by Origin
const [CORS_KEY, CORS_BLOCK] = headerBlock([['Access-Control-Allow-Origin', '*'], ['Access-Control-Expose-Headers', CORS_EXPOSE], ...SECURITY_HEADERS]);

export function startServer(routes: Route[], opts: ServerOptions): Promise<Running> {
  const uws = loadNativeUws();
  const limiter = opts.limiter ?? new RateLimiter(WINDOW_S);
  const clientIp = new ClientIp(opts.trustProxy);
  const clock = opts.clock ?? Date.now;
  const log = opts.log ?? ((l: string) => console.error(l));
  const app = uws.App();
  opts.sockets?.(app, {
    ipOf: (res, forwardedFor) => clientIp.resolve(Buffer.from(res.getRemoteAddressAsText()).toString(), forwardedFor || undefined),
    limiter,
    rateLimits: opts.rateLimits,
    clock,
    log,
    refuse: (res, err, rl) => writeWire(res, encodeError(err, rl), false),
  });

  const shed = opts.shedCompressionAt ? new CompressionShed(opts.shedCompressionAt) : null;
  const unwatch = shed?.watch() ?? (() => {});
  const pipeline = makePipeline(routes, {
    rateLimits: opts.rateLimits,
    limiter,
    ...(opts.shared ? { shared: opts.shared } : {}),
    clock,
    gzipOffLoop: opts.gzipOffLoop ?? 0,
    ...(shed ? { shed } : {}),
    log,
    ...(opts.observe ? { observe: opts.observe } : {}),
    ...(opts.unrouted ? { unrouted: opts.unrouted } : {}),
  });
  app.any('/*', (res, uReq) => {
    let aborted = false;
    const method = uReq.getCaseSensitiveMethod().toUpperCase();
    const headers: Record<string, string> = {};
    for (const h of HEADERS_READ) {
      const v = uReq.getHeader(h);
      if (v) headers[h] = v;
    }
    // a CORS preflight's asked-for headers, echoed in its answer (pipeline.ts)
    if (method === 'OPTIONS') {
      const asked = uReq.getHeader('access-control-request-headers');
      if (asked) headers['access-control-request-headers'] = asked;
    }
    // the client's address is read only when something needs it (the limits; not the limit-free
    // path), and never from a response already gone (uws would throw). no named closure per
    // request (see pipeline.ts Flight)
    let ipMemo: string | undefined;
    const incoming: Incoming = {
      method,
      rawPath: uReq.getUrl(),
      query: uReq.getQuery() ?? '',
      headers,
      ip() {
        return (ipMemo ??= aborted ? '' : clientIp.resolve(Buffer.from(res.getRemoteAddressAsText()).toString(), headers['x-forwarded-for']));
      },
    };
    // before anything is written: a write that meets a reset socket leaves the answer unfinished
    // with the socket not yet closed, and uws aborts the process when a handler returns so without
    // an abort hook (seen on a worker whose client reset while it waited for the main thread)
    res.onAborted(() => {
      aborted = true;
    });
    pipeline(
      incoming,
      (w) => {
        writeWire(res, w, method === 'HEAD');
      },
      () => aborted,
    );
  });

  const done = (socket: Uws.us_listen_socket | null): Running => ({
    port: socket ? uws.us_socket_local_port(socket) : opts.port,
    limiter,
    pipeline,
    shed,
    close: () => {
      unwatch();
      if (socket) uws.us_listen_socket_close(socket);
    },
    closeAll: () => {
      unwatch();
      if (socket) uws.us_listen_socket_close(socket);
      // typed in no .d.ts of this build, present in its binary
      (app as unknown as { close?: () => void }).close?.();
    },
  });
  if (opts.listen === false) return Promise.resolve(done(null));
  return new Promise((resolve, reject) => {
    app.listen(opts.host, opts.port, (socket) => {
      if (!socket) return reject(new Error(`cannot listen on ${opts.host}:${opts.port} (in use, or not an address of this machine)`));
      resolve(done(socket));
    });
  });
}

/** Write a status, its headers (with the CORS ones) and the body, corked into one send. */
/** ... and whether the answer is complete (false: the rest goes out as the socket drains) */
function writeWire(res: Uws.HttpResponse, w: Wire, head: boolean): boolean {
  let ended = true;
  res.cork(() => {
    res.writeStatus(w.status);
    for (const [k, v] of w.headers) res.writeHeader(k, v);
    res.writeHeader(CORS_KEY, CORS_BLOCK);
    // endWithoutBody(length) of this uWS build drops the connection afterwards: the next
    // request on it went unanswered. the length goes in as a header, the end is bare
    if (head) {
      res.writeHeader('Content-Length', String(w.headLength ?? w.body.length));
      res.endWithoutBody();
    } else ended = writeBody(res, w.body, w.transient === true);
  });
  return ended;
}

/**
 * bodies up to this size are handed to uws whole: it sends what the socket takes and keeps a copy
 * of the rest, and the answer is complete at once. an answer still being sent when the client's
 * next (pipelined) request is parsed makes uws close the connection, losing both
 * (docs/perf-log/serving-threads.md), so only a body larger than a stream client may leave
 * unread (--stream-max-buffer's default) is sent as the socket drains, without a copy
 */
const END_WHOLE_BYTES = 8 * 1024 * 1024;

function writeBody(res: Uws.HttpResponse, body: Buffer, transient: boolean): boolean {
  if (body.length <= END_WHOLE_BYTES) {
    res.end(body);
    return true;
  }
  const total = body.length;
  const start = res.getWriteOffset();
  const [ok, done] = res.tryEnd(body, total);
  if (ok || done) return true;
  const rest = transient ? Buffer.from(body) : body;
  res.onWritable((offset) => {
    const [ok2] = res.tryEnd(rest.subarray(offset - start), total);
    return ok2;
  });
  return false;
}
