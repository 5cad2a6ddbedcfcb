// per-IP, per-bucket fixed windows of WINDOW_S seconds (spec 8).
// memory is bounded: expired windows are swept, and past maxEntries the oldest window is dropped
// (that client simply starts a fresh window; a flood of distinct IPs cannot grow the map).

export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** seconds until the window resets */
  resetS: number;
}

interface Entry {
  start: number;
  count: number;
}

export class RateLimiter {
  private readonly windows = new Map<string, Entry>();
  private lastSweep = 0;

  constructor(
    private readonly windowS: number,
    private readonly maxEntries = 200_000,
  ) {}

  get size(): number {
    return this.windows.size;
  }

  hit(bucket: string, ip: string, limit: number, nowMs: number): RateDecision {
    const now = nowMs / 1000;
    if (now - this.lastSweep > this.windowS / 10) this.sweep(now);
    const key = `${bucket}\u0000${ip}`;
    let e = this.windows.get(key);
    if (!e || now - e.start >= this.windowS) {
      if (e) this.windows.delete(key);
      else if (this.windows.size >= this.maxEntries) this.evictOldest();
      e = { start: now, count: 0 };
      this.windows.set(key, e);
    }
    const resetS = Math.max(1, Math.ceil(e.start + this.windowS - now));
    if (e.count >= limit) return { allowed: false, limit, remaining: 0, resetS };
    e.count++;
    return { allowed: true, limit, remaining: limit - e.count, resetS };
  }

  private sweep(now: number): void {
    this.lastSweep = now;
    // insertion order = window start order, so stop at the first live window
    for (const [k, e] of this.windows) {
      if (now - e.start < this.windowS) break;
      this.windows.delete(k);
    }
  }

  private evictOldest(): void {
    const first = this.windows.keys().next();
    if (!first.done) this.windows.delete(first.value);
  }
}
