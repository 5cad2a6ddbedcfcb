// the optional access log (--access-log): one event per HTTP answer, heard through the same observer
// as /metrics (ServerOptions.observe). what it leaves out is the point of this file:
// - the query string: a box or a point someone looks at says where they are interested; the route
//   and the status are what an operator needs
// - a station's UUID (/v1/stations/{uuid}): it is that station's secret; its path segment is logged
//   as the pattern's `:uuid`. the segment is found as the router finds it (router.ts segmentsOf:
//   empty segments dropped, after percent-decoding), so every spelling the router routes there
//   (`//v1/stations/<uuid>`, `/v1/stations//<uuid>/`, `%37f..`) is masked; and anything shaped like
//   a UUID in any logged path is masked too (a station UUID pasted into another route's URL)
// - the path of a request no route matched: a mistyped station URL would carry the UUID too
// - the client IP, unless --log-ips
import { segmentsOf } from './http/router.ts';
import type { Observed } from './http/types.ts';

/** path parameters that are secrets: their segment is never logged */
const SECRET_PARAMS = new Set([':uuid']);

export interface AccessEntry {
  method: string;
  /** the route pattern (`unrouted` when none matched) */
  route: string;
  /** the path as asked, secrets masked; absent when no route matched */
  path?: string;
  status: number;
  /** the rate-limit bucket */
  bucket: string;
  /** time to answer, ms (to 0.01) */
  ms: number;
  /** body bytes sent (0 for HEAD); before compression when the client took no gzip */
  bytes: number;
  ip?: string;
}

// a hex digit, also percent-encoded (a path is decoded once: `%2537` reaches here as `%37`), and
// the dash between groups, optional (canonicalUuid takes 32 bare digits too)
const HEX = '(?:[0-9a-f]|%3[0-9]|%[46][1-6])';
const DASH = '(?:-|%2d)?';
/** 32 hex digits in the 8-4-4-4-12 groups of a UUID, dashes optional, any case */
const UUID_SHAPED = new RegExp(`${HEX}{8}${DASH}${HEX}{4}${DASH}${HEX}{4}${DASH}${HEX}{4}${DASH}${HEX}{12}`, 'gi');

/** Anything shaped like a UUID in a text replaced by `:uuid` (every logged path goes through it). */
const withoutUuids = (text: string): string => text.replace(UUID_SHAPED, ':uuid');

/** the path with each segment the pattern names a secret replaced by the parameter's name, and anything UUID-shaped masked */
export function maskedPath(pattern: string, path: string): string {
  const pat = segmentsOf(pattern);
  if (!pat.some((s) => SECRET_PARAMS.has(s))) return withoutUuids(path);
  // rebuilt from the routed segments: the spelling's extra slashes are not kept
  return withoutUuids(
    '/' +
      segmentsOf(path)
        .map((seg, i) => (SECRET_PARAMS.has(pat[i] ?? '') ? pat[i]! : seg))
        .join('/'),
  );
}

export function accessEntry(route: string, bucket: string, status: number, ms: number, req: Observed, logIps: boolean): AccessEntry {
  return {
    method: req.method,
    route,
    ...(route !== 'unrouted' && req.path !== null ? { path: maskedPath(route, req.path) } : {}),
    status,
    bucket,
    ms: Math.round(ms * 100) / 100,
    bytes: req.bytes,
    ...(logIps ? { ip: req.ip } : {}),
  };
}
