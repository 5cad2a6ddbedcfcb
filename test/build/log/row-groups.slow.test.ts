// a day's legs.parquet is cut into small row groups sorted by hex (build/log/write.ts
// LEG_FILE_OPTIONS), whichever writer made it: the build's LogWriter and the simulator. the
// nightly's airframe batches each read one hex range of the year, and a reader skips a row group
// only when its min/max hex lies outside that range, so the groups must be small and disjoint.
import { NO_POSITIONS } from '../../helpers/leg-row.ts';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { LogWriter, dayFile } from '../../../build/log/write.ts';
import type { LegRow } from '../../../build/log/legs.ts';
import { rng } from '../../../lib/random.ts';
import { writeFastLog } from '../../../sim/log.ts';
import { loadWorld } from '../../../sim/world.ts';
import { ROOT } from '../../helpers/processes.ts';

process.env.TZ = 'UTC';

/** each row group's rows and min/max hex, in file order */
async function rowGroups(file: string): Promise<{ rows: number; min: string; max: string }[]> {
  const db = await (await DuckDBInstance.create(':memory:', { threads: '1' })).connect();
  try {
    const r = await db.runAndReadAll(`SELECT row_group_id, row_group_num_rows AS rows, stats_min AS min, stats_max AS max
      FROM parquet_metadata('${file}') WHERE path_in_schema = 'hex' ORDER BY row_group_id`);
    return r.getRowObjectsJS().map((x) => ({ rows: Number(x.rows), min: String(x.min), max: String(x.max) }));
  } finally {
    db.closeSync();
  }
}

/** the groups hold at most 16,384 rows, there are several, and their hex ranges follow one another without overlap */
function assertSmallSortedGroups(groups: { rows: number; min: string; max: string }[], total: number): void {
  assert.equal(
    groups.reduce((n, g) => n + g.rows, 0),
    total,
    'every leg is in the file',
  );
  assert.ok(groups.length >= Math.ceil(total / 16_384), `${groups.length} row groups for ${total} legs`);
  for (const g of groups) assert.ok(g.rows <= 16_384, `a row group of ${g.rows} rows`);
  for (let i = 1; i < groups.length; i++)
    assert.ok(groups[i - 1]!.max <= groups[i]!.min, `row group ${i} starts at ${groups[i]!.min}, before the end of the one before (${groups[i - 1]!.max})`);
}

test("the build's LogWriter writes a day in small row groups, each a slice of the hex order", async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'contrail-row-groups-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const rand = rng(11);
  const t0 = Date.UTC(2025, 5, 1) / 1000;
  const rows: LegRow[] = Array.from({ length: 40_000 }, () => {
    const first = t0 + rand.int(80_000);
    return {
      hex: rand.int(0xffffff).toString(16).padStart(6, '0'),
      callsign: null,
      reg: null,
      type: null,
      first_ts: first,
      last_ts: first + 3600,
      dep_ts: null,
      arr_ts: null,
      org: null,
      dst: null,
      open: false,
      dep_runway: null,
      arr_runway: null,
      ...NO_POSITIONS,
    };
  });
  const w = await LogWriter.open(dir, 1);
  try {
    await w.writeDay('2025-06-01', rows);
  } finally {
    w.close();
  }
  assertSmallSortedGroups(await rowGroups(dayFile(dir, '2025-06-01')), rows.length);
});

test('the simulator writes its days the same way', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'contrail-row-groups-sim-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const world = loadWorld({ ref: join(ROOT, 'test/fixtures/ref-small'), routeRows: 0 });
  // the legs file only: its tracks (points.parquet) are not what this test reads
  const r = await writeFastLog(world, { out: dir, seed: 3, legsPerDay: 40_000, airframes: 20_000, threads: 1, start: '2025-06-01', days: 1, tracks: false });
  assertSmallSortedGroups(await rowGroups(dayFile(dir, '2025-06-01')), r.legs);
});
