import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync, cpSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { after, describe, it } from 'node:test';
import { buildLog, type BuildLogOptions } from '../../../build/log/build.ts';
import { archiveThrough, listLogDays, openLog } from '../../../build/log/read.ts';
import { dayFile } from '../../../build/log/write.ts';
import type { Skipped } from '../../../build/history/scan.ts';
import type { Progress } from '../../../build/progress.ts';
import { assertValid } from '../../../schemas/index.ts';
import { SAMPLE_TREE, ac671b, midnightTree, putFile, splitByDay, tempDir, testLocate, tracePath } from '../../helpers/history.ts';

process.env.TZ = 'UTC';

const dirs: string[] = [];
const tmp = () => {
  const d = tempDir();
  dirs.push(d);
  return d;
};
after(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

function opts(history: string, log: string, extra: Partial<BuildLogOptions> = {}): BuildLogOptions {
  return { history, log, select: { all: true }, locate: testLocate, threads: 1, onSkip: () => {}, ...extra };
}

async function readAll(log: string, where = 'true') {
  const l = await openLog(log, { threads: 1 });
  try {
    return await l.rows(`SELECT * FROM legs WHERE ${where} ORDER BY hex, first_ts`);
  } finally {
    l.close();
  }
}

describe('buildLog on the real globe_history sample', () => {
  it('writes legs.parquet under day=YYYY-MM-DD that DuckDB reads back with the day column, each row valid', async () => {
    const log = tmp();
    const r = await buildLog(opts(SAMPLE_TREE, log));
    assert.deepEqual(r.written, ['2023-08-30']);
    assert.equal(r.files, 22);
    assert.ok(existsSync(join(log, 'day=2023-08-30', 'legs.parquet')), "existsSync(join(log, 'day=2023-08-30', 'legs.parquet'))");
    const rows = await readAll(log);
    assert.equal(rows.length, r.legs);
    assert.ok(rows.length > 20, 'rows.length > 20');
    for (const row of rows) {
      assert.equal(row.day, '2023-08-30');
      assertValid('flight-log', row);
    }
    // the PA-28 N3423Q flew circuits at Black Rock City: kept in the log with org = dst
    const circuits = rows.filter((x) => x.hex === 'a3c78c');
    assert.ok(circuits.length >= 1, 'circuits.length >= 1');
    for (const c of circuits) {
      assert.equal(c.org, '88NV');
      assert.equal(c.dst, '88NV');
      assert.equal(c.reg, 'N3423Q');
      assert.equal(c.type, 'P28R');
    }
    assert.deepEqual(listLogDays(log), ['2023-08-30']);
    assert.equal(archiveThrough(log), '2023-08-30');
  });

  it('replaces the day file when the day is built again', async () => {
    const history = tmp();
    cpSync(SAMPLE_TREE, history, { recursive: true });
    const log = tmp();
    const before = await buildLog(opts(history, log));
    rmSync(tracePath(history, '2023-08-30', 'aa178d')); // the C172 with six circuits
    const again = await buildLog(opts(history, log));
    const rows = await readAll(log);
    assert.equal(rows.length, again.legs);
    assert.ok(again.legs < before.legs, 'again.legs < before.legs');
    assert.equal(rows.filter((x) => x.hex === 'aa178d').length, 0);
    assert.deepEqual(readdirSync(join(log, 'day=2023-08-30')), ['legs.parquet', 'points.parquet']);
  });
});

describe('a leg crossing midnight UTC (the real ac671b trace split at midnight)', () => {
  it('is written once, whole, in the file of the UTC day of its first point', async () => {
    const history = midnightTree(tmp());
    const log = tmp();
    const r = await buildLog(opts(history, log));
    assert.deepEqual(r.written, ['2025-02-04', '2025-02-05']);
    assert.equal(r.open, 0);
    const rows = await readAll(log);
    const dal1812 = rows.filter((x) => x.callsign === 'DAL1812');
    assert.equal(dal1812.length, 1);
    assert.equal(dal1812[0]!.day, '2025-02-04', 'its first point is on 2025-02-04, its landing on the 5th');
    assert.equal(new Date((dal1812[0]!.first_ts as number) * 1000).toISOString(), '2025-02-04T21:13:43.000Z');
    assert.equal(dal1812[0]!.dst, 'KMSP');
    assert.equal(dal1812[0]!.open, false);
    assert.deepEqual(
      rows.map((x) => x.callsign),
      ['DAL1812', 'DAL2418', 'DAL1615', 'DAL2927'],
    );
    for (const row of rows) assert.equal(row.day, new Date((row.first_ts as number) * 1000).toISOString().slice(0, 10));
    const den = rows.find((x) => x.callsign === 'DAL2927')!;
    assert.deepEqual([den.org, den.dst], ['KMSP', 'KDEN']);
  });

  it('gives the same rows when either day is built alone (the carry is rebuilt from the day before, closed from the day after)', async () => {
    const history = midnightTree(tmp());
    const both = tmp();
    await buildLog(opts(history, both));
    const second = tmp();
    const r = await buildLog(opts(history, second, { select: { from: '2025-02-05', to: '2025-02-05' } }));
    assert.deepEqual(r.written, ['2025-02-05']);
    assert.deepEqual(r.merged, ['2025-02-04'], 'DAL1812 closes on the 5th and belongs to the 4th');
    assert.equal(r.files, 1, 'the warm-up day is read but not counted');
    assert.deepEqual(await readAll(second), await readAll(both));
    const first = tmp();
    const r1 = await buildLog(opts(history, first, { select: { from: '2025-02-04', to: '2025-02-04' } }));
    assert.deepEqual(r1.written, ['2025-02-04']);
    assert.equal(r1.open, 0, 'the look-ahead into the 5th closes DAL1812');
    assert.deepEqual(await readAll(first), await readAll(both, "day = DATE '2025-02-04'"));
  });

  it('writes a leg still going after the newest day as open, and the build of the next day closes it in place', async () => {
    const history = tmp();
    const [[d1, p1], [d2, p2]] = [...splitByDay(ac671b())];
    putFile(tracePath(history, d1!, 'ac671b'), p1);
    const log = tmp();
    const r = await buildLog(opts(history, log));
    assert.equal(r.open, 1);
    const open = await readAll(log);
    assert.deepEqual(listLogDays(log), ['2025-02-04']);
    assert.equal(open.length, 1, 'never dropped: the leg in the air at midnight is in the log');
    assert.deepEqual([open[0]!.callsign, open[0]!.open, open[0]!.arr_ts, open[0]!.dst], ['DAL1812', true, null, null]);
    assertValid('flight-log', { ...open[0], day: undefined });

    putFile(tracePath(history, d2!, 'ac671b'), p2); // the next night: the 5th arrives
    const next = await buildLog(opts(history, log, { select: { days: 1 } }));
    assert.deepEqual(next.written, ['2025-02-05']);
    assert.deepEqual(next.merged, ['2025-02-04']);
    const rows = await readAll(log);
    const whole = tmp();
    await buildLog(opts(history, whole));
    assert.deepEqual(rows, await readAll(whole), 'the same log as building both days at once: the open row replaced, not doubled');
    assert.equal(rows.filter((x) => x.open).length, 0);
  });
});

describe('bad input files are skipped, counted and reported once', () => {
  it('skips truncated gzip, broken JSON, non-trace JSON, a mismatched icao and bad names; the good files still make legs', async () => {
    const history = midnightTree(tmp());
    const day = '2025-02-05';
    const good = readFileSync(tracePath(history, day, 'ac671b'));
    putFile(tracePath(history, day, 'a0000b'), good.subarray(0, Math.floor(good.length / 2))); // truncated gzip
    putFile(tracePath(history, day, 'a0001b'), gzipSync('{"icao": "a0001b", "trace": [')); // gzip of broken JSON
    putFile(tracePath(history, day, 'a0002b'), '{"aircraft": []}'); // plain JSON, not a trace
    putFile(tracePath(history, day, 'a0003b'), gzipSync(JSON.stringify({ icao: 'ffffff', timestamp: 0, trace: [] })));
    putFile(tracePath(history, day, 'a0004b').replace('trace_full_a0004b', 'trace_recent_a0004b'), '{}');
    putFile(tracePath(history, day, 'a0005b').replace('/5b/', '/xx/'), '{}'); // misfiled
    putFile(tracePath(history, day, '~a0006b'), gzipSync('{}')); // non-ICAO address
    const seen: Skipped[] = [];
    const r = await buildLog(opts(history, tmp(), { onSkip: (s) => seen.push(s) }));
    assert.deepEqual(r.skipped, { bad_name: 2, non_icao: 1, unreadable: 0, corrupt: 2, not_trace: 2 });
    assert.equal(seen.length, 7);
    assert.equal(new Set(seen.map((s) => s.path)).size, 7, 'each file reported once');
    assert.ok(
      seen.some((s) => s.path.endsWith('trace_full_a0000b.json') && s.reason === 'corrupt'),
      "seen.some((s) => s.path.endsWith('trace_full_a0000b.json') && s.reason === 'corrupt')",
    );
    assert.ok(
      seen.some((s) => s.path.endsWith('trace_full_a0003b.json') && s.reason === 'not_trace'),
      "seen.some((s) => s.path.endsWith('trace_full_a0003b.json') && s.reason === 'not_trace')",
    );
    assert.equal(r.legs, 4);
  });
});

describe('atomic day files', () => {
  const failAfter = (n: number): Progress => {
    let ticks = 0;
    return {
      start() {},
      tick() {
        if (++ticks === n) throw new Error('injected failure between files');
      },
      done() {},
    };
  };

  it('a build that fails midway leaves the previous file intact and no partial file', async () => {
    const log = tmp();
    await buildLog(opts(SAMPLE_TREE, log));
    const file = dayFile(log, '2023-08-30');
    const bytes = readFileSync(file);
    await assert.rejects(buildLog(opts(SAMPLE_TREE, log), failAfter(11)), /injected failure/);
    assert.deepEqual(readFileSync(file), bytes);
    assert.deepEqual(readdirSync(join(log, 'day=2023-08-30')), ['legs.parquet', 'points.parquet']);
  });

  it('a first build that fails midway leaves no day at all', async () => {
    const log = tmp();
    await assert.rejects(buildLog(opts(SAMPLE_TREE, log), failAfter(5)), /injected failure/);
    assert.deepEqual(listLogDays(log), []);
    assert.equal(archiveThrough(log), null);
    const empty = await openLog(log, { threads: 1 });
    try {
      assert.deepEqual(await empty.rows('SELECT count(*) AS n FROM legs'), [{ n: 0 }]);
    } finally {
      empty.close();
    }
  });

  it('ignores the temporary file of a killed run when reading, and removes it on the next write', async () => {
    const log = tmp();
    await buildLog(opts(SAMPLE_TREE, log));
    const n = (await readAll(log)).length;
    const stale = join(log, 'day=2023-08-30', '.legs.parquet.99999.tmp');
    writeFileSync(stale, 'PAR1 half a file');
    assert.equal((await readAll(log)).length, n);
    await buildLog(opts(SAMPLE_TREE, log));
    assert.equal(existsSync(stale), false);
    assert.ok(statSync(dayFile(log, '2023-08-30')).size > 0, "statSync(dayFile(log, '2023-08-30')).size > 0");
  });
});
