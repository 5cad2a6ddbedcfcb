// the uWebSockets.js adapter: the only file that touches uws request/response objects.
// everything read from `req` is copied out before any await (the request object dies with the callback).
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { ApiError } from '../../lib/errors.ts';
import type { Log } from '../../lib/log.ts';
import { ClientIp, rateKeyOf } from './client-ip.ts';
import { policyFor, WINDOW_S } from '../../schemas/policy.ts';
import { RateLimiter, type RateDecision } from './ratelimit.ts';
import { acceptedCodings, encodeError, encodeNotModified, encodeReply, etagMatches, gzipOffLoop, headerBlock, type Wire } from './respond.ts';
import { decodePath, Router } from './router.ts';
import type { Observed, Req, Reply, Route } from './types.ts';
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
    return require(file) as typeof Uws;
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
  log?: Log;
  /** hears every answer: the route pattern, its bucket, the status, the time taken, and the request (for the access log) */
  observe?: (route: string, bucket: string, status: number, ms: number, req: Observed) => void;
  /** registers WebSocket routes (server/stream/socket.ts) on the app before the HTTP catch-all */
  sockets?: (app: Uws.TemplatedApp, edge: SocketEdge) => void;
}

/** What a WebSocket route shares with the HTTP boundary: the client's address, the limits, the error writer. */
export interface SocketEdge {
  /** the client IP of a request (the socket peer, or X-Forwarded-For from a trusted proxy) */
  ipOf(res: Uws.HttpResponse, forwardedFor: string): string;
  limiter: RateLimiter;
  rateLimits: boolean;
  clock: () => number;
  log: Log;
  /** answer a refused upgrade with the section-7 error (and its rate-limit headers) */
  refuse(res: Uws.HttpResponse, err: unknown, rl: [string, string][]): void;
}

export interface Running {
  port: number;
  close(): void;
  limiter: RateLimiter;
}

// range and if-range: the researchers' Parquet files are read in parts (server/handlers/bundles.ts)
const HEADERS_READ = ['accept-encoding', 'x-forwarded-for', 'if-none-match', 'user-agent', 'range', 'if-range'];
/** response headers a page on another origin may read */
const CORS_EXPOSE = 'RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, Retry-After, ETag, Content-Range, Accept-Ranges, Content-Length, Last-Modified';
// on every answer: any origin may read it (without Expose-Headers a map's JavaScript reads
// RateLimit-Remaining and Retry-After as null); written as one pre-built block
const [CORS_KEY, CORS_BLOCK] = headerBlock([['Access-Control-Allow-Origin', '*'], ['Access-Control-Expose-Headers', CORS_EXPOSE]]);

export function startServer(routes: Route[], opts: ServerOptions): Promise<Running> {
  const uws = loadNativeUws();
  const router = new Router(routes);
  const limiter = new RateLimiter(WINDOW_S);
  const clientIp = new ClientIp(opts.trustProxy);
  const clock = opts.clock ?? Date.now;
  const offLoop = opts.gzipOffLoop ?? 0;
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

  app.any('/*', (res, uReq) => {
    let aborted = false;
    res.onAborted(() => {
      aborted = true;
    });
    const method = uReq.getCaseSensitiveMethod().toUpperCase();
    const rawPath = uReq.getUrl();
    const query = uReq.getQuery() ?? '';
    const headers: Record<string, string> = {};
    for (const h of HEADERS_READ) {
      const v = uReq.getHeader(h);
      if (v) headers[h] = v;
    }
    // the client's address is read only when something needs it (the limits; not the limit-free path)
    let ipMemo: string | undefined;
    const ipOf = () => (ipMemo ??= clientIp.resolve(Buffer.from(res.getRemoteAddressAsText()).toString(), headers['x-forwarded-for']));
    const nowMs = clock();
    const codings = acceptedCodings(headers['accept-encoding']);
    const head = method === 'HEAD';

    const started = performance.now();
    let routeLabel = 'unrouted';
    let bucketLabel = 'none';
    const send = (w: Wire) => {
      opts.observe?.(routeLabel, bucketLabel, Number(w.status.slice(0, 3)), performance.now() - started, { method, path, get ip() { return aborted ? (ipMemo ?? '') : ipOf(); }, bytes: head ? 0 : w.body.length });
      if (aborted) return;
      writeWire(res, w, head);
    };

    const path = decodePath(rawPath);
    if (path === null) return send(encodeError(new ApiError(422, 'invalid_request', 'the path has broken percent-encoding'), []));
    const match = router.match(path);
    // the unroutable path is not echoed: it may carry a station UUID or whatever a prober sent
    if (!match) return send(encodeError(new ApiError(404, 'not_found', 'no such operation; /docs lists them all'), []));
    routeLabel = match.route.pattern;
    bucketLabel = match.route.bucket;
    // a browser's CORS preflight: answered for any route, outside the rate limits (it costs nothing)
    if (method === 'OPTIONS') {
      return send({ status: '204 No Content', headers: [['Access-Control-Allow-Methods', 'GET, HEAD'], ['Access-Control-Allow-Headers', 'Accept, Accept-Encoding, If-None-Match, Range, If-Range'], ['Access-Control-Max-Age', '86400'], ['Cache-Control', 'public, max-age=86400'], ['Allow', 'GET, HEAD, OPTIONS']], body: Buffer.alloc(0) });
    }
    if (method !== 'GET' && !head) {
      return send(
        encodeError(new ApiError(405, 'invalid_request', `${method} is not supported: every operation is GET`, { Allow: 'GET, HEAD' }), []),
      );
    }
    const policy = policyFor(match.route.bucket);
    const answer = (d: RateDecision | null) => {
      const rl: [string, string][] = [];
      if (d) {
        rl.push(['RateLimit-Limit', String(d.limit)], ['RateLimit-Remaining', String(d.remaining)], ['RateLimit-Reset', String(d.resetS)]);
        if (!d.allowed) {
          const detail = `more than ${d.limit} requests in ${WINDOW_S} s to the ${match.route.bucket} bucket; wait ${d.resetS} s`;
          return send(encodeError(new ApiError(429, 'rate_limited', detail, { 'Retry-After': String(d.resetS) }), rl));
        }
      }
      const req: Req = { method, path, query, params: match.params, get ip() { return ipOf(); }, nowMs, headers };
      const ok = (r: Reply) => {
        if (etagMatches(headers['if-none-match'], r.etag)) return send(encodeNotModified(r, policy.cache, rl));
        const later = head ? null : gzipOffLoop(r, codings, offLoop);
        if (!later) return send(encodeReply(r, codings, policy.cache, rl));
        // a client gone meanwhile is not written to (send checks `aborted`)
        later.then(
          (z) => send(encodeReply(z, codings, policy.cache, rl)),
          () => send(encodeReply(r, { gzip: false, br: false }, policy.cache, rl)),
        );
      };
      try {
        ok(match.route.handler(req));
      } catch (e) {
        // log the route pattern, never the path: a path may carry a secret (a station's UUID)
        if (!(e instanceof ApiError)) log(`error ${method} ${match.route.pattern}: ${(e as Error)?.stack ?? String(e)}`, 'error');
        send(encodeError(e, rl));
      }
    };
    if (!opts.rateLimits || policy.limit <= 0) return answer(null);
    if (!opts.shared) return answer(limiter.hit(match.route.bucket, rateKeyOf(ipOf()), policy.limit, nowMs));
    // the shared count answers later: the request's data is already copied out of uReq, and a
    // client gone meanwhile (onAborted above) is neither handled nor written to
    // the address is read now, while the response is still ours to read
    void opts.shared.hit(match.route.bucket, rateKeyOf(ipOf()), policy.limit, nowMs).then(
      (d) => aborted || answer(d),
      // hit() never rejects; were it to, the request is served unlimited rather than failed
      () => aborted || answer(null),
    );
  });

  return new Promise((resolve, reject) => {
    app.listen(opts.host, opts.port, (socket) => {
      if (!socket) return reject(new Error(`cannot listen on ${opts.host}:${opts.port} (in use, or not an address of this machine)`));
      resolve({
        port: uws.us_socket_local_port(socket),
        limiter,
        close: () => {
          uws.us_listen_socket_close(socket);
        },
      });
    });
  });
}

/** Write a status, its headers (with the CORS ones) and the body, corked into one send. */
function writeWire(res: Uws.HttpResponse, w: Wire, head: boolean): void {
  res.cork(() => {
    res.writeStatus(w.status);
    for (const [k, v] of w.headers) res.writeHeader(k, v);
    res.writeHeader(CORS_KEY, CORS_BLOCK);
    // endWithoutBody(length) of this uWS build drops the connection afterwards: the next
    // request on it went unanswered. the length goes in as a header, the end is bare
    if (head) {
      res.writeHeader('Content-Length', String(w.headLength ?? w.body.length));
      res.endWithoutBody();
    } else writeBody(res, w.body);
  });
}

/** Write a whole body, respecting backpressure (the uws VideoStreamer pattern). */
function writeBody(res: Uws.HttpResponse, body: Buffer): void {
  const total = body.length;
  const start = res.getWriteOffset();
  const [ok, done] = res.tryEnd(body, total);
  if (ok || done) return;
  res.onWritable((offset) => {
    const [ok2] = res.tryEnd(body.subarray(offset - start), total);
    return ok2;
  });
}
