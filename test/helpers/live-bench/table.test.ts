// cases.ts and table.ts (the live bench's): which cases --queries/--encodings select, and the medians,
// ratios and markdown of the live bench's summary.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { selectCases } from './cases.ts';
import { median, summarize, table, type Run } from './table.ts';
import type { WrkResult } from './wrk.ts';

test("selectCases: queries times encodings, in the list's order whatever the flag's", () => {
  assert.deepEqual(
    selectCases('all,point25', 'browser,plain').map((c) => c.id),
    ['point25', 'point25+browser', 'all', 'all+browser'],
  );
  const [bbox] = selectCases('bbox', 'browser');
  assert.equal(bbox!.name, 'bbox central Europe, gzip, deflate, br');
  assert.equal(bbox!.query.readsbPath, '/re-api/?box=45,55,5,15');
  assert.equal(selectCases(' point250 , ', 'plain')[0]!.query.radiusNm, 250);
});

test('selectCases refuses unknown and empty lists, naming the known ones', () => {
  assert.throws(() => selectCases('point26', 'plain'), /--queries: unknown "point26"; known: point25, point250, bbox, all/);
  assert.throws(() => selectCases('all', 'zstd'), /--encodings: unknown "zstd"; known: plain, browser/);
  assert.throws(() => selectCases(',', 'plain'), /--queries is empty/);
  assert.throws(() => selectCases('all', ''), /--encodings is empty/);
});

test('median: odd, even, unsorted, empty', () => {
  assert.equal(median([3, 1, 2]), 2);
  assert.equal(median([4, 1, 3, 2]), 2.5);
  assert.ok(Number.isNaN(median([])), 'Number.isNaN(median([]))');
});

const res = (rps: number, p99: number, extra: Partial<WrkResult> = {}): WrkResult => ({
  rps,
  p50: p99 / 4,
  p99,
  requests: 1000,
  bytes: 2_500_000,
  non2xx: 0,
  errors: 0,
  ...extra,
});
const RUNS: Run[] = [
  { caseId: 'point25', server: 'readsb', round: 1, result: res(50_000, 10), cpuS: 0.02 },
  { caseId: 'point25', server: 'contrail', round: 1, result: res(20_000, 100), cpuS: 0.05 },
  { caseId: 'point25', server: 'contrail', round: 2, result: res(30_000, 80, { non2xx: 2, errors: 1 }) },
  { caseId: 'point25', server: 'readsb', round: 2, result: res(40_000, 12) },
  { caseId: 'point25', server: 'readsb', round: 3, result: res(60_000, 8) },
  { caseId: 'point25', server: 'contrail', round: 3, result: res(25_000, 90) },
];

test('summarize: medians per server and case, the range, the bad answers summed', () => {
  assert.deepEqual(summarize(RUNS, 'point25', 'contrail'), {
    rps: 25_000,
    minRps: 20_000,
    maxRps: 30_000,
    p50: 22.5,
    p99: 90,
    meanBytes: 2500,
    bad: 3,
    rounds: 3,
    cpuUs: 50,
  });
  // CPU per answer: 0.05 s over 1,000 requests, the one round that measured it
  assert.equal(summarize(RUNS, 'point25', 'readsb')!.cpuUs, 20);
  assert.equal(summarize(RUNS, 'point25', 'readsb')!.rps, 50_000);
  assert.equal(summarize(RUNS, 'all', 'contrail'), undefined);
});

test('table: readsb beside Contrail with the ratio of the medians, and the bad answers listed', () => {
  const lines = table(selectCases('point25', 'plain'), RUNS);
  assert.equal(lines[0], '| case | readsb req/s | p50 / p99 ms | answer | CPU µs/answer | Contrail req/s | p50 / p99 ms | answer | CPU µs/answer | ratio |');
  assert.equal(
    lines[2],
    '| point 25 nm (varied) | 50,000 (40,000–60,000) | 2.50 / 10.0 | 2.5 KB | 20 | 25,000 (20,000–30,000) | 22.5 / 90.0 | 2.5 KB | 50 | **0.50×** |',
  );
  assert.equal(lines.at(-1), 'non-2xx answers, socket errors or timeouts (all rounds): point25: Contrail 3');
});

test('table: Contrail alone has no readsb columns; one round shows no range', () => {
  const lines = table(selectCases('point25,all', 'plain'), [
    { caseId: 'all', server: 'contrail', round: 1, result: res(1234.4, 200, { bytes: 2_760_000_000 }) },
  ]);
  assert.deepEqual(lines, [
    '| case | req/s | p50 / p99 ms | answer | CPU µs/answer |',
    '|---|---|---|---|---|',
    '| whole network | 1,234 | 50.0 / 200.0 | 2.76 MB | — |',
  ]);
});
