// the log step on worker threads (build/log/leg-pool.ts) against the in-thread path (workers 0):
// the same Parquet bytes and rows in the same order, the same counts and skips. compared with each
// other, never with frozen bytes, so these stay meaningful while the detector changes.
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, rmSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { after, before, describe, it } from 'node:test';
import { DuckDBInstance } from '@duckdb/node-api';
import { buildLog, type BuildLogOptions, type BuildLogResult } from '../../../build/log/build.ts';
import { airfieldTables, logAirfields } from '../../../build/log/airfields.ts';
import type { AirfieldTables } from '../../../build/log/airfield-tables.ts';
import { listLogDays } from '../../../build/log/read.ts';
import { dayDir, dayFile, pointsFile, sqlString } from '../../../build/log/write.ts';
import { loadAirfieldRows } from '../../../lib/reference/fields.ts';
import type { Skipped } from '../../../build/history/scan.ts';
import type { Progress } from '../../../build/progress.ts';
import { writeHistory } from '../../../sim/history.ts';
import { testSky } from '../../sim/world.ts';
import { SAMPLE_TREE, ac671b, midnightTree, putFile, tempDir, tracePath } from '../../helpers/history.ts';

process.env.TZ = 'UTC';

const dirs: string[] = [];
const tmp = () => {
  const d = tempDir('contrail-log-workers-');
  dirs.push(d);
  return d;
};
after(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

let tables: AirfieldTables | null = null;
/** the shipped OurAirports airfields, as the log command and the nightly use them */
const realAirfields = () => {
  if (!tables) {
    const t = loadAirfieldRows('data/ref');
    tables = airfieldTables(t.airports, t.runways);
  }
  return logAirfields(tables);
};

interface Run {
  log: string;
  result: BuildLogResult;
  skips: Skipped[];
}

async function build(history: string, workers: number, extra: Partial<BuildLogOptions> = {}, progress?: Progress): Promise<Run> {
  const log = tmp();
  const skips: Skipped[] = [];
  const result = await buildLog(
    { history, log, select: { all: true }, threads: 1, ...realAirfields(), workers, onSkip: (s) => skips.push(s), ...extra },
    progress,
  );
  return { log, result, skips };
}

/** a day file's rows in the order they are stored */
async function storedRows(file: string): Promise<Record<string, unknown>[]> {
  const db = await DuckDBInstance.create(':memory:', { threads: '1' });
  const c = await db.connect();
  try {
    return (await c.runAndReadAll(`SELECT * FROM read_parquet(${sqlString(file)})`)).getRowObjectsJson() as Record<string, unknown>[];
  } finally {
    c.closeSync();
    db.closeSync();
  }
}

/** the same days, each day's file the same bytes and the same rows in the same order */
async function assertSameLog(serial: Run, workers: Run): Promise<void> {
  const days = listLogDays(serial.log);
  assert.ok(days.length > 0, 'the serial path wrote a day');
  assert.deepEqual(listLogDays(workers.log), days);
  for (const d of days) {
    const [a, b] = [dayFile(serial.log, d), dayFile(workers.log, d)];
    const rows = await storedRows(a);
    assert.ok(rows.length > 0, `${d}: legs in the file`);
    assert.deepEqual(await storedRows(b), rows, `${d}: rows in order`);
    assert.ok(readFileSync(a).equals(readFileSync(b)), `${d}: the same Parquet bytes`);
    // and the legs' tracks beside them
    const [pa, pb] = [pointsFile(serial.log, d), pointsFile(workers.log, d)];
    const points = await storedRows(pa);
    assert.ok(points.length >= rows.length, `${d}: points for the legs`);
    assert.deepEqual(await storedRows(pb), points, `${d}: points in order`);
    assert.ok(readFileSync(pa).equals(readFileSync(pb)), `${d}: the same points bytes`);
  }
  assert.deepEqual(workers.result, serial.result);
  assert.deepEqual(workers.skips, serial.skips);
}

describe('the worker path writes the log the in-thread path writes', () => {
  it('on the real globe_history sample (22 files: 2 batches on 3 workers)', async () => {
    const serial = await build(SAMPLE_TREE, 0);
    assert.equal(serial.result.files, 22);
    await assertSameLog(serial, await build(SAMPLE_TREE, 3));
  });

  it('on a seeded simulated history of two days: carries across midnight through the workers, and each day built alone', async () => {
    const history = tmp();
    const made = writeHistory(testSky(100), history, '2025-06-01', 2);
    assert.ok(made.files > 60, `${made.files} files`);
    const serial = await build(history, 0);
    assert.deepEqual(serial.result.written, ['2025-06-01', '2025-06-02']);
    assert.ok(serial.result.files > 60, 'several batches of 16 files');
    await assertSameLog(serial, await build(history, 2));
    // the second day alone: the first is read for the carry (warm-up), its file takes the legs closing on the 2nd
    const second = { select: { from: '2025-06-02', to: '2025-06-02' } };
    const s2 = await build(history, 0, second);
    assert.deepEqual(s2.result.merged, ['2025-06-01']);
    await assertSameLog(s2, await build(history, 2, second));
    // the first day alone: the look-ahead into the 2nd closes the legs open at midnight
    const first = { select: { from: '2025-06-01', to: '2025-06-01' } };
    const s1 = await build(history, 0, first);
    await assertSameLog(s1, await build(history, 3, first));
  });

  it('on the real ac671b trace split at midnight (one leg carried from one day into the next)', async () => {
    const history = midnightTree(tmp());
    const serial = await build(history, 0);
    assert.deepEqual(serial.result.written, ['2025-02-04', '2025-02-05']);
    await assertSameLog(serial, await build(history, 1));
  });

  it('refuses workers without the airfield tables: a locate function cannot cross threads', async () => {
    const { locate, legs } = realAirfields();
    await assert.rejects(buildLog({ history: SAMPLE_TREE, log: tmp(), select: { all: true }, locate, legs, workers: 2 }), /workers need the airfield tables/);
  });
});

describe('bad trace files on the worker path: named, counted, skipped, the rest of the night kept', () => {
  const day = '2025-02-05';
  const bad: Record<string, { hex: string; reason: Skipped['reason']; detail: RegExp; path?: string }> = {
    truncated: { hex: 'a0000b', reason: 'corrupt', detail: /^gzip: / },
    json: { hex: 'a0001b', reason: 'corrupt', detail: /^JSON: / },
    rows: { hex: 'a0002b', reason: 'not_trace', detail: /"trace" must be an array/ },
    icao: { hex: 'a0003b', reason: 'not_trace', detail: /icao ffffff does not match the file name/ },
  };
  let serial: Run;
  let workers: Run;
  before(async () => {
    // the ac671b tree, with bad files beside its good one on the 5th
    const history = midnightTree(tmp());
    const good = readFileSync(tracePath(history, day, 'ac671b'));
    const bytes: Record<string, Buffer> = {
      truncated: good.subarray(0, good.length >> 1),
      json: gzipSync('{"icao": "a0001b", "timestamp": 1738713600, "trace": [[0, 45.1, '),
      rows: gzipSync(JSON.stringify({ icao: 'a0002b', timestamp: 1738713600, trace: 'rows' })),
      icao: gzipSync(JSON.stringify({ icao: 'ffffff', timestamp: 1738713600, trace: [] })),
    };
    for (const [k, b] of Object.entries(bad)) b.path = putFile(tracePath(history, day, b.hex), bytes[k]!);
    serial = await build(history, 0);
    workers = await build(history, 2);
  });

  for (const [what, b] of Object.entries({
    'a truncated gzip': bad.truncated!,
    'broken JSON': bad.json!,
    'a trace whose rows are not an array': bad.rows!,
    'a trace of another airframe': bad.icao!,
  })) {
    it(`${what}: its file named once with its reason, and counted`, () => {
      const mine = workers.skips.filter((s) => s.path === b.path);
      assert.deepEqual(
        mine.map((s) => s.reason),
        [b.reason],
      );
      assert.match(mine[0]!.detail, b.detail);
    });
  }

  it("counts each skip, writes the good file's legs, and skips as the in-thread path skips", async () => {
    assert.deepEqual(workers.result.skipped, { bad_name: 0, non_icao: 0, unreadable: 0, corrupt: 2, not_trace: 2 });
    assert.equal(workers.skips.length, 4);
    assert.equal(workers.result.legs, 4, "ac671b's four legs are still written");
    await assertSameLog(serial, workers);
  });

  it('a file that cannot be read (gone between the listing and the read)', async () => {
    const history = midnightTree(tmp());
    const path = putFile(tracePath(history, day, 'a0004b'), gzipSync('{}'));
    // the listing is made before the step starts; the file goes before any worker reads it
    const removing: Progress = { start: (step) => step === `legs ${day}` && rmSync(path, { force: true }), tick() {}, done() {} };
    const r = await build(history, 2, {}, removing);
    assert.deepEqual(
      r.skips.map((s) => [s.path, s.reason]),
      [[path, 'unreadable']],
    );
    assert.match(r.skips[0]!.detail, /ENOENT/);
    assert.equal(r.result.skipped.unreadable, 1);
    assert.equal(r.result.legs, 4);
  });

  it('a trace with bad rows: the rows are left out and counted, the file is cut as the in-thread path cuts it', async () => {
    const doc = ac671b();
    const rows = [['x', 45, -93, 1000], [10, 91, 0, 'ground'], [20, 45, -93, 1e9], 'row'];
    doc.trace.splice(100, 0, ...(rows as unknown[][]));
    const history = tmp();
    putFile(tracePath(history, '2025-02-04', 'ac671b'), doc);
    const s = await build(history, 0);
    const w = await build(history, 2);
    assert.equal(w.result.droppedRows, 4);
    assert.deepEqual(w.skips, [], 'a bad row is not a bad file');
    assert.ok(w.result.legs > 0, 'the good rows make legs');
    await assertSameLog(s, w);
  });

  it('a failure while folding (here a progress line) fails the build, leaving the previous day file intact', async () => {
    const { log } = await build(SAMPLE_TREE, 0);
    const file = dayFile(log, '2023-08-30');
    const previous = readFileSync(file);
    let ticks = 0;
    const failing: Progress = {
      start() {},
      tick: () => {
        if (++ticks === 2) throw new Error('injected failure between files');
      },
      done() {},
    };
    await assert.rejects(
      buildLog({ history: SAMPLE_TREE, log, select: { all: true }, threads: 1, ...realAirfields(), workers: 2, onSkip: () => {} }, failing),
      /injected failure/,
    );
    assert.ok(readFileSync(file).equals(previous), 'the day file of the build before');
    assert.deepEqual(readdirSync(dayDir(log, '2023-08-30')), ['legs.parquet', 'points.parquet']);
  });
});
