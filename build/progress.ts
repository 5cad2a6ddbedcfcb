// progress for long steps: one updating line with counts and rate on a terminal,
// plain log lines every few seconds otherwise (CI logs, cron mail).
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
  const line = () => {
    const s = Math.max((clock() - started) / 1000, 1e-3);
    const of = total > 0 ? `/${total}` : '';
    return `${step}: ${n}${of} (${Math.round(n / s)}/s, ${s.toFixed(1)} s)`;
  };
  return {
    start(name, expected) {
      step = name;
      total = expected;
      n = 0;
      started = lastShown = clock();
      if (!tty) stream.write(`${name}: started${expected ? ` (${expected} expected)` : ''}\n`);
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
