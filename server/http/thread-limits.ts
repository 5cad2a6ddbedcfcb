// rate-limit windows (and open-stream counts) in one SharedArrayBuffer, counted by every serving
// thread of the process (server/serve/): a client's budget is the same whichever thread its
// connection landed on. the same rules as ratelimit.ts's RateLimiter, in a fixed table:
// - a fixed window of WINDOW_S per client and bucket, its count kept with Atomics, so exactly
//   `limit` requests of a window are allowed however the threads interleave;
// - open addressing (linear probing, PROBE slots); a slot is taken for a new key only when it is
//   empty or its window has ended, so a client that spent its budget is never pushed out before
//   its window ends, and a flood's windows age out with their window; a newcomer that finds no
//   slot is counted in one of a fixed set of shared overflow windows, keyed by a hash of the client;
// - open-stream counts (gauges) live in a region of their own that windows never use, so a flood
//   of addresses cannot fill it (the stream cap failed open when they shared one); a gauge's slot
//   is free again when its count is back to 0. when even that region cannot count a client,
//   `reserve` says so and the stream is refused (fail closed);
// - window starts are whole seconds, so a window may end up to a second early.
// known race, bounded: a new client's first two requests on two threads at the instant a slot's
// window ends may open two windows for it; each still allows at most `limit`.
import { fnv1a, type RateDecision } from './ratelimit.ts';

const EMPTY = 0;
/** a slot being written by a thread: readers wait (a handful of stores) */
const BUSY = 1;
/** slot fields, Int32 each: key hash (never EMPTY/BUSY), second key hash, window start (s), count */
const W = 4;
const PROBE = 32;
/** a gauge's start: it never ends; its slot is free again when its count is back to 0 */
const GAUGE = -1;

export interface ThreadLimitsShape {
  /** windows held at most, a power of two */
  slots: number;
  /** shared windows for newcomers when the table is full */
  overflowSlots: number;
  /** clients with open streams counted at most, a power of two (the gauges' own region) */
  gaugeSlots: number;
}

/** what `reserve` did: counted one more stream; refused it at the maximum; or could not count it (refuse it too) */
export type Reserved = 'opened' | 'at_cap' | 'uncounted';

/** one probed region of the table: its first word and its slot mask (slot 0 of each is never a key's) */
interface Region {
  base: number;
  mask: number;
}

export class ThreadLimits {
  private readonly a: Int32Array;
  private readonly windows: Region;
  private readonly gauges: Region;
  private readonly overflowAt: number;
  private readonly overflowSlots: number;
  /** window starts count seconds from here (a day before the table was made: every start is > 0) */
  private readonly baseS: number;
  /** newcomers this thread counted in a shared window (a flood of addresses is on) */
  overflowHits = 0;

  /**
   * `memory`: from `ThreadLimits.allocate` (once, on the main thread), handed to every serving
   * thread as it is (a SharedArrayBuffer is shared, never copied, by postMessage).
   */
  constructor(
    readonly memory: SharedArrayBuffer,
    private readonly windowS: number,
  ) {
    this.a = new Int32Array(memory);
    const slots = this.a[0]!;
    this.windows = { base: 0, mask: slots - 1 };
    this.overflowAt = slots;
    this.overflowSlots = this.a[1]!;
    this.baseS = this.a[2]!;
    this.gauges = { base: (slots + this.overflowSlots) * W, mask: this.a[3]! - 1 };
  }

  static allocate(nowMs: number, shape: Partial<ThreadLimitsShape> = {}): SharedArrayBuffer {
    const slots = shape.slots ?? 1 << 18;
    const overflowSlots = shape.overflowSlots ?? 4096;
    // an open stream holds a socket: 65,535 addresses with one open each is far past what one process serves
    const gaugeSlots = shape.gaugeSlots ?? 1 << 16;
    if (slots < PROBE || (slots & (slots - 1)) !== 0) throw new RangeError(`slots must be a power of two >= ${PROBE}, got ${slots}`);
    if (overflowSlots < 1) throw new RangeError(`overflowSlots must be >= 1, got ${overflowSlots}`);
    if (gaugeSlots < PROBE || (gaugeSlots & (gaugeSlots - 1)) !== 0) throw new RangeError(`gaugeSlots must be a power of two >= ${PROBE}, got ${gaugeSlots}`);
    // slot 0 holds the table's shape (it is never a key's: probing skips it, in both regions)
    const m = new SharedArrayBuffer((slots + overflowSlots + gaugeSlots) * W * 4);
    const a = new Int32Array(m);
    a[0] = slots;
    a[1] = overflowSlots;
    a[2] = Math.floor(nowMs / 1000) - 86_400;
    a[3] = gaugeSlots;
    // the overflow windows start long ended
    for (let i = slots; i < slots + overflowSlots; i++) a[i * W + 2] = -(2 ** 30);
    return m;
  }

  /** `client` is the rate key of the client (client-ip.ts rateKeyOf) */
  hit(bucket: string, client: string, limit: number, nowMs: number): RateDecision {
    const now = Math.floor(nowMs / 1000) - this.baseS;
    const key = `${bucket}\u0000${client}`;
    let at = this.find(this.windows, hashA(key), hashB(key), now);
    if (at < 0) {
      at = (this.overflowAt + (((hashA(bucket) ^ hashB(client)) >>> 0) % this.overflowSlots)) * W;
      this.overflowHits++;
      this.restartIfEnded(at, now);
    }
    const start = Atomics.load(this.a, at + 2);
    const resetS = Math.max(1, start + this.windowS - now);
    const before = Atomics.add(this.a, at + 3, 1);
    if (before >= limit) return { allowed: false, limit, remaining: 0, resetS };
    return { allowed: true, limit, remaining: limit - before - 1, resetS };
  }

  /**
   * Count one more open stream of `client` unless it holds `max` already. 'uncounted': the gauges'
   * region has no slot for it now (every slot of its probe holds an open stream of another client):
   * nothing was counted, and the caller refuses the stream rather than let it open uncounted.
   */
  reserve(client: string, max: number): Reserved {
    const key = `open\u0000${client}`;
    const at = this.find(this.gauges, hashA(key), hashB(key), GAUGE);
    if (at < 0) return 'uncounted';
    for (;;) {
      const n = Atomics.load(this.a, at + 3);
      if (n >= max) return 'at_cap';
      if (Atomics.compareExchange(this.a, at + 3, n, n + 1) === n) return 'opened';
    }
  }

  /** Count one more open stream of `client`; false (and nothing counted) when it holds `max` already or cannot be counted. */
  open(client: string, max: number): boolean {
    return this.reserve(client, max) === 'opened';
  }

  /** One stream of `client` closed. */
  close(client: string): void {
    const key = `open\u0000${client}`;
    const at = this.find(this.gauges, hashA(key), hashB(key), GAUGE);
    if (at >= 0 && Atomics.sub(this.a, at + 3, 1) <= 0) Atomics.store(this.a, at + 3, 0);
  }

  /** open streams of `client` now (tests, /metrics); -1 when the table could not count it */
  opened(client: string): number {
    const key = `open\u0000${client}`;
    const at = this.find(this.gauges, hashA(key), hashB(key), GAUGE);
    return at < 0 ? -1 : Atomics.load(this.a, at + 3);
  }

  /**
   * The word offset of the key's slot in `region`, taken (with a fresh window, or a gauge at 0)
   * when new; -1 when the probe found neither the key nor a slot to take. `now` is a window
   * start, or GAUGE for a count.
   */
  private find(region: Region, h1: number, h2: number, now: number): number {
    const a = this.a;
    const gauge = now === GAUGE;
    const { base, mask } = region;
    for (;;) {
      let free = -1;
      let freeTag = EMPTY;
      let i = h1 & mask || 1;
      for (let k = 0; k < PROBE; k++, i = (i + 1) & mask || 1) {
        const at = base + i * W;
        let tag = Atomics.load(a, at);
        // being written by another thread (four stores): read this slot again until it is done,
        // never step past it (it may be this very key being filed)
        while (tag === BUSY) tag = Atomics.load(a, at);
        if (tag === h1 && Atomics.load(a, at + 1) === h2) {
          if (!gauge) this.restartIfEnded(at, now);
          return at;
        }
        if (tag === EMPTY) {
          if (free < 0) [free, freeTag] = [at, EMPTY];
          break; // the key is not further on: nothing is ever removed from a chain
        }
        if (free < 0 && this.ended(at, now)) [free, freeTag] = [at, tag];
      }
      if (free < 0) return -1;
      if (Atomics.compareExchange(a, free, freeTag, BUSY) !== freeTag) continue; // another thread took it: look again
      Atomics.store(a, free + 1, h2);
      Atomics.store(a, free + 2, gauge ? GAUGE : now);
      Atomics.store(a, free + 3, 0);
      Atomics.store(a, free, h1);
      return free;
    }
  }

  /** a slot another key may take: its window ended, or it is a gauge back at 0 */
  private ended(at: number, now: number): boolean {
    const start = Atomics.load(this.a, at + 2);
    if (start === GAUGE) return Atomics.load(this.a, at + 3) <= 0;
    return now >= 0 && now - start >= this.windowS;
  }

  /** a window that has ended starts again now (one thread does it; the others see its result) */
  private restartIfEnded(at: number, now: number): void {
    const start = Atomics.load(this.a, at + 2);
    if (start !== GAUGE && now - start >= this.windowS && Atomics.compareExchange(this.a, at + 2, start, now) === start) Atomics.store(this.a, at + 3, 0);
  }
}

/** RateLimiter's FNV-1a, never EMPTY or BUSY */
const hashA = (s: string): number => fnv1a(s) | 2;

/** a second, independent 32-bit hash (a multiply-xorshift over the characters) */
function hashB(s: string): number {
  let h = 0x9e3779b9 | 0;
  for (let i = 0; i < s.length; i++) {
    h = Math.imul(h ^ s.charCodeAt(i), 0x85ebca6b);
    h ^= h >>> 13;
  }
  return h;
}
