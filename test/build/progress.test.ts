// the build's progress lines: a step's summary with its time (consoleProgress), and the peak
// resident memory each step reached (withPeakRss), which makes a nightly's log its per-step table.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { consoleProgress, withPeakRss, type Progress } from '../../build/progress.ts';

/** a Progress that records what reaches it */
function recorder(): Progress & { lines: string[] } {
  const lines: string[] = [];
  return { lines, start: (s, n) => void lines.push(`start ${s} ${n}`), tick: () => {}, done: (s) => void lines.push(`done ${s}`) };
}

const GB = 2 ** 30;

test("a step's summary carries the highest RSS read while it ran, not the last one", () => {
  const rss = [1 * GB, 3.26 * GB, 2 * GB];
  const inner = recorder();
  const heap = [0.5 * GB, 0.25 * GB];
  let t = 0;
  const p = withPeakRss(
    inner,
    () => rss.shift() ?? 0,
    60_000,
    () => heap.shift() ?? 0,
    () => t,
  );
  p.start('airframes', 10); // 1 GB, heap 0.5 GB
  t = 100;
  p.tick(5); // 3.26 GB
  p.done('10 airframes'); // 2 GB, heap 0.25 GB
  assert.deepEqual(inner.lines, ['start airframes 10', 'done 10 airframes; peak RSS 3.3 GB (V8 heap up to 0.5 GB)']);
});

test('ticks read RSS at most every 20 ms: a step that ticks once per item does not pay a read per item', () => {
  let reads = 0;
  let t = 0;
  const inner = recorder();
  const p = withPeakRss(
    inner,
    () => (reads++, GB),
    60_000,
    () => 0,
    () => t,
  );
  p.start('routes: decide', 100_000); // read 1
  for (let i = 0; i < 100_000; i++) {
    t = i / 1000; // 100,000 ticks in 100 ms: reads at 20, 40, 60, 80 ms
    p.tick();
  }
  p.done('100000 routes'); // the last read
  assert.equal(reads, 6);
});

test("each step's peak is its own: a later, smaller step does not inherit the earlier peak", () => {
  const rss = [5 * GB, 5 * GB, 1 * GB, 1.5 * GB];
  const inner = recorder();
  const heap = [2 * GB, 2 * GB, 0.1 * GB, 0.2 * GB];
  const p = withPeakRss(
    inner,
    () => rss.shift() ?? 0,
    60_000,
    () => heap.shift() ?? 0,
  );
  p.start('big', 0);
  p.done('a');
  p.start('small', 0);
  p.done('b');
  assert.deepEqual(
    inner.lines.filter((l) => l.startsWith('done')),
    ['done a; peak RSS 5.0 GB (V8 heap up to 2.0 GB)', 'done b; peak RSS 1.5 GB (V8 heap up to 0.2 GB)'],
  );
});

test('RSS is read between ticks too: a long query that never ticks still has its peak seen', async () => {
  let now = 1 * GB;
  let heapNow = 0.1 * GB;
  const inner = recorder();
  const p = withPeakRss(
    inner,
    () => now,
    5,
    () => heapNow,
  );
  p.start('query', 0);
  now = 4 * GB;
  heapNow = 1.5 * GB;
  // the samplers run on their interval while the step is silent
  await new Promise((r) => setTimeout(r, 60));
  now = 1 * GB;
  heapNow = 0.1 * GB;
  p.done('done');
  assert.equal(inner.lines.at(-1), 'done done; peak RSS 4.0 GB (V8 heap up to 1.5 GB)');
});

test("consoleProgress prints a step's start (how far into the run), a line every few seconds and its summary with the time, on a log (not a terminal)", () => {
  let out = '';
  const stream = { isTTY: false, write: (s: string) => ((out += s), true) } as unknown as NodeJS.WriteStream;
  let t = 10_000;
  const p = consoleProgress(stream, 5000, () => t);
  t = 11_500; // work before the first step
  p.start('routes: write', 100);
  t = 13_500;
  p.tick(10); // under 5 s since the start: no line
  t = 17_500;
  p.tick(40); // a line
  t = 19_500;
  p.done('100 routes');
  t = 23_000; // work between the steps
  p.start('airframes', 0);
  // 50 of 100 in 6 s: the other 50 at the same rate take about 6 s more
  assert.equal(
    out,
    'routes: write: started 1.5 s into the run (100 expected)\nroutes: write: 50/100 (8/s, 6.0 s, about 6 s left)\nroutes: write: 100 routes in 8.0 s\nairframes: started 13.0 s into the run\n',
  );
});

test('consoleProgress says the time left at the rate so far only when the step knows its total', () => {
  let out = '';
  const stream = { isTTY: false, write: (s: string) => ((out += s), true) } as unknown as NodeJS.WriteStream;
  let t = 0;
  const p = consoleProgress(stream, 5000, () => t);
  p.start('legs 2025-06-02', 120);
  t = 10_000;
  p.tick(30); // 3 a second: the other 90 take 30 s
  p.start('bundles', 0);
  t = 20_000;
  p.tick(7);
  assert.equal(
    out,
    [
      'legs 2025-06-02: started 0.0 s into the run (120 expected)',
      'legs 2025-06-02: 30/120 (3/s, 10.0 s, about 30 s left)',
      'bundles: started 10.0 s into the run',
      'bundles: 7 (1/s, 10.0 s)',
      '',
    ].join('\n'),
  );
});
