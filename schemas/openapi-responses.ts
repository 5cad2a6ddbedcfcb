// the responses of one operation in the OpenAPI document, and of its CORS preflight: each status the
// server sends for it (server/http/pipeline.ts, respond.ts and the route's handler), with the headers
// that status carries and no other. test/server/contract.slow.test.ts drives the real server into every
// one and checks each answer against what is written here.
import { policyFor } from './policy.ts';
import { ERROR_STATUS, type Operation } from './operations.ts';
import type { ErrorCode } from '../lib/errors.ts';

type Json = Record<string, unknown>;

const COMPONENT = '#/components/schemas/';

const CODE_TEXT: Record<ErrorCode, string> = {
  not_found: '`not_found`: nothing is known for the requested key',
  not_observed: '`not_observed`: the key is real but the network has not heard it',
  invalid_request: '`invalid_request`: malformed input; `detail` says what to fix',
  rate_limited: '`rate_limited`: the bucket limit is exceeded; wait `Retry-After` seconds',
  stale_snapshot: '`stale_snapshot`: the live snapshot is older than 60 s',
  artifact_unavailable: '`artifact_unavailable`: a required history artifact is not loaded',
  upstream_unavailable:
    '`upstream_unavailable`: a part of the service this answer needs did not answer in time (a serving thread waiting on the one that holds the route, --forward-timeout-ms)',
  internal_error: '`internal_error`: a fault inside the service; it is logged, and the detail says no more',
};

/** the Cache-Control of the preflight's 204 (server/http/pipeline.ts): browsers keep it a day */
const PREFLIGHT_CACHE = 'public, max-age=86400';

const int = { type: 'integer', minimum: 0 };
const text = { type: 'string', minLength: 1 };
const header = (description: string, schema: Json, required = true): Json => ({ description, required, schema });

/** Headers shared by many responses, as components (`#/components/headers/...`). */
export const HEADERS: Json = {
  'RateLimit-Limit': header('Requests allowed per window in this bucket.', int),
  'RateLimit-Remaining': header('Requests left in the current window.', int),
  'RateLimit-Reset': header('Seconds until the window resets.', int),
  'Retry-After': header('Seconds to wait before retrying.', { type: 'integer', minimum: 1 }),
  'Content-Encoding': header(
    '`br` or `gzip` when the client accepts it and the body is worth compressing; absent otherwise.',
    { type: 'string', enum: ['br', 'gzip'] },
    false,
  ),
};

const ref = (name: string) => ({ $ref: `#/components/headers/${name}` });

/** the three RateLimit headers of a counted request; `required` false where some answers of the status are refused before the count */
function rateHeaders(limited: boolean, required = true): Json {
  if (!limited) return {};
  if (required) {
    return { 'RateLimit-Limit': ref('RateLimit-Limit'), 'RateLimit-Remaining': ref('RateLimit-Remaining'), 'RateLimit-Reset': ref('RateLimit-Reset') };
  }
  const note = ' Absent when the request was refused before its bucket was counted (a path whose percent-encoding is broken, a refused stream upgrade).';
  return {
    'RateLimit-Limit': header(`Requests allowed per window in this bucket.${note}`, int, false),
    'RateLimit-Remaining': header(`Requests left in the current window.${note}`, int, false),
    'RateLimit-Reset': header(`Seconds until the window resets.${note}`, int, false),
  };
}

const cacheControl = (value: string) => header(`\`${value}\`.`, { type: 'string', const: value });

const errorContent = (codes: ErrorCode[], example: Json): Json => ({
  // $ref with a sibling (OpenAPI 3.1, JSON Schema 2020-12): the section-7 shape, narrowed to this status's codes
  'application/json': { schema: { $ref: `${COMPONENT}error`, type: 'object', properties: { error: { enum: codes } } }, example },
});

export interface ResponseOptions {
  /** the server counts requests against the buckets (false: --no-rate-limits, no RateLimit headers and no 429) */
  rateLimits: boolean;
  /** the 200 content, from the operation's response (openapi.ts) */
  content: Json | null;
}

/** is any request of this operation counted against a limited bucket? */
export const isLimited = (op: Operation, rateLimits: boolean) => rateLimits && policyFor(op.bucket).limit > 0;

const hasPathParams = (op: Operation) => op.parameters.some((p) => p.in === 'path');

/** every status of a GET (and of a HEAD, which answers the same without a body) of the operation */
export function getResponses(op: Operation, o: ResponseOptions): Json {
  const limited = isLimited(op, o.rateLimits);
  const cache = policyFor(op.bucket).cache;
  const out: Record<string, Json> = {};
  const ws = 'websocket' in op.response ? op.response.websocket : null;
  if (ws) {
    const plain = (description: string) => header(description, text);
    out['101'] = {
      description: `Switching Protocols: the connection is now a WebSocket; every text message the server sends is one \`${ws}\` (x-websocket-messages).`,
      headers: { Upgrade: plain('`websocket`.'), 'Sec-WebSocket-Accept': plain('The RFC 6455 handshake answer.') },
      // not a body: the messages that follow the switch (the usual way to name them in OpenAPI)
      content: { 'application/json': { schema: { $ref: COMPONENT + ws } } },
    };
    out['426'] = {
      description: '`invalid_request`: a plain GET without `Upgrade: websocket`; connect with a WebSocket client.',
      headers: { ...rateHeaders(limited), 'Cache-Control': cacheControl('no-store'), Upgrade: plain('`websocket`.') },
      content: errorContent(['invalid_request'], {
        error: 'invalid_request',
        detail: '/v1/stream is a WebSocket: connect with a WebSocket client (Upgrade: websocket)',
      }),
    };
  } else {
    const etag = op.etag ? { ETag: header('The validator of this answer; send it back as `If-None-Match` to get a 304 while it is current.', text) } : {};
    // a file served as it is stored: never re-encoded, ranges and their validators
    const file = op.ranges
      ? {
          'Accept-Ranges': header('`bytes`: single byte ranges are served.', { const: 'bytes' }),
          'Last-Modified': header('When the file was written (HTTP date).', text),
        }
      : { 'Content-Encoding': ref('Content-Encoding') };
    const okHeaders = { ...rateHeaders(limited), 'Cache-Control': cacheControl(cache), ...etag, ...file };
    out['200'] = { description: `OK. Cache-Control: \`${cache}\`.`, headers: okHeaders, content: o.content };
    if (op.ranges) {
      out['206'] = {
        description: 'Partial Content: the one byte range the `Range` header asked for (several ranges, or another unit, get the whole file as 200).',
        headers: { ...okHeaders, 'Content-Range': header('`bytes first-last/size`.', { type: 'string', pattern: '^bytes [0-9]+-[0-9]+/[0-9]+$' }) },
        content: o.content,
      };
    }
    if (op.etag) {
      out['304'] = {
        description: 'Not Modified: the `If-None-Match` header names the current ETag; no body.',
        headers: { ...rateHeaders(limited), 'Cache-Control': cacheControl(cache), ...etag },
      };
    }
    if (op.ranges) {
      out['416'] = {
        description: '`invalid_request`: the range is malformed or starts past the end of the file.',
        headers: {
          ...rateHeaders(limited),
          'Cache-Control': cacheControl('no-store'),
          'Content-Range': header('`bytes */size`.', { type: 'string', pattern: '^bytes \\*/[0-9]+$' }),
        },
        content: errorContent(['invalid_request'], {
          error: 'invalid_request',
          detail: 'the range "bytes=9999999-" starts past the end of the file; send bytes=first-last or bytes=-suffix',
        }),
      };
    }
  }
  // every operation can meet a fault of its own; a limited one can be rate limited
  const codes = new Set<ErrorCode>([...op.errors, 'internal_error']);
  if (limited) codes.add('rate_limited');
  // an HTTP operation may be asked on a serving thread whose wait for the thread that holds the
  // route runs out (server/serve/forward.ts)
  if (!ws) codes.add('upstream_unavailable');
  // a broken percent-encoding in the path is refused for every route before routing (pipeline.ts)
  if (hasPathParams(op)) codes.add('invalid_request');
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes) byStatus.set(ERROR_STATUS[code], [...(byStatus.get(ERROR_STATUS[code]) ?? []), code]);
  for (const [status, list] of byStatus) {
    const retry = status === 429 || status === 503 ? { 'Retry-After': ref('Retry-After') } : {};
    // a 422 may be the router's (no bucket counted yet) or a refused upgrade's
    const counted = !(status === 422 && (hasPathParams(op) || ws));
    const broken = status === 422 && hasPathParams(op) ? ' Also for a path whose percent-encoding is broken.' : '';
    out[String(status)] = {
      description: list.map((c) => CODE_TEXT[c]).join('; ') + '.' + broken,
      headers: { ...rateHeaders(limited, counted), 'Cache-Control': cacheControl('no-store'), ...retry },
      content: errorContent(list, { error: list[0], detail: CODE_TEXT[list[0]!].replace(/^`[^`]+`: /, '') }),
    };
  }
  // any method but GET, HEAD and OPTIONS on a known path; refused before any bucket is counted
  out['405'] = {
    description: '`invalid_request`: the method is not GET, HEAD or OPTIONS; `Allow` names the ones that fetch.',
    headers: { 'Cache-Control': cacheControl('no-store'), Allow: header('The methods that fetch: `GET, HEAD`.', text) },
    content: errorContent(['invalid_request'], { error: 'invalid_request', detail: 'POST is not supported: every operation is GET' }),
  };
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => Number(a) - Number(b)));
}

/** the CORS preflight a browser sends before a cross-origin GET: answered for every route, outside the limits */
export function preflightResponses(op: Operation): Json {
  const out: Json = {
    '204': {
      description: 'No Content: the methods and request headers a page on any origin may use, cached for a day.',
      headers: {
        'Access-Control-Allow-Methods': header('The methods a page may use: `GET, HEAD`.', text),
        'Access-Control-Allow-Headers': header('The request headers a page may send.', text),
        'Access-Control-Max-Age': header('Seconds the browser may keep this answer.', int),
        Allow: header('The methods of the path: `GET, HEAD, OPTIONS`.', text),
        'Cache-Control': cacheControl(PREFLIGHT_CACHE),
      },
    },
  };
  if (hasPathParams(op)) {
    out['422'] = {
      description: "`invalid_request`: the path's percent-encoding is broken (refused before routing, for every method).",
      headers: { 'Cache-Control': cacheControl('no-store') },
      content: errorContent(['invalid_request'], { error: 'invalid_request', detail: 'the path has broken percent-encoding' }),
    };
  }
  return out;
}
