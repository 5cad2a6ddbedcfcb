// retries of one object-storage request: throttling (503 SlowDown, 429), other 5xx, timeouts and
// dropped connections are retried with exponential back-off and full jitter (a random wait between
// 0 and base * 2^attempt, capped), at most `retries` times; anything else (403, 404, a bad request)
// fails at once. the final error names the request, the attempts and the last cause.

export interface RetryPolicy {
  /** retries after the first attempt (0: one attempt only) */
  retries: number;
  /** back-off ceiling of the first retry, doubled each retry */
  baseMs: number;
  /** no single wait above this */
  capMs: number;
}

/** 8 retries: the ceilings are 0.1, 0.2, ... 12.8 s, about 25 s of waiting at most in all */
export const DEFAULT_RETRY: RetryPolicy = { retries: 8, baseMs: 100, capMs: 20_000 };

const NETWORK_CODES = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EAI_AGAIN',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_SOCKET',
]);
const RETRYABLE_NAMES = new Set([
  'SlowDown',
  'Throttling',
  'ThrottlingException',
  'TooManyRequestsException',
  'RequestTimeout',
  'RequestTimeoutException',
  'InternalError',
  'ServiceUnavailable',
  'TimeoutError',
]);

interface ErrorLike {
  name?: string;
  code?: string;
  message?: string;
  $metadata?: { httpStatusCode?: number };
}

/** What went wrong, in a few words: `503 SlowDown`, `ECONNRESET`, `403 AccessDenied`. */
export function describe(e: unknown): string {
  const err = (e ?? {}) as ErrorLike;
  const status = err.$metadata?.httpStatusCode;
  const name = err.code && NETWORK_CODES.has(err.code) ? err.code : err.name && err.name !== 'Error' ? err.name : (err.message ?? String(e));
  return status ? `${status} ${name}` : String(name);
}

/** true for errors worth another attempt: throttling, 5xx, timeouts, dropped connections */
export function retryable(e: unknown): boolean {
  const err = (e ?? {}) as ErrorLike;
  const status = err.$metadata?.httpStatusCode;
  if (status === 429 || (status !== undefined && status >= 500)) return true;
  if (err.name && RETRYABLE_NAMES.has(err.name)) return true;
  if (err.code && NETWORK_CODES.has(err.code)) return true;
  // node's http client reports a connection closed before the answer this way
  return /socket hang up|ECONNRESET|EPIPE/.test(err.message ?? '');
}

/** The wait before retry `attempt` (1-based): full jitter, rand() * min(cap, base * 2^(attempt-1)). */
export function backoffMs(attempt: number, p: Pick<RetryPolicy, 'baseMs' | 'capMs'>, rand: () => number): number {
  return Math.floor(rand() * Math.min(p.capMs, p.baseMs * 2 ** (attempt - 1)));
}

/** a request that failed for good: what it was, how often it was tried, the last cause */
export class RequestFailed extends Error {
  override name = 'RequestFailed';
  constructor(
    readonly what: string,
    readonly attempts: number,
    override readonly cause: unknown,
  ) {
    super(attempts > 1 ? `${what}: gave up after ${attempts} attempts, last: ${describe(cause)}` : `${what}: ${describe(cause)} (not retried)`);
  }
}

export interface Retrier {
  policy: RetryPolicy;
  rand: () => number;
  sleep: (ms: number) => Promise<void>;
  /** called before each retry (counting, logging) */
  onRetry?: (what: string, attempt: number, e: unknown, waitMs: number) => void;
}

/** Run `fn` until it succeeds, a non-retryable error, or the retries are spent. */
export async function withRetry<T>(what: string, fn: () => Promise<T>, r: Retrier): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn();
    } catch (e) {
      if (!retryable(e) || attempt > r.policy.retries) throw new RequestFailed(what, attempt, e);
      const wait = backoffMs(attempt, r.policy, r.rand);
      r.onRetry?.(what, attempt, e, wait);
      await r.sleep(wait);
    }
  }
}
