// dep_runway and arr_runway through the flight-log files: written, read back, and null from a day
// written before they existed (build/log/write.ts, read.ts).
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { DuckDBInstance } from '@duckdb/node-api';
import type { LegRow } from '../../../build/log/legs.ts';
import { openLog } from '../../../build/log/read.ts';
import { NO_POSITIONS } from '../../helpers/leg-row.ts';
import { LogWriter, dayDir, dayFile, sqlString } from '../../../build/log/write.ts';

process.env.TZ = 'UTC';

describe('dep_runway and arr_runway in the log files', () => {
  const dirs: string[] = [];
  after(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
  const row = (hex: string, first: number, dep: string | null, arr: string | null): LegRow => ({
    hex,
    callsign: 'TEST1',
    reg: null,
    type: 'B789',
    first_ts: first,
    last_ts: first + 3600,
    dep_ts: first + 600,
    arr_ts: first + 3000,
    org: 'KEWR',
    dst: 'KEWR',
    open: false,
    dep_runway: dep,
    arr_runway: arr,
    ...NO_POSITIONS,
  });

  it('are written, read back, and read as null from a day written before they existed', async () => {
    const log = mkdtempSync(join(tmpdir(), 'contrail-runways-'));
    dirs.push(log);
    const d1 = Date.parse('2025-06-01T00:00:00Z') / 1000;
    const w = await LogWriter.open(log, 1);
    try {
      await w.writeDay('2025-06-02', [row('a00001', d1 + 86400 + 3600, '4R', '29'), row('a00002', d1 + 86400 + 7200, null, '22L')]);
      // an old day: the file as the writer made it before the runway columns (no dep_runway, arr_runway)
      const db = await DuckDBInstance.create(':memory:');
      const c = await db.connect();
      mkdirSync(dayDir(log, '2025-06-01'), { recursive: true });
      await c.run(`COPY (SELECT 'a00003' AS hex, 'OLD1' AS callsign, NULL::VARCHAR AS reg, NULL::VARCHAR AS type, ${d1 + 3600}::BIGINT AS first_ts,
        ${d1 + 7200}::BIGINT AS last_ts, NULL::BIGINT AS dep_ts, NULL::BIGINT AS arr_ts, NULL::VARCHAR AS org, NULL::VARCHAR AS dst, false AS open)
        TO ${sqlString(dayFile(log, '2025-06-01'))} (FORMAT parquet)`);
      c.closeSync();
      db.closeSync();
      // a merge into the old day keeps its row (the new columns null) beside the new one
      await w.mergeDay('2025-06-01', [row('a00004', d1 + 10_000, '11', null)]);
    } finally {
      w.close();
    }
    const read = await openLog(log);
    try {
      const rows = await read.rows('SELECT hex, dep_runway, arr_runway, "open" FROM legs ORDER BY hex');
      assert.deepEqual(rows, [
        { hex: 'a00001', dep_runway: '4R', arr_runway: '29', open: false },
        { hex: 'a00002', dep_runway: null, arr_runway: '22L', open: false },
        { hex: 'a00003', dep_runway: null, arr_runway: null, open: false },
        { hex: 'a00004', dep_runway: '11', arr_runway: null, open: false },
      ]);
    } finally {
      read.close();
    }
  });
});
