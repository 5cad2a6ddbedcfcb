// typed API errors: thrown anywhere, mapped to HTTP once, in server/http/respond.ts (spec section 7)

export type ErrorCode =
  | 'not_found'
  | 'not_observed'
  | 'invalid_request'
  | 'rate_limited'
  | 'stale_snapshot'
  | 'artifact_unavailable'
  | 'upstream_unavailable'
  // not in spec 7's set: none of its codes is true of a fault inside the service itself (500)
  | 'internal_error';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    readonly detail: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(`${code}: ${detail}`);
    this.name = 'ApiError';
  }
}

/** 422: the request is malformed; `detail` says what to fix. */
export const invalidRequest = (detail: string) => new ApiError(422, 'invalid_request', detail);

/** 404 `not_found`: the key is unknown to the reference data (or is not a thing at all). */
export const notFound = (detail: string) => new ApiError(404, 'not_found', detail);

/** 404 `not_observed`: the key is a real thing, but the network has not heard it. */
export const notObserved = (detail: string) => new ApiError(404, 'not_observed', detail);

/** 503 `stale_snapshot`: the live snapshot is older than the limit. */
export const staleSnapshot = (detail: string, retryAfterS: number) =>
  new ApiError(503, 'stale_snapshot', detail, { 'Retry-After': String(Math.max(1, Math.ceil(retryAfterS))) });

/** 503 `artifact_unavailable`: no published history artifact tree is loaded. */
export const artifactUnavailable = (detail: string, retryAfterS = 300) =>
  new ApiError(503, 'artifact_unavailable', detail, { 'Retry-After': String(retryAfterS) });

/** The JSON body of every non-200 response. */
export function errorBody(code: ErrorCode, detail: string): string {
  return JSON.stringify({ error: code, detail });
}
