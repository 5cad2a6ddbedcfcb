// the contract between the uWebSockets.js adapter and the route handlers.
// handlers see plain data (no uws objects), so they are testable without a socket.

export interface Req {
  /** upper-case method, e.g. GET */
  method: string;
  /** decoded path, e.g. /v1/trace/abc123 */
  path: string;
  /** the raw query string without `?` */
  query: string;
  /** path parameters filled by the router, e.g. {hex: 'abc123'} */
  params: Record<string, string>;
  /** the client's IP (see client-ip.ts) */
  ip: string;
  /** the request's clock reading, unix milliseconds */
  nowMs: number;
  /** lower-cased request headers the handlers may read */
  headers: Record<string, string>;
}

/** A body prepared once: raw bytes, gzip bytes, or both (and brotli beside them). The adapter picks by Accept-Encoding. */
export interface Payload {
  raw?: Buffer;
  gz?: Buffer;
  br?: Buffer;
  /**
   * `raw` is a view of a scratch buffer the handler's thread reuses for its next answer (a point
   * answer: server/live/snapshot.ts): valid while this request is handled, so whatever keeps
   * it longer (an off-loop gzip, a socket under backpressure) copies it first
   */
  transient?: boolean;
  /**
   * shared by the requests of a snapshot (a common box): a gzip or brotli the boundary makes for
   * one request is kept here for the next, until the snapshot's own is ready (server/live/snapshot.ts)
   */
  keep?: boolean;
}

export interface Reply {
  body: Payload;
  /** extra headers; Content-Type defaults to application/json */
  headers?: Record<string, string>;
  /** overrides the bucket's Cache-Control (e.g. no-store for a private record) */
  cacheControl?: string;
  /** the bytes go out as they are, never gzipped (a Parquet file, a range of one) */
  compressed?: boolean;
  /** strong validator of the body; a request whose If-None-Match names it gets a 304 */
  etag?: string;
  /** 206: the body is the part of a file its Content-Range header (in `headers`) names */
  partial?: boolean;
  /** a HEAD answered without reading the file: the Content-Length a GET would send */
  headLength?: number;
}

// synchronous on purpose: uWebSockets.js drops a keep-alive connection whose next (pipelined)
// request arrives while an earlier response on it is still pending, losing every answer on it.
// a handler that answers at once can never leave one pending (test/server/http/wire.slow.test.ts).
type Handler = (req: Req) => Reply;

export interface Route {
  /** path pattern with :named segments, e.g. /v1/trace/:hex; a trailing * matches the rest */
  pattern: string;
  /** rate-limit and cache bucket, see policy.ts */
  bucket: string;
  handler: Handler;
}

const jsonPayload = (value: unknown): Payload => ({ raw: Buffer.from(JSON.stringify(value)) });
export const reply = (value: unknown, extra?: Partial<Reply>): Reply => ({ body: jsonPayload(value), ...extra });

/** an answered request as the access log may see it (server/access-log.ts decides what it keeps) */
export interface Observed {
  method: string;
  /** the decoded path, null when undecodable */
  path: string | null;
  ip: string;
  /** body bytes sent */
  bytes: number;
}
