// the optional access log (--access-log): one event per HTTP answer, heard through the same observer
// as /metrics (ServerOptions.observe). what it leaves out is the point of this file:
// - the query string: a box or a point someone looks at says where they are interested; the route
//   and the status are what an operator needs
// - a station's UUID (/v1/stations/{uuid}): it is that station's secret; its path segment is logged
//   as the pattern's `:uuid`
// - the path of a request no route matched: a mistyped station URL would carry the UUID too
// - the client IP, unless --log-ips
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

/** the path with each segment the pattern names a secret replaced by the parameter's name */
export function maskedPath(pattern: string, path: string): string {
  const pat = pattern.split('/');
  if (!pat.some((s) => SECRET_PARAMS.has(s))) return path;
  return path
    .split('/')
    .map((seg, i) => (SECRET_PARAMS.has(pat[i] ?? '') ? pat[i]! : seg))
    .join('/');
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
