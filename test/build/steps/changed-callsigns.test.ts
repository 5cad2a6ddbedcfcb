// the window's legs of a night's re-routed callsigns (build/steps/changed-callsigns.ts
// pickChangedCallsignLegs): picked from `legs` once for a set of callsigns, every spelling of them,
// and filtered for each family that asks; another set is picked again.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DuckDBInstance } from '@duckdb/node-api';
import { pickChangedCallsignLegs } from '../../../build/steps/changed-callsigns.ts';

process.env.TZ = 'UTC';

test('a set of changed callsigns is picked from the legs once, then filtered for each caller; another set is picked again', async () => {
  const db = await (await DuckDBInstance.create(':memory:')).connect();
  await db.run(
    `CREATE TABLE legs (hex VARCHAR, callsign VARCHAR, reg VARCHAR, type VARCHAR, first_ts BIGINT, last_ts BIGINT, dep_ts BIGINT, arr_ts BIGINT, org VARCHAR, dst VARCHAR, day DATE)`,
  );
  await db.run(`INSERT INTO legs VALUES
    ('4b1801', 'SWR1', NULL, NULL, 1, 2, 1, 2, 'LSZH', NULL, DATE '2026-03-01'),
    ('4b1801', 'SWR1', NULL, NULL, 3, 4, 3, 4, 'LSZH', 'EGLL', DATE '2026-03-02'),
    ('4b1802', ' swr1', NULL, NULL, 5, 6, 5, 6, 'LSZH', NULL, DATE '2026-03-03'),
    ('3c0001', 'DLH2', NULL, NULL, 7, 8, 7, 8, 'EDDF', NULL, DATE '2026-03-01'),
    ('3c0001', 'DLH2', NULL, NULL, 9, 10, 9, 10, 'EDDF', NULL, DATE '2026-03-03')`);
  await db.run(`CREATE TABLE ref_airports AS SELECT * FROM (VALUES ('LSZH', 'ZRH'), ('EGLL', 'LHR'), ('EDDF', 'FRA')) t(ident, iata)`);
  await db.run(
    `CREATE TABLE routes_table AS SELECT * FROM (VALUES ('SWR1', 'ZRH', 'LHR', 'LSZH', 'EGLL', 'catalog', false, false)) t(callsign, org, dst, org_ident, dst_ident, route_source, org_seen, dst_seen)`,
  );
  const routed = { view: 'legs_routed', table: 'routes_table' } as const;
  const changed = (cs: string[]) =>
    db.run(`CREATE OR REPLACE TEMP TABLE fold_changed AS SELECT unnest([${cs.map((c) => `'${c}'`).join(', ')}]::VARCHAR[]) AS callsign`);
  const picked = async () => (await db.runAndReadAll(`SELECT hex, callsign, day::VARCHAR AS day FROM fold_cs_legs ORDER BY first_ts`)).getRowObjects();

  await changed(['SWR1']);
  await pickChangedCallsignLegs(db, routed);
  assert.deepEqual(
    (await picked()).map((r) => r.callsign),
    ['SWR1', 'SWR1', ' swr1'],
    'every spelling of the callsign',
  );
  const filled = await db.runAndReadAll(`SELECT dst FROM fold_cs_routed ORDER BY first_ts`);
  assert.deepEqual(
    filled.getRows().map((r) => r[0]),
    ['LHR', 'LHR', 'LHR'],
    "routed with tonight's table (a missing end filled)",
  );

  // the same set again, another filter: from what was picked, not from the legs (taken away here to show it)
  await db.run(`DELETE FROM legs WHERE upper(trim(callsign)) = 'SWR1'`);
  await pickChangedCallsignLegs(db, routed, `NOT (l.day IN (DATE '2026-03-03'))`);
  assert.deepEqual(
    (await picked()).map((r) => r.day),
    ['2026-03-01', '2026-03-02'],
    'filtered from the picked legs',
  );

  // another set: picked from the legs again
  await changed(['DLH2']);
  await pickChangedCallsignLegs(db, routed);
  assert.deepEqual(
    (await picked()).map((r) => r.hex),
    ['3c0001', '3c0001'],
  );
  await changed(['SWR1']);
  await pickChangedCallsignLegs(db, routed);
  assert.deepEqual(await picked(), [], 'SWR1 read again from the legs, which no longer hold it');
});
