// compression is the first thing a saturated serving thread stops doing. an answer made for one
// request (a point, a varied bbox) is gzipped for that request alone: 15 µs for a 25 nm answer,
// 0.3-1.2 ms for a 250 nm one, on the same two cores that answer. when a thread is busy nearly all
// the time, every gzip delays every other request; sending those answers as they are (HTTP lets
// a server choose identity whatever the client accepts) costs a copy instead. HAProxy does the same
// (`maxcompcpuusage`). answers made once per snapshot and shared (the whole network, a common box)
// keep their prepared gzip or brotli: those cost nothing per request and are never shed.
//
// the signal is the thread's own event-loop utilisation over the last window (busy time / wall
// time, performance.eventLoopUtilization), with hysteresis so it does not flap, and the number of
// gzips this thread has waiting on the libuv pool (which the utilisation does not see).
import { performance } from 'node:perf_hooks';

/** gzips in flight on the libuv pool per thread beyond which new answers go uncompressed (the pool has 4 threads) */
export const MAX_PENDING_GZIP = 8;
/** compression resumes once utilisation falls this far below the shedding point */
const HYSTERESIS = 0.2;
/** windows in a row at or above the shedding point before it sheds */
const SATURATED_WINDOWS = 2;

export class CompressionShed {
  private on = false;
  /** windows in a row at or above the shedding point */
  private busy = 0;
  private pending = 0;
  /** answers sent uncompressed because of shedding, since the start */
  shedAnswers = 0;

  /** @param at utilisation (0..1] from which per-request compression stops; 0 never stops it */
  constructor(private readonly at: number) {}

  /**
   * Take the utilisation of the window that just ended (0..1): shedding starts after
   * SATURATED_WINDOWS in a row at or above the point (one busy window, a collection or a burst,
   * is not saturation), and stops once one falls HYSTERESIS below it.
   */
  observe(utilisation: number): void {
    if (this.at <= 0) return;
    this.busy = utilisation >= this.at ? this.busy + 1 : 0;
    if (!this.on && this.busy >= SATURATED_WINDOWS) this.on = true;
    else if (this.on && utilisation < this.at - HYSTERESIS) this.on = false;
  }

  /** true while answers made for one request should go out uncompressed */
  get shedding(): boolean {
    return this.at > 0 && (this.on || this.pending >= MAX_PENDING_GZIP);
  }

  /** May this answer be compressed for its request? Counts the ones that may not. */
  allow(): boolean {
    if (!this.shedding) return true;
    this.shedAnswers++;
    return false;
  }

  /** wrap a gzip sent to the pool: counted while in flight */
  track<T>(p: Promise<T>): Promise<T> {
    this.pending++;
    const done = () => void this.pending--;
    p.then(done, done);
    return p;
  }

  /** Read this thread's utilisation every `everyMs` (an unref'd timer); returns the stop. */
  watch(everyMs = 500): () => void {
    if (this.at <= 0) return () => {};
    // the first window starts one period after the watch, past the thread's own start-up work
    let last: ReturnType<typeof performance.eventLoopUtilization> | null = null;
    const timer = setInterval(() => {
      const now = performance.eventLoopUtilization();
      if (last) this.observe(performance.eventLoopUtilization(now, last).utilization);
      last = now;
    }, everyMs);
    timer.unref();
    return () => clearInterval(timer);
  }
}
