// per-client, per-bucket fixed windows of WINDOW_S seconds (spec 8).
//
// memory is bounded without ever handing a limited client a fresh budget: when the table is full,
// a new window may only push out one that has seen a single request (it cannot have been
// limited, and gets back at most that one request). when the oldest windows have all seen more,
// the newcomer is counted in one of a fixed set of shared slots per bucket, keyed by a hash of
// the client: under a flood of new addresses some newcomers share a budget, and every client
// that already spent its own keeps its window until the window ends.

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

export interface RateLimiterOptions {
  /** windows held at most (about 100 bytes each) */
  maxEntries?: number;
  /** shared slots per bucket for newcomers while the table is full of busy windows */
  overflowSlots?: number;
}

export class RateLimiter {
  private readonly windows = new Map<string, Entry>();
  private readonly overflow = new Map<string, Entry>();
  // keys of windows that may go, oldest first: pushed when a window opens, skipped once it has
  // seen a second request (a window's count only grows). a queue, because scanning the front of a
  // full Map re-skips its deleted slots on every call (quadratic under a flood)
  private candidates: string[] = [];
  private head = 0;
  private lastSweep = 0;
  private readonly maxEntries: number;
  private readonly overflowSlots: number;
  /** newcomers counted in a shared slot since start (a flood is on) */
  overflowHits = 0;

  constructor(
    private readonly windowS: number,
    opts: RateLimiterOptions = {},
  ) {
    this.maxEntries = opts.maxEntries ?? 200_000;
    this.overflowSlots = opts.overflowSlots ?? 4096;
  }

  get size(): number {
    return this.windows.size;
  }

  /** `client` is the rate key of the client (client-ip.ts rateKeyOf) */
  hit(bucket: string, client: string, limit: number, nowMs: number): RateDecision {
    const now = nowMs / 1000;
    if (now - this.lastSweep > this.windowS / 10) this.sweep(now);
    const key = `${bucket}\u0000${client}`;
    let e = this.windows.get(key);
    if (e && now - e.start >= this.windowS) {
      this.windows.delete(key);
      e = undefined;
    }
    if (!e) {
      if (this.windows.size < this.maxEntries || this.makeRoom(now)) {
        e = { start: now, count: 0 };
        this.windows.set(key, e);
        this.candidates.push(key);
      } else {
        e = this.sharedSlot(bucket, client, now);
        this.overflowHits++;
      }
    }
    const resetS = Math.max(1, Math.ceil(e.start + this.windowS - now));
    if (e.count >= limit) return { allowed: false, limit, remaining: 0, resetS };
    e.count++;
    return { allowed: true, limit, remaining: limit - e.count, resetS };
  }

  /** frees the oldest window that has seen at most one request (or has ended); false when none can go */
  private makeRoom(now: number): boolean {
    while (this.head < this.candidates.length) {
      const k = this.candidates[this.head++]!;
      const e = this.windows.get(k);
      if (e && (e.count <= 1 || now - e.start >= this.windowS)) {
        this.windows.delete(k);
        this.compactQueue();
        return true;
      }
    }
    this.compactQueue();
    return false;
  }

  private compactQueue(): void {
    if (this.head > 1024 && this.head * 2 > this.candidates.length) {
      this.candidates = this.candidates.slice(this.head);
      this.head = 0;
    }
  }

  private sharedSlot(bucket: string, client: string, now: number): Entry {
    const key = `${bucket}\u0000${fnv1a(client) % this.overflowSlots}`;
    let e = this.overflow.get(key);
    if (!e || now - e.start >= this.windowS) {
      e = { start: now, count: 0 };
      this.overflow.set(key, e);
    }
    return e;
  }

  private sweep(now: number): void {
    this.lastSweep = now;
    // insertion order = window start order, so stop at the first live window
    for (const [k, e] of this.windows) {
      if (now - e.start < this.windowS) break;
      this.windows.delete(k);
    }
    for (const [k, e] of this.overflow) if (now - e.start >= this.windowS) this.overflow.delete(k);
  }
}

/** 32-bit FNV-1a of a string */
export function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}
