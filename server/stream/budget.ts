// the process's budget for unsent push-stream bytes (--stream-max-unsent): what uWebSockets.js holds
// for clients that read slower than the stream, summed over every client of every serving thread.
// the per-client cap (--stream-max-buffer) bounds one client; this bounds them all, whatever their
// number (300 paused clients took a 10k-aircraft server from 0.46 to 4 GB without it: docs/perf-log/stream.md).
// each serving thread writes its own total into its slot of one SharedArrayBuffer (one writer per
// slot, so a store and loads suffice); a thread reads the sum to refuse an upgrade, and when the sum
// is over the budget each thread sheds its own slowest clients down to its share. pure apart from the memory.

/** bytes per unit of a slot: KiB, so a slot's Int32 holds up to 2 TiB */
const UNIT = 1024;

export class StreamBudget {
  private readonly slots: Int32Array;

  /**
   * `memory` from `StreamBudget.allocate` (made once on the main thread, shared as it is with each
   * serving thread); `thread` this thread's slot (0: the main thread); `limit` bytes (0: no budget).
   */
  constructor(
    memory: SharedArrayBuffer,
    private readonly thread: number,
    readonly limit: number,
  ) {
    this.slots = new Int32Array(memory);
    if (thread < 0 || thread >= this.slots.length) throw new RangeError(`thread ${thread} has no slot (${this.slots.length} threads)`);
  }

  static allocate(threads: number): SharedArrayBuffer {
    return new SharedArrayBuffer(Math.max(1, threads) * 4);
  }

  /** This thread's unsent bytes now. */
  set(bytes: number): void {
    Atomics.store(this.slots, this.thread, Math.min(2 ** 31 - 1, Math.ceil(bytes / UNIT)));
  }

  /** Unsent bytes of every thread (to a KiB). */
  total(): number {
    let kib = 0;
    for (let i = 0; i < this.slots.length; i++) kib += Atomics.load(this.slots, i);
    return kib * UNIT;
  }

  /** No new stream now: the budget is spent (never, without one). */
  full(): boolean {
    return this.limit > 0 && this.total() >= this.limit;
  }

  /**
   * What this thread may keep unsent when the sum is over the budget: its part of the budget, in
   * proportion to what it holds (each thread sheds the same share, with no talk between them);
   * null while the sum is within it.
   */
  keep(own: number): number | null {
    const total = this.total();
    if (this.limit <= 0 || total <= this.limit) return null;
    return Math.floor((own * this.limit) / total);
  }
}

/**
 * Which clients to close so that what stays unsent is at most `keep`: the slowest (most unsent)
 * first, as few as that takes. `unsent` per client; returns their indices, slowest first.
 */
export function slowestOver(unsent: readonly number[], keep: number): number[] {
  let sum = 0;
  for (const u of unsent) sum += u;
  const order = unsent.map((_, i) => i).sort((a, b) => unsent[b]! - unsent[a]! || a - b);
  const out: number[] = [];
  for (const i of order) {
    if (sum <= keep) break;
    out.push(i);
    sum -= unsent[i]!;
  }
  return out;
}
