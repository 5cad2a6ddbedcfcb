// the one boundary where replies and typed errors become HTTP (status, headers, bytes).
import { brotliCompressSync, gunzipSync, gzip, gzipSync, constants } from 'node:zlib';
import { promisify } from 'node:util';
import { ApiError, errorBody } from '../../lib/errors.ts';
import type { Payload, Reply } from './types.ts';
import { brotliOptions } from '../../lib/brotli.ts';

export interface Wire {
  status: string;
  headers: [string, string][];
  body: Buffer;
  /** the Content-Length of a HEAD answer, when it is not body.length (a file not read) */
  headLength?: number;
  /** the body is a scratch buffer's view (Payload.transient): copied if kept past the write */
  transient?: boolean;
}

const STATUS: Record<number, string> = {
  200: '200 OK',
  206: '206 Partial Content',
  304: '304 Not Modified',
  404: '404 Not Found',
  405: '405 Method Not Allowed',
  416: '416 Range Not Satisfiable',
  422: '422 Unprocessable Entity',
  426: '426 Upgrade Required',
  429: '429 Too Many Requests',
  500: '500 Internal Server Error',
  502: '502 Bad Gateway',
  503: '503 Service Unavailable',
};

/** bodies smaller than this are sent as they are: gzip would not pay for its header */
export const GZIP_MIN_BYTES = 1024;

/**
 * A body prepared once for the server's whole life (the map's files, the docs page): with its gzip
 * and its brotli (quality 9: within 2 % of 11 on these files, at a fraction of its start-up time).
 */
export function staticPayload(raw: Buffer): Payload {
  if (raw.length < GZIP_MIN_BYTES) return { raw };
  return { raw, gz: gzipSync(raw, { level: 9 }), br: brotliCompressSync(raw, brotliOptions(9, raw.length)) };
}

/** the content codings a request accepts that this server can send */
export interface Codings {
  gzip: boolean;
  br: boolean;
}

const NO_CODINGS: Codings = { gzip: false, br: false };

// clients send a handful of distinct headers (every browser the same one): each is read once
const codingsSeen = new Map<string, Codings>();
const CODINGS_SEEN_MAX = 256;

/** Which of gzip and br an Accept-Encoding header accepts (q=0 refuses; `*` stands for those not named). */
export function acceptedCodings(header: string | undefined): Codings {
  if (!header) return NO_CODINGS;
  const seen = codingsSeen.get(header);
  if (seen) return seen;
  const named: Partial<Record<string, boolean>> = {};
  for (const part of header.toLowerCase().split(',')) {
    const [coding, ...params] = part.trim().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    named[coding!.trim()] = !q || Number(q.slice(2)) > 0;
  }
  const star = named['*'] ?? false;
  const c: Codings = Object.freeze({ gzip: named.gzip ?? star, br: named.br ?? star });
  // bounded: a client sending a new header each time only costs the parse it would have cost
  if (codingsSeen.size < CODINGS_SEEN_MAX) codingsSeen.set(header, c);
  return c;
}

/** Does an Accept-Encoding header accept gzip (and not with q=0)? */
export const acceptsGzip = (header: string | undefined): boolean => acceptedCodings(header).gzip;

// bodies compressed per request: level 1, half level 4's CPU for 4-8 % more bytes (a 250 nm point:
// 0.27 against 0.57 ms, 13.9 against 12.8 KB); up to SMALL_BODY a 4 KiB window and small hash
// tables too, since zlib's set-up for its default 32 KiB window is most of the cost of a small
// answer (a 25 nm point, 2.6 KB: 15 µs against 43 µs at level 4, 802 against 769 bytes).
// measured by a probe script (not kept) on the 12k snapshot's records (docs/perf-log/live-api.md)
const SMALL_BODY = 4096;
const onTheFly = { level: 1, strategy: constants.Z_DEFAULT_STRATEGY };
const onTheFlySmall = { ...onTheFly, windowBits: 12, memLevel: 4 };
const perRequest = (raw: Buffer) => (raw.length <= SMALL_BODY ? onTheFlySmall : onTheFly);
// for a client that accepts brotli and not gzip: quality 1 costs about what gzip level 1 does and
// sends about as many bytes (a small window for small bodies, as for gzip above)
const brotliPerRequest = (raw: Buffer) => ({
  params: {
    [constants.BROTLI_PARAM_QUALITY]: 1,
    [constants.BROTLI_PARAM_SIZE_HINT]: raw.length,
    ...(raw.length <= SMALL_BODY && { [constants.BROTLI_PARAM_LGWIN]: 12 }),
  },
});
const gzipPool = promisify(gzip);

/**
 * The reply with its body gzipped on the libuv pool (off the serving thread), when it would be
 * compressed per request and is at least `minBytes` long; null when it is sent as it is.
 */
export function gzipOffLoop(r: Reply, codings: Codings, minBytes: number): Promise<Reply> | null {
  const b = r.body;
  if (minBytes <= 0 || r.compressed || !codings.gzip || b.gz || (codings.br && b.br) || !b.raw || b.raw.length < minBytes) return null;
  // a scratch buffer's view is overwritten by the thread's next answer: the pool reads a copy
  const raw = b.transient ? Buffer.from(b.raw) : b.raw;
  // should the gzip fail, the copy goes out as it is
  return gzipPool(raw, perRequest(raw)).then(
    (gz) => ({ ...r, body: { gz } }),
    () => ({ ...r, body: { raw }, compressed: true }),
  );
}

type Coding = 'br' | 'gzip' | null;

/**
 * Choose the bytes for a payload: prepared brotli or gzip when accepted, else raw; compress or
 * inflate as needed. `compressNow` false: a body with no prepared encoding goes out as it is
 * (compression shed: compress-shed.ts).
 */
function chooseEncoding(body: Payload, ok: Codings, compressNow: boolean): { bytes: Buffer; coding: Coding } {
  if (ok.br && body.br) return { bytes: body.br, coding: 'br' };
  if (ok.gzip) {
    if (body.gz) return { bytes: body.gz, coding: 'gzip' };
    if (compressNow && body.raw && body.raw.length >= GZIP_MIN_BYTES) {
      const gz = gzipSync(body.raw, perRequest(body.raw));
      if (body.keep) body.gz = gz;
      return { bytes: gz, coding: 'gzip' };
    }
    return { bytes: body.raw ?? Buffer.alloc(0), coding: null };
  }
  const raw = body.raw ?? (body.gz ? gunzipSync(body.gz) : Buffer.alloc(0));
  // brotli wherever gzip would be (a stored gzip goes to gzip clients whatever its size), for a client that takes brotli alone
  if (ok.br && compressNow && (raw.length >= GZIP_MIN_BYTES || body.gz)) {
    const br = brotliCompressSync(raw, brotliPerRequest(raw));
    if (body.keep) body.br = br;
    return { bytes: br, coding: 'br' };
  }
  return { bytes: raw, coding: null };
}

/**
 * The headers every JSON answer of a cache policy starts with, as ONE pre-built pair: uWS writes
 * `key: value\r\n` verbatim, so a value holding further `\r\nName: value` lines writes a whole
 * block in one native call (built once per policy, not per request). only for constant text of
 * our own: nothing a client sends ever goes into a block.
 */
const jsonBlocks = new Map<string, [string, string]>();
export function headerBlock(headers: readonly [string, string][]): [string, string] {
  const [first, ...rest] = headers;
  return [first![0], [first![1], ...rest.map(([k, v]) => `${k}: ${v}`)].join('\r\n')];
}
function jsonBlock(cacheControl: string): [string, string] {
  let b = jsonBlocks.get(cacheControl);
  if (!b)
    jsonBlocks.set(
      cacheControl,
      (b = headerBlock([
        ['Content-Type', 'application/json; charset=utf-8'],
        ['Cache-Control', cacheControl],
        ['Vary', 'Accept-Encoding'],
      ])),
    );
  return b;
}

export function encodeReply(r: Reply, codings: Codings, cacheControl: string, extra: [string, string][], compressNow = true): Wire {
  const { bytes, coding } = chooseEncoding(r.body, r.compressed ? NO_CODINGS : codings, compressNow);
  if (!r.headers) {
    // the common case: the policy's pre-built block, then what varies
    const headers = [jsonBlock(r.cacheControl ?? cacheControl), ...extra];
    if (coding) headers.push(['Content-Encoding', coding]);
    if (r.etag) headers.push(['ETag', r.etag]);
    return { status: STATUS[200]!, headers, body: bytes, ...(r.body.transient && bytes === r.body.raw && { transient: true }) };
  }
  const headers: [string, string][] = [
    ['Content-Type', 'application/json; charset=utf-8'],
    ['Cache-Control', r.cacheControl ?? cacheControl],
    ['Vary', 'Accept-Encoding'],
    ...extra,
  ];
  if (coding) headers.push(['Content-Encoding', coding]);
  if (r.etag) headers.push(['ETag', r.etag]);
  for (const [k, v] of Object.entries(r.headers)) {
    const i = headers.findIndex(([h]) => h.toLowerCase() === k.toLowerCase());
    if (i >= 0) headers[i] = [k, v];
    else headers.push([k, v]);
  }
  return {
    status: STATUS[r.partial ? 206 : 200]!,
    headers,
    body: bytes,
    ...(r.headLength === undefined ? {} : { headLength: r.headLength }),
    ...(r.body.transient && bytes === r.body.raw && { transient: true }),
  };
}

/** true when an If-None-Match header names this ETag (or is *); weak comparison (RFC 9110 13.1.2) */
export function etagMatches(ifNoneMatch: string | undefined, etag: string | undefined): boolean {
  if (!ifNoneMatch || !etag) return false;
  const weak = (t: string) => t.trim().replace(/^W\//, '');
  return ifNoneMatch.split(',').some((t) => t.trim() === '*' || weak(t) === weak(etag));
}

/** 304: the client's copy is current; the validator and cache headers, no body */
export function encodeNotModified(r: Reply, cacheControl: string, extra: [string, string][]): Wire {
  return {
    status: STATUS[304]!,
    headers: [['ETag', r.etag!], ['Cache-Control', r.cacheControl ?? cacheControl], ['Vary', 'Accept-Encoding'], ...extra],
    body: Buffer.alloc(0),
  };
}

/** Any thrown value becomes a section-7 error response; unknown errors are logged by the caller. */
export function encodeError(err: unknown, extra: [string, string][]): Wire {
  const e =
    err instanceof ApiError
      ? err
      : // a fault of our own: none of spec 7's codes is true of it (upstream_unavailable names an
        // outside source), so it gets its own code; the stack goes to the log, never the body
        new ApiError(500, 'internal_error', 'an internal fault; the service logged it');
  const headers: [string, string][] = [
    ['Content-Type', 'application/json; charset=utf-8'],
    ['Cache-Control', 'no-store'],
    ...extra,
    ...Object.entries(e.headers),
  ];
  return { status: STATUS[e.status] ?? `${e.status} Error`, headers, body: Buffer.from(errorBody(e.code, e.detail)) };
}
