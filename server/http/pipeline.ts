// the request pipeline: a request as plain data in, a Wire out (routing, the rate limits, the
// handler, the encoding, typed errors mapped to section-7 answers). no uws object reaches it, so the
// same pipeline answers a socket on this thread (uws.ts) and a request another serving thread
// forwarded here (server/serve/).
import { ApiError } from '../../lib/errors.ts';
import type { Log } from '../../lib/log.ts';
import { rateKeyOf } from './client-ip.ts';
import { policyFor, WINDOW_S } from '../../schemas/policy.ts';
import type { RateDecision } from './ratelimit.ts';
import { acceptedCodings, encodeError, encodeNotModified, encodeReply, etagMatches, gzipOffLoop, type Codings, type Wire } from './respond.ts';
import { decodePath, Router, type Match } from './router.ts';
import type { CompressionShed } from './compress-shed.ts';
import type { Observed, Req, Route } from './types.ts';

/** request headers the pipeline reads (range and if-range: the researchers' Parquet files are read in parts) */
export const HEADERS_READ = ['accept-encoding', 'x-forwarded-for', 'if-none-match', 'user-agent', 'range', 'if-range'] as const;

/** A request as the socket gave it, copied out of uws. */
export interface Incoming {
  method: string;
  /** the path as sent, percent-encoded */
  rawPath: string;
  query: string;
  /** lower-case names, HEADERS_READ only */
  headers: Record<string, string>;
  /** the client's address, resolved on first use (the limit-free path never reads it) */
  ip: () => string;
}

/** counts one request of a client in a bucket's window, at once */
export interface Limits {
  hit(bucket: string, client: string, limit: number, nowMs: number): RateDecision;
}

export interface PipelineOptions {
  rateLimits: boolean;
  limiter: Limits;
  /** counts the HTTP buckets somewhere shared (Redis); its answer comes later */
  shared?: { hit(bucket: string, client: string, limit: number, nowMs: number): Promise<RateDecision> };
  clock: () => number;
  /** bytes from which a body compressed per request is gzipped on the libuv pool (0: never) */
  gzipOffLoop: number;
  /** while it sheds, answers made for one request are not compressed (compress-shed.ts); absent: always compressed */
  shed?: CompressionShed;
  log: Log;
  observe?: (route: string, bucket: string, status: number, ms: number, req: Observed) => void;
  /**
   * answers a request no route of this pipeline matches, instead of the 404 (a serving worker
   * forwards it to the main thread, server/serve/); it is then neither counted nor observed here
   */
  unrouted?: Pipeline;
}

/** the request headers a page may send when its preflight names none (or names them unreadably) */
const PREFLIGHT_HEADERS = 'Accept, Accept-Encoding, If-None-Match, Range, If-Range';
/** a list of header names as RFC 9110 spells them (tokens and commas), and not absurdly long */
const HEADER_LIST = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+(?:[ \t]*,[ \t]*[!#$%&'*+.^_`|~0-9A-Za-z-]+)*$/;

/**
 * A CORS preflight's answer: every header the page asks to send is allowed (echoed: no operation
 * reads a header it could abuse, and `*` would not cover Authorization), cached a day (browsers cap
 * it: Chromium at 2 h). it varies by what was asked, so a shared cache keys on that (Vary)
 */
function preflight(asked: string | undefined): Wire {
  const list = asked?.trim() ?? '';
  const allow = list.length > 0 && list.length <= 2048 && HEADER_LIST.test(list) ? list : PREFLIGHT_HEADERS;
  return {
    status: '204 No Content',
    headers: [
      ['Access-Control-Allow-Methods', 'GET, HEAD'],
      ['Access-Control-Allow-Headers', allow],
      ['Access-Control-Max-Age', '86400'],
      ['Cache-Control', 'public, max-age=86400'],
      ['Vary', 'Access-Control-Request-Method, Access-Control-Request-Headers'],
      ['Allow', 'GET, HEAD, OPTIONS'],
    ],
    body: Buffer.alloc(0),
  };
}

export type Pipeline = (r: Incoming, send: (w: Wire) => void, aborted: () => boolean) => void;

// per request: one plain object and no named closure (tsx keeps function names, which costs a
// defineProperty for every closure made; measured a tenth of a small request's JavaScript)
interface Flight {
  r: Incoming;
  write: (w: Wire) => void;
  aborted: () => boolean;
  nowMs: number;
  codings: Codings;
  head: boolean;
  started: number;
  path: string | null;
  route: string;
  bucket: string;
}

export function makePipeline(routes: Route[], opts: PipelineOptions): Pipeline {
  const router = new Router(routes);
  const { limiter, log, observe } = opts;
  const offLoop = opts.gzipOffLoop;
  const shed = opts.shed;

  function send(f: Flight, w: Wire): void {
    if (observe)
      observe(f.route, f.bucket, Number(w.status.slice(0, 3)), performance.now() - f.started, {
        method: f.r.method,
        path: f.path,
        get ip() {
          return f.r.ip();
        },
        bytes: f.head ? 0 : w.body.length,
      });
    if (f.aborted()) return;
    f.write(w);
  }

  function answer(f: Flight, match: Match, cache: string, d: RateDecision | null): void {
    const rl: [string, string][] = [];
    if (d) {
      rl.push(['RateLimit-Limit', String(d.limit)], ['RateLimit-Remaining', String(d.remaining)], ['RateLimit-Reset', String(d.resetS)]);
      if (!d.allowed) {
        const detail = `more than ${d.limit} requests in ${WINDOW_S} s to the ${match.route.bucket} bucket; wait ${d.resetS} s`;
        return send(f, encodeError(new ApiError(429, 'rate_limited', detail, { 'Retry-After': String(d.resetS) }), rl));
      }
    }
    const { r } = f;
    const req: Req = {
      method: r.method,
      path: f.path!,
      query: r.query,
      params: match.params,
      get ip() {
        return r.ip();
      },
      nowMs: f.nowMs,
      headers: r.headers,
    };
    try {
      const rep = match.route.handler(req);
      if (etagMatches(r.headers['if-none-match'], rep.etag)) return send(f, encodeNotModified(rep, cache, rl));
      // a saturated thread sends what would be compressed for this request alone as it is
      const compress = !shed || f.head || !(f.codings.gzip || f.codings.br) || shed.allow();
      const later = f.head || !compress ? null : gzipOffLoop(rep, f.codings, offLoop);
      if (!later) return send(f, encodeReply(rep, f.codings, cache, rl, compress));
      if (shed) shed.track(later);
      // a client gone meanwhile is not written to (send checks `aborted`)
      later.then(
        (z) => send(f, encodeReply(z, f.codings, cache, rl)),
        () => send(f, encodeReply(rep, { gzip: false, br: false }, cache, rl)),
      );
    } catch (e) {
      // log the route pattern, never the path: a path may carry a secret (a station's UUID)
      if (!(e instanceof ApiError)) log(`error ${r.method} ${match.route.pattern}: ${(e as Error)?.stack ?? String(e)}`, 'error');
      send(f, encodeError(e, rl));
    }
  }

  return (r, write, aborted) => {
    const f: Flight = {
      r,
      write,
      aborted,
      nowMs: opts.clock(),
      codings: acceptedCodings(r.headers['accept-encoding']),
      head: r.method === 'HEAD',
      started: performance.now(),
      path: null,
      route: 'unrouted',
      bucket: 'none',
    };
    const { method } = r;
    f.path = decodePath(r.rawPath);
    if (f.path === null) return send(f, encodeError(new ApiError(422, 'invalid_request', 'the path has broken percent-encoding'), []));
    const match = router.match(f.path);
    if (!match && opts.unrouted) return opts.unrouted(r, write, aborted);
    // the unroutable path is not echoed: it may carry a station UUID or whatever a prober sent
    if (!match) return send(f, encodeError(new ApiError(404, 'not_found', 'no such operation; /docs lists them all'), []));
    f.route = match.route.pattern;
    f.bucket = match.route.bucket;
    // a browser's CORS preflight: answered for any route, outside the rate limits (it costs nothing)
    if (method === 'OPTIONS') return send(f, preflight(r.headers['access-control-request-headers']));
    if (method !== 'GET' && !f.head) {
      return send(f, encodeError(new ApiError(405, 'invalid_request', `${method} is not supported: every operation is GET`, { Allow: 'GET, HEAD' }), []));
    }
    const policy = policyFor(match.route.bucket);
    if (!opts.rateLimits || policy.limit <= 0) return answer(f, match, policy.cache, null);
    if (!opts.shared) return answer(f, match, policy.cache, limiter.hit(match.route.bucket, rateKeyOf(r.ip()), policy.limit, f.nowMs));
    // the shared count answers later: the request is plain data already, and a client gone
    // meanwhile is neither handled nor written to; the address is read now, while it can be
    void opts.shared.hit(match.route.bucket, rateKeyOf(r.ip()), policy.limit, f.nowMs).then(
      (d) => aborted() || answer(f, match, policy.cache, d),
      // hit() never rejects; were it to, the request is served unlimited rather than failed
      () => aborted() || answer(f, match, policy.cache, null),
    );
  };
}
