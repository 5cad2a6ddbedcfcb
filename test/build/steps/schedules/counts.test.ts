// the schedules' saved counts (build/steps/schedules/counts.ts): a first build's grouped
// departures listed (listScheduleCounts), a night's delta of signed departures summed into the
// saved lists (mergeScheduleCounts). the increment test compares a night with a fresh
// build, which runs this same code; these pin what the lists must hold whichever way they are made:
// sorted, no entry at 0, a key or a route with nothing left gone, flights the sum of the slots,
// dep the modal slot with ties to the later one, a count below zero reported.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { listScheduleCounts, mergeScheduleCounts } from '../../../../build/steps/schedules/counts.ts';

process.env.TZ = 'UTC';

/** sc_delta rows: [callsign, k, v, n] on the route SWR ZRH-LHR (k 0 a slot of the callsign's key, 1 a weekday, 2 a local date of the route) */
async function delta(db: DuckDBConnection, rows: [string | null, number, number, number][]): Promise<void> {
  const values = rows.map(([cs, k, v, n]) => `('SWR', 'ZRH', 'LHR', ${cs === null ? 'NULL' : `'${cs}'`}, ${k}, ${v}, ${n})`).join(', ');
  await db.run(`CREATE OR REPLACE TEMP TABLE sc_delta AS SELECT icao, org, dst, callsign, k::UTINYINT AS k, v::INTEGER AS v, n::INTEGER AS n
    FROM (VALUES ${values}) t(icao, org, dst, callsign, k, v, n)`);
}

const keysOf = async (db: DuckDBConnection) =>
  (await db.runAndReadAll(`SELECT callsign, to_json(slots)::VARCHAR AS slots, flights, dep FROM sc_keys ORDER BY callsign`)).getRowObjects();
const routesOf = async (db: DuckDBConnection) =>
  (await db.runAndReadAll(`SELECT to_json(weekdays)::VARCHAR AS weekdays, to_json(dates)::VARCHAR AS dates FROM sc_routes`)).getRowObjects();

/** the merged tables saved as a build saves them (state/<name>.parquet), under a name of their own */
async function save(db: DuckDBConnection, dir: string, night: number): Promise<{ keys: string; routes: string }> {
  const files = { keys: join(dir, `sc_keys-${night}.parquet`), routes: join(dir, `sc_routes-${night}.parquet`) };
  await db.run(`COPY sc_keys TO '${files.keys}' (FORMAT parquet)`);
  await db.run(`COPY sc_routes TO '${files.routes}' (FORMAT parquet)`);
  await db.run(`DROP TABLE IF EXISTS sc_tr`);
  return files;
}

test('saved schedule counts: a delta summed in keeps the lists sorted, drops what reaches 0, and picks the later of two modal slots', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'contrail-sc-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const db = await (await DuckDBInstance.create(':memory:')).connect();
  // counted from nothing: SWR100 departs in slots 100 (twice), 50 (twice) and 20; SWR200 once in slot 10
  await delta(db, [
    ['SWR100', 0, 100, 2],
    ['SWR100', 0, 50, 2],
    ['SWR100', 0, 20, 1],
    ['SWR200', 0, 10, 1],
    [null, 1, 3, 4],
    [null, 1, 5, 2],
    [null, 2, 20005, 3],
    [null, 2, 20001, 2],
    [null, 2, 20003, 1],
  ]);
  await listScheduleCounts(db);
  assert.deepEqual(await keysOf(db), [
    { callsign: 'SWR100', slots: '[{"v":20,"n":1},{"v":50,"n":2},{"v":100,"n":2}]', flights: 5, dep: 100 },
    { callsign: 'SWR200', slots: '[{"v":10,"n":1}]', flights: 1, dep: 10 },
  ]);
  assert.deepEqual(await routesOf(db), [{ weekdays: '[0,0,4,0,2,0,0]', dates: '[{"d":20001,"n":2},{"d":20003,"n":1},{"d":20005,"n":3}]' }]);
  const first = await save(db, dir, 1);

  // a night: slot 100 leaves SWR100 (its modal slot is now 50), slot 30 joins in the middle, SWR200 is gone;
  // a date leaves, one is added between the saved ones, one moves, one stays; a weekday empties
  await delta(db, [
    ['SWR100', 0, 100, -2],
    ['SWR100', 0, 30, 1],
    ['SWR100', 0, 50, 1],
    ['SWR200', 0, 10, -1],
    [null, 1, 5, -2],
    [null, 1, 1, 1],
    [null, 2, 20001, -2],
    [null, 2, 20002, 1],
    [null, 2, 20005, 1],
    [null, 2, 20009, 0],
  ]);
  assert.equal(await mergeScheduleCounts(db, first), 0, 'no count below zero');
  assert.deepEqual(await keysOf(db), [{ callsign: 'SWR100', slots: '[{"v":20,"n":1},{"v":30,"n":1},{"v":50,"n":3}]', flights: 5, dep: 50 }]);
  assert.deepEqual(await routesOf(db), [{ weekdays: '[1,0,4,0,0,0,0]', dates: '[{"d":20002,"n":1},{"d":20003,"n":1},{"d":20005,"n":4}]' }]);
  const second = await save(db, dir, 2);

  // every departure taken away: the key and the route are gone
  await delta(db, [
    ['SWR100', 0, 20, -1],
    ['SWR100', 0, 30, -1],
    ['SWR100', 0, 50, -3],
    [null, 1, 1, -1],
    [null, 1, 3, -4],
    [null, 2, 20002, -1],
    [null, 2, 20003, -1],
    [null, 2, 20005, -4],
  ]);
  assert.equal(await mergeScheduleCounts(db, second), 0, 'no count below zero');
  assert.deepEqual(await keysOf(db), []);
  assert.deepEqual(await routesOf(db), []);
});

test('saved schedule counts: a delta that takes away more than was saved is reported, not saved as a negative count', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'contrail-sc-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const db = await (await DuckDBInstance.create(':memory:')).connect();
  await delta(db, [
    ['SWR100', 0, 50, 1],
    [null, 1, 3, 1],
    [null, 2, 20001, 1],
  ]);
  await listScheduleCounts(db);
  const saved = await save(db, dir, 1);
  // slot 50 taken away twice, a date never counted taken away
  await delta(db, [
    ['SWR100', 0, 50, -2],
    [null, 1, 3, -1],
    [null, 2, 20004, -1],
  ]);
  assert.ok((await mergeScheduleCounts(db, saved)) > 0, 'the counts below zero are reported');
});
