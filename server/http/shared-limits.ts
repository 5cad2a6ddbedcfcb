// rate-limit windows kept in Redis, so that several live servers behind one front count ONE budget
// per client and bucket (spec 8). the counting is rate-limiter-flexible's (one Lua script per
// request: SET NX with the window's TTL, INCRBY, PTTL), the connection ioredis's.
//
// when Redis cannot answer (down, unreachable, slower than COMMAND_TIMEOUT_MS) no request is refused
// or failed for it: this process counts in its own memory (ratelimit.ts, the single-server limiter)
// until Redis answers again (asked again at most once a second while it hangs). one warning when that starts, one line when Redis is back; never one
// per request. ioredis reconnects by itself (a growing pause, at most 2 s).
import { Redis } from 'ioredis';
import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { RateLimiter, type RateDecision } from './ratelimit.ts';
import type { Log } from '../../lib/log.ts';

/** a Redis answer slower than this counts as Redis being away (the request is then counted here) */
const COMMAND_TIMEOUT_MS = 500;
/** after a failed or timed-out command, requests are counted here this long before Redis is asked again */
const RETRY_AFTER_MS = 1000;
const KEY_PREFIX = 'contrail:rl';

export interface SharedLimitsOptions {
  /** redis:// or rediss:// URL */
  url: string;
  windowS: number;
  log: Log;
}

export class SharedLimits {
  private readonly redis: Redis;
  private readonly byBucket = new Map<string, RateLimiterRedis>();
  private readonly local: RateLimiter;
  private readonly log: Log;
  private readonly where: string;
  /** Redis is away: requests are counted in this process */
  private away = false;
  /** while away and connected, Redis is asked again from this time (a Redis that hangs is not waited on per request) */
  private retryAtMs = 0;

  constructor(private readonly o: SharedLimitsOptions) {
    this.log = o.log;
    this.local = new RateLimiter(o.windowS);
    this.where = redactedUrl(o.url);
    this.redis = new Redis(o.url, {
      // a command while disconnected fails at once instead of queueing behind the outage
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      commandTimeout: COMMAND_TIMEOUT_MS,
      retryStrategy: (times) => Math.min(times * 100, 2000),
    });
    // ioredis emits one 'error' per failed reconnect: each only marks Redis away (logged once)
    this.redis.on('error', (e: Error) => this.goneAway(e));
    this.redis.on('ready', () => this.cameBack());
  }

  /** resolves once Redis is connected, or has failed once (then logged), or after `ms` */
  ready(ms = 3000): Promise<void> {
    if (this.redis.status === 'ready') return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(t);
        this.redis.off('ready', done);
        this.redis.off('error', done);
        resolve();
      };
      const t = setTimeout(() => {
        this.goneAway(new Error(`not connected after ${ms} ms`));
        done();
      }, ms);
      this.redis.once('ready', done);
      this.redis.once('error', done);
    });
  }

  /** counts one request of `client` (client-ip.ts rateKeyOf) in `bucket`; never rejects */
  async hit(bucket: string, client: string, limit: number, nowMs: number): Promise<RateDecision> {
    if (this.away && (this.redis.status !== 'ready' || Date.now() < this.retryAtMs)) return this.counted(bucket, client, limit, nowMs);
    try {
      const r = await this.limiterOf(bucket, limit).consume(client);
      this.cameBack();
      return decision(r, limit, true);
    } catch (e) {
      if (e instanceof RateLimiterRes) {
        this.cameBack();
        return decision(e, limit, false);
      }
      this.goneAway(e as Error);
      this.retryAtMs = Date.now() + RETRY_AFTER_MS;
      return this.counted(bucket, client, limit, nowMs);
    }
  }

  close(): void {
    this.redis.disconnect();
  }

  private counted(bucket: string, client: string, limit: number, nowMs: number): RateDecision {
    return this.local.hit(bucket, client, limit, nowMs);
  }

  private limiterOf(bucket: string, limit: number): RateLimiterRedis {
    const key = `${bucket}:${limit}`;
    let l = this.byBucket.get(key);
    if (!l) {
      l = new RateLimiterRedis({
        storeClient: this.redis,
        keyPrefix: `${KEY_PREFIX}:${bucket}`,
        points: limit,
        duration: this.o.windowS,
        // an ioredis that is not connected throws at once, without a round trip
        rejectIfRedisNotReady: true,
      });
      this.byBucket.set(key, l);
    }
    return l;
  }

  private goneAway(e: Error): void {
    if (this.away) return;
    this.away = true;
    this.log(
      `rate limits: Redis at ${this.where} does not answer (${e.message.split('\n')[0]}); counting in this process until it does (limits are per server meanwhile)`,
      'warn',
    );
  }

  private cameBack(): void {
    if (!this.away) return;
    this.away = false;
    this.log(`rate limits: Redis at ${this.where} answers again; limits are shared again`);
  }
}

function decision(r: RateLimiterRes, limit: number, allowed: boolean): RateDecision {
  return { allowed, limit, remaining: allowed ? r.remainingPoints : 0, resetS: Math.max(1, Math.ceil(r.msBeforeNext / 1000)) };
}

/** the URL without its password, for the log */
export function redactedUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString().replace(/\/$/, '');
  } catch {
    return '(unparsable URL)';
  }
}
