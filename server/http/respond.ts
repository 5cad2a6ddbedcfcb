// the one boundary where replies and typed errors become HTTP (status, headers, bytes).
import { gunzipSync, gzipSync, constants } from 'node:zlib';
import { ApiError, errorBody } from '../../lib/errors.ts';
import type { Payload, Reply } from './types.ts';

export interface Wire {
  status: string;
  headers: [string, string][];
  body: Buffer;
}

const STATUS: Record<number, string> = {
  200: '200 OK',
  304: '304 Not Modified',
  404: '404 Not Found',
  405: '405 Method Not Allowed',
  422: '422 Unprocessable Entity',
  426: '426 Upgrade Required',
  429: '429 Too Many Requests',
  500: '500 Internal Server Error',
  502: '502 Bad Gateway',
  503: '503 Service Unavailable',
};

/** bodies smaller than this are sent as they are: gzip would not pay for its header */
export const GZIP_MIN_BYTES = 1024;

/** Does an Accept-Encoding header accept gzip (and not with q=0)? */
export function acceptsGzip(header: string | undefined): boolean {
  if (!header) return false;
  for (const part of header.toLowerCase().split(',')) {
    const [coding, ...params] = part.trim().split(';');
    if (coding !== 'gzip' && coding !== '*') continue;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    return !q || Number(q.slice(2)) > 0;
  }
  return false;
}

// level 4: close to level 6's size at about half its cost, for bodies compressed per request
const onTheFly = { level: 4, strategy: constants.Z_DEFAULT_STRATEGY };

/** Choose the bytes for a payload: prepared gzip when accepted, else raw; compress or inflate as needed. */
function chooseEncoding(body: Payload, gzipOk: boolean): { bytes: Buffer; gzip: boolean } {
  if (gzipOk) {
    if (body.gz) return { bytes: body.gz, gzip: true };
    if (body.raw && body.raw.length >= GZIP_MIN_BYTES) return { bytes: gzipSync(body.raw, onTheFly), gzip: true };
    return { bytes: body.raw ?? Buffer.alloc(0), gzip: false };
  }
  if (body.raw) return { bytes: body.raw, gzip: false };
  return { bytes: body.gz ? gunzipSync(body.gz) : Buffer.alloc(0), gzip: false };
}

export function encodeReply(r: Reply, gzipOk: boolean, cacheControl: string, extra: [string, string][]): Wire {
  const { bytes, gzip } = chooseEncoding(r.body, gzipOk && !r.compressed);
  const headers: [string, string][] = [
    ['Content-Type', 'application/json; charset=utf-8'],
    ['Cache-Control', r.cacheControl ?? cacheControl],
    ['Vary', 'Accept-Encoding'],
    ...extra,
  ];
  if (gzip) headers.push(['Content-Encoding', 'gzip']);
  if (r.etag) headers.push(['ETag', r.etag]);
  for (const [k, v] of Object.entries(r.headers ?? {})) {
    const i = headers.findIndex(([h]) => h.toLowerCase() === k.toLowerCase());
    if (i >= 0) headers[i] = [k, v];
    else headers.push([k, v]);
  }
  return { status: STATUS[200]!, headers, body: bytes };
}

/** true when an If-None-Match header names this ETag (or is *); weak comparison (RFC 9110 13.1.2) */
export function etagMatches(ifNoneMatch: string | undefined, etag: string | undefined): boolean {
  if (!ifNoneMatch || !etag) return false;
  const weak = (t: string) => t.trim().replace(/^W\//, '');
  return ifNoneMatch.split(',').some((t) => t.trim() === '*' || weak(t) === weak(etag));
}

/** 304: the client's copy is current; the validator and cache headers, no body */
export function encodeNotModified(r: Reply, cacheControl: string, extra: [string, string][]): Wire {
  return { status: STATUS[304]!, headers: [['ETag', r.etag!], ['Cache-Control', r.cacheControl ?? cacheControl], ['Vary', 'Accept-Encoding'], ...extra], body: Buffer.alloc(0) };
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
