// the peak RSS of a bench's run, sampled every 100 ms, and what V8 held at that moment (the rest
// is DuckDB's and other native memory): reset() before a run, peak() after it, stop() at the end.
export function peakMemory(): { reset(): void; peak(): NodeJS.MemoryUsage; stop(): void } {
  let peak = process.memoryUsage();
  const timer = setInterval(() => {
    const m = process.memoryUsage();
    if (m.rss > peak.rss) peak = m;
  }, 100);
  return {
    reset: () => ((peak = process.memoryUsage()), undefined),
    peak: () => {
      const m = process.memoryUsage();
      return m.rss > peak.rss ? m : peak;
    },
    stop: () => clearInterval(timer),
  };
}

/** bytes as GB with two decimals */
export const gb = (b: number) => (b / 2 ** 30).toFixed(2);
