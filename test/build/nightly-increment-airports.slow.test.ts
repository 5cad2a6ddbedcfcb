// a night that reuses the previous build builds only the airports whose documents can have
// changed (build/steps/airports/changed.ts), folds their totals' counts (build/steps/airports/sql.ts) and counts the alliances from the previous build's
// counts plus the new day minus the dropped one (build/steps/alliances/build.ts): its published tree
// must equal, object for object, a fresh build over the same log (the closed days' flights and
// movements excepted: frozen, they are the previous version's). the window (30 days) is longer
// than the board window (28), so the board window slides inside the log's: airports heard on the
// day that leaves the board window, and on neither the new nor the dropped day, change too, and a
// restriction that missed them (or the dropped day, or the new one) would leave a stale document.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseConfig } from '../../lib/cli.ts';
import { runNightly } from '../../build/nightly.ts';
import { NIGHTLY_SPECS } from '../../build/nightly-config.ts';
import type { Progress } from '../../build/progress.ts';
import { currentVersion, type Version } from '../../artifacts/tree.ts';
import { openLog } from '../../build/log/read.ts';
import { writeFastLog } from '../../sim/log.ts';
import { loadWorld } from '../../sim/world.ts';
import { loadRefdata } from '../../lib/reference/index.ts';
import { boardDaysChanged } from '../../build/steps/airports/changed.ts';
import { ROOT } from '../helpers/processes.ts';
import { frozenTreeProblems } from '../helpers/frozen-days.ts';

process.env.TZ = 'UTC';
const REF = join(ROOT, 'test/fixtures/ref-small');

test('the days whose place in the board window changed: the one that left it and the one that entered it', () => {
  // window 2025-05-03..06-01, board from 05-05; before: board 05-04..05-31
  assert.deepEqual(boardDaysChanged('2025-05-03', '2025-06-01', '2025-05-05', '2025-05-04', '2025-05-31'), ['2025-05-04', '2025-06-01']);
  // a window shorter than the board's: the board is the window, nothing slides inside it but the new day
  assert.deepEqual(boardDaysChanged('2025-06-03', '2025-06-07', '2025-06-03', '2025-06-02', '2025-06-06'), ['2025-06-07']);
});

/** the IATA codes of the airports heard (either end) on each day of the log */
async function airportsByDay(log: string, iataOf: Map<string, string>): Promise<Map<string, Set<string>>> {
  const l = await openLog(log, { threads: 1 });
  try {
    const out = new Map<string, Set<string>>();
    for (const r of await l.rows(`SELECT DISTINCT strftime(day, '%Y-%m-%d') AS day, unnest([org, dst]) AS ident FROM legs`)) {
      const iata = iataOf.get(r.ident as string);
      if (!iata) continue;
      if (!out.has(r.day as string)) out.set(r.day as string, new Set());
      out.get(r.day as string)!.add(iata);
    }
    return out;
  } finally {
    l.close();
  }
}

test('an increment builds only the airports its days reach, counts the alliances from the previous build, and publishes the tree a fresh build makes', {
  timeout: 300_000,
}, async (t) => {
  const tmp = mkdtempSync(join(tmpdir(), 'contrail-nightly-increment-airports-'));
  t.after(() => rmSync(tmp, { recursive: true, force: true }));
  const log = join(tmp, 'log');
  const world = loadWorld({ ref: REF, routeRows: 0 });
  // no tracks: the airports' documents do not read them, and nightly-increment.slow.test.ts holds an
  // increment's flights documents, tracks and all, to a fresh build's for the days it writes and to the
  // previous version's for the closed ones (a month of tracks is the suite's time)
  const sim = { out: log, seed: 11, legsPerDay: 300, airframes: 2000, threads: 1, tracks: false };
  await writeFastLog(world, { ...sim, start: '2025-05-01', days: 31 });
  const summaries: string[] = [];
  let step = '';
  const recording: Progress = { start: (name) => void (step = name), tick: () => {}, done: (s) => void summaries.push(`${step}: ${s}`) };
  const run = (artifacts: string, nowMs: number) => {
    const c = parseConfig(
      NIGHTLY_SPECS,
      ['--ref', REF, '--log', log, '--artifacts', artifacts, '--bundles', '', '--no-accuracy', '--skip-log', '--window-days', '30'],
      {},
    ).config;
    return runNightly(c, recording, () => {}, nowMs);
  };
  const nights = join(tmp, 'nights');
  await run(nights, Date.UTC(2026, 10, 25, 3));
  const before = currentVersion(nights)!;
  // the next day: 2025-06-01 enters the window, 2025-05-02 leaves it, 2025-05-04 leaves the board window
  await writeFastLog(world, { ...sim, start: '2025-06-01', days: 1 });
  const nowMs = Date.UTC(2026, 10, 26, 3);
  summaries.length = 0;
  await run(nights, nowMs);
  const night = currentVersion(nights)!;
  const airportsDone = summaries.find((s) => / airports \(\+\d+ ICAO keys\)/.test(s)) ?? '';
  const kept = /\((\d+) unchanged, kept unbuilt\)/.exec(airportsDone);
  assert.ok(kept && Number(kept[1]) > 0, `the airports step kept some airports unbuilt: ${airportsDone}`);
  assert.ok(
    summaries.some((s) => /alliances \(counts of the previous build/.test(s)),
    `the alliances were counted from the previous build's counts: ${summaries.join(' | ')}`,
  );
  // the airports' totals come from the previous build's counts, the new day added and the dropped one taken away
  assert.ok(
    summaries.includes("airports: totals: counts: folded: 1 days added, 1 dropped, 0 callsigns' routes changed"),
    `the totals' counts were folded: ${summaries.join(' | ')}`,
  );
  const fresh = join(tmp, 'fresh');
  await run(fresh, nowMs);
  const full = currentVersion(fresh)!;

  // the cases that make this test able to fail: airports whose documents changed and that only
  // the dropped day, only the new day, or only the day that left the board window heard
  const refdata = await loadRefdata(REF);
  const iataOf = new Map(refdata.airports.all.filter((a) => a.iata).map((a) => [a.ident, a.iata!] as const));
  const byDay = await airportsByDay(log, iataOf);
  const doc = (v: Version, iata: string) => v.manifest.objects[`v1/airports/${iata}`]?.sha256;
  const changedOnlyBy = (day: string, notIn: string[]) =>
    [...byDay.get(day)!].filter((a) => notIn.every((d) => !byDay.get(d)?.has(a)) && doc(night, a) !== doc(before, a));
  const byDropped = changedOnlyBy('2025-05-02', ['2025-06-01', '2025-05-04']);
  const byNew = changedOnlyBy('2025-06-01', ['2025-05-02', '2025-05-04']);
  const byBoard = changedOnlyBy('2025-05-04', ['2025-05-02', '2025-06-01']);
  assert.ok(
    byDropped.length >= 1 && byNew.length >= 1 && byBoard.length >= 1,
    `airports changed by the dropped day alone: ${byDropped.length}, the new day alone: ${byNew.length}, the board window's old day alone: ${byBoard.length}`,
  );
  const alliances = Object.keys(full.manifest.objects).filter((k) => k.startsWith('v1/alliances/'));
  assert.ok(
    alliances.some((k) => night.manifest.objects[k]!.sha256 !== before.manifest.objects[k]!.sha256),
    'some alliance document changed',
  );

  // object for object, the increment's tree is the fresh build's (board times included: the
  // circular median no longer depends on the order DuckDB lists the minutes in), but for the
  // closed days' flights and movements, which are the previous version's (frozen: docs/api.md)
  const frozen = frozenTreeProblems(before, night, full, ['2025-05-31', '2025-06-01']);
  assert.deepEqual(frozen.problems, []);
  assert.ok(frozen.counts.closed > 0 && frozen.counts.open > 0, `closed-day and open-day objects checked: ${JSON.stringify(frozen.counts)}`);
});
