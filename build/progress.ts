// progress for long steps: one updating line with counts, rate and (given a total) the time left on a terminal,
// plain log lines every few seconds otherwise (CI logs, cron mail). on a log each step's start says
// how far into the run it is, so the time between steps (work no step names) can be read off it.
export interface Progress {
  /** a step starts: name and how many items it expects (0 when unknown) */
  start(step: string, total: number): void;
  /** n more items done in the current step */
  tick(n?: number): void;
  /** the step is over; a one-line summary */
  done(summary: string): void;
}

export const silentProgress: Progress = { start() {}, tick() {}, done() {} };

export function consoleProgress(stream: NodeJS.WriteStream = process.stderr, everyMs = 5000, clock: () => number = Date.now): Progress {
  const tty = Boolean(stream.isTTY);
  let step = '';
  let total = 0;
  let n = 0;
  let started = 0;
  let lastShown = 0;
  const born = clock();
  const line = () => {
    const s = Math.max((clock() - started) / 1000, 1e-3);
    const of = total > 0 ? `/${total}` : '';
    // at the rate so far; a step that knows its total says how long the rest should take
    const left = total > n && n > 0 ? `, about ${Math.round(((total - n) * s) / n)} s left` : '';
    return `${step}: ${n}${of} (${Math.round(n / s)}/s, ${s.toFixed(1)} s${left})`;
  };
  return {
    start(name, expected) {
      step = name;
      total = expected;
      n = 0;
      started = lastShown = clock();
      if (!tty) stream.write(`${name}: started ${((started - born) / 1000).toFixed(1)} s into the run${expected ? ` (${expected} expected)` : ''}\n`);
    },
    tick(k = 1) {
      n += k;
      const now = clock();
      if (tty ? now - lastShown >= 200 : now - lastShown >= everyMs) {
        lastShown = now;
        stream.write(tty ? `\r\x1b[2K${line()}` : `${line()}\n`);
      }
    },
    done(summary) {
      const s = ((clock() - started) / 1000).toFixed(1);
      stream.write(`${tty ? '\r\x1b[2K' : ''}${step}: ${summary} in ${s} s\n`);
    },
  };
}

/**
 * the least time between two reads of RSS at ticks: reading it costs about 18 µs (a read of
 * /proc/self/stat), and the routes step ticks once per callsign: read at every tick it was 11.6 of
 * the 15 s of a year's increment's routes decide step (--cpu-prof), about 22 s of every build
 */
const TICK_READ_MS = 20;

/** how a step's peak resident memory is read: the process's RSS in bytes (DuckDB's native memory included) */
export type RssSampler = () => number;

/** how the main thread's V8 heap is read: the bytes it has committed (heapTotal); worker threads' heaps are not in it */
export type HeapSampler = () => number;

/**
 * `progress` with each step's peak resident set size added to its summary ("...; peak RSS 5.1 GB
 * (V8 heap up to 1.2 GB)"), so a build's log is its per-step memory table, and says how much of the
 * peak JavaScript can hold (the rest is DuckDB's and other native memory). RSS is read when a step
 * starts, every `everyMs` (a long query ticks rarely), at a tick when `TICK_READ_MS` have passed
 * since the last read (a synchronous loop gives the interval no turn), and when it ends; the heap
 * when it starts, every `everyMs` and when it ends (not at ticks: it costs more to read).
 */
export function withPeakRss(
  progress: Progress,
  sample: RssSampler = () => process.memoryUsage.rss(),
  everyMs = 250,
  heap: HeapSampler = () => process.memoryUsage().heapTotal,
  clock: () => number = () => performance.now(),
): Progress {
  let peak = 0;
  let heapPeak = 0;
  let lastRead = -Infinity;
  const read = () => {
    lastRead = clock();
    peak = Math.max(peak, sample());
  };
  const readBoth = () => {
    read();
    heapPeak = Math.max(heapPeak, heap());
  };
  let timer: NodeJS.Timeout | null = null;
  return {
    start(step, total) {
      peak = 0;
      heapPeak = 0;
      readBoth();
      if (timer === null) {
        timer = setInterval(readBoth, everyMs);
        timer.unref();
      }
      progress.start(step, total);
    },
    tick(n) {
      if (clock() - lastRead >= TICK_READ_MS) read();
      progress.tick(n);
    },
    done(summary) {
      readBoth();
      if (timer !== null) clearInterval(timer);
      timer = null;
      progress.done(`${summary}; peak RSS ${(peak / 2 ** 30).toFixed(1)} GB (V8 heap up to ${(heapPeak / 2 ** 30).toFixed(1)} GB)`);
    },
  };
}
