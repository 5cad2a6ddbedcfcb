// how long a serving thread's event loop stalls: perf_hooks' delay monitor sampled every 1 ms,
// read as (longest, 99th percentile) per window and reset; and how long the thread's own work on
// each snapshot blocked it (Longest), so the two can be told apart. the main thread reads its own when
// /metrics renders; each serving worker reads its own on the same period and reports it
// (serve/protocol.ts 'stall'), so /metrics shows every thread that answers requests.
import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';

/** one window of a thread's event-loop delay, seconds */
export interface Stall {
  max: number;
  p99: number;
}

/** a window's length: /metrics renders on this period, and each worker reports on it */
export const STALL_WINDOW_MS = 5000;

/**
 * The longest of some synchronous work per window (ms), e.g. taking a snapshot: the part of a
 * thread's stall its own code makes, apart from the collector and the operating system.
 */
export class Longest {
  private ms = 0;

  note(ms: number): void {
    if (ms > this.ms) this.ms = ms;
  }

  /** The longest since the previous take, seconds (0: none), and start the next window. */
  take(): number {
    const s = this.ms / 1000;
    this.ms = 0;
    return s;
  }
}

export class LoopStall {
  private readonly h: IntervalHistogram = monitorEventLoopDelay({ resolution: 1 });

  constructor() {
    this.h.enable();
  }

  /** The window since the previous take (null when the loop took no sample), and start the next. */
  take(): Stall | null {
    const h = this.h;
    const out = h.count > 0 ? { max: h.max / 1e9, p99: h.percentile(99) / 1e9 } : null;
    h.reset();
    return out;
  }

  stop(): void {
    this.h.disable();
  }
}
