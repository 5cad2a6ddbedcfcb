// a log written before the positions, circuit and track columns existed still reads, and merges
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { DuckDBInstance } from '@duckdb/node-api';
import { openLog } from '../../../build/log/read.ts';
import { LogWriter, dayDir, dayFile, sqlString } from '../../../build/log/write.ts';
import { NO_POSITIONS } from '../../helpers/leg-row.ts';

process.env.TZ = 'UTC';
const T0 = Date.UTC(2025, 0, 10, 8) / 1000;

/** a day file in the columns of the log before this change: no positions, no circuit, no open */
async function oldDay(log: string, day: string): Promise<void> {
  mkdirSync(dayDir(log, day), { recursive: true });
  const db = await DuckDBInstance.create(':memory:');
  const c = await db.connect();
  await c.run(`COPY (SELECT * FROM (VALUES
      ('4b1814', 'SWR1', NULL, NULL, ${T0}::BIGINT, ${T0 + 3600}::BIGINT, ${T0 + 60}::BIGINT, ${T0 + 3500}::BIGINT, 'LSZH', 'EGLL'),
      ('4b1815', NULL, NULL, NULL, ${T0}::BIGINT, ${T0 + 1800}::BIGINT, ${T0 + 60}::BIGINT, ${T0 + 1700}::BIGINT, 'LSPV', 'LSPV'))
    t(hex, callsign, reg, type, first_ts, last_ts, dep_ts, arr_ts, org, dst)) TO ${sqlString(dayFile(log, day))} (FORMAT parquet)`);
  c.closeSync();
  db.closeSync();
}

test('an old day file reads with the new columns null (circuit as org = dst, open false) beside a new one', async (t) => {
  const log = mkdtempSync(join(tmpdir(), 'contrail-old-log-'));
  t.after(() => rmSync(log, { recursive: true, force: true }));
  await oldDay(log, '2025-01-10');
  const w = await LogWriter.open(log, 1);
  const row = {
    hex: '4b1814',
    callsign: 'SWR2',
    reg: null,
    type: null,
    first_ts: T0 + 86400,
    last_ts: T0 + 90000,
    dep_ts: null,
    arr_ts: null,
    org: null,
    dst: null,
    open: false,
    dep_runway: null,
    arr_runway: null,
    ...NO_POSITIONS,
    distance_km: 12.5,
    max_alt_ft: 9000,
    track: [
      [T0 + 86400, 47, 8, 9000, 90],
      [T0 + 90000, 47.1, 8.1, 'ground', null],
    ] as [number, number, number, number | 'ground' | null, number | null][],
  };
  try {
    await w.writeDay('2025-01-11', [row]);
    // a merge into the old file keeps its rows, now in the new columns
    await w.mergeDay('2025-01-10', [{ ...row, hex: 'a00001', first_ts: T0 + 7200, last_ts: T0 + 9000 }]);
  } finally {
    w.close();
  }
  const l = await openLog(log);
  try {
    const rows = await l.rows('SELECT hex, day, dep_lat, distance_km, max_alt_ft, circuit, open FROM legs ORDER BY day, hex');
    assert.deepEqual(rows, [
      { hex: '4b1814', day: '2025-01-10', dep_lat: null, distance_km: null, max_alt_ft: null, circuit: false, open: false },
      { hex: '4b1815', day: '2025-01-10', dep_lat: null, distance_km: null, max_alt_ft: null, circuit: true, open: false },
      { hex: 'a00001', day: '2025-01-10', dep_lat: null, distance_km: 12.5, max_alt_ft: 9000, circuit: false, open: false },
      { hex: '4b1814', day: '2025-01-11', dep_lat: null, distance_km: 12.5, max_alt_ft: 9000, circuit: false, open: false },
    ]);
    const points = await l.rows('SELECT hex, first_ts, t, alt_baro, ground, track FROM points ORDER BY day, hex, t');
    assert.deepEqual(points, [
      { hex: 'a00001', first_ts: T0 + 7200, t: T0 + 86400, alt_baro: 9000, ground: false, track: 90 },
      { hex: 'a00001', first_ts: T0 + 7200, t: T0 + 90000, alt_baro: null, ground: true, track: null },
      { hex: '4b1814', first_ts: T0 + 86400, t: T0 + 86400, alt_baro: 9000, ground: false, track: 90 },
      { hex: '4b1814', first_ts: T0 + 86400, t: T0 + 90000, alt_baro: null, ground: true, track: null },
    ]);
  } finally {
    l.close();
  }
});
