// counts kept between nights (build/steps/counts-fold.ts), on the airports' tables: a night
// folds the new day into the saved counts and gets what counting the window gives; saved counts
// that are not tonight's kind (a table saved with other columns, by code before a column was added)
// are not folded but counted again, never read as if they were.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { prepareCounts, saveCounts, stateFile } from '../../../build/steps/counts-fold.ts';
import { AIRPORT_COUNTS } from '../../../build/steps/airports/sql.ts';
import { AIRPORTS_STEP } from '../../../build/steps/airports/step.ts';
import type { BuildContext } from '../../../build/steps/context.ts';

process.env.TZ = 'UTC';

const TOTALS = AIRPORTS_STEP.reuse.totals;

/** legs [hex, callsign, org, dst, day] */
async function legs(db: DuckDBConnection, rows: [string, string, string | null, string | null, string][]): Promise<void> {
  const values = rows.map(([h, c, o, d, day]) => `('${h}', '${c}', ${o ? `'${o}'` : 'NULL'}, ${d ? `'${d}'` : 'NULL'}, DATE '${day}')`).join(', ');
  await db.run(`CREATE OR REPLACE TABLE legs AS SELECT * FROM (VALUES ${values}) t(hex, callsign, org, dst, day)`);
}

const DAYS_1_2: [string, string, string | null, string | null, string][] = [
  ['4b1801', 'SWR100', 'LSZH', 'EGLL', '2026-01-01'],
  ['4b1801', 'SWR101', 'EGLL', 'LSZH', '2026-01-01'],
  ['4b1802', 'SWR100', 'LSZH', 'EGLL', '2026-01-02'],
  ['3c6401', 'DLH4', 'EDDF', null, '2026-01-02'],
];
const DAY_3: [string, string, string | null, string | null, string][] = [
  ['4b1803', 'swr100 ', 'LSZH', 'EGLL', '2026-01-03'],
  ['3c6401', 'N123', 'EDDF', 'LSZH', '2026-01-03'],
];

function context(dir: string, reuse: string | null): BuildContext {
  const progress = { start: () => {}, tick: () => {}, done: () => {} };
  const writer = { dir, readyForFiles: async () => {} };
  return { progress, writer, reuse, logDays: reuse ? { added: ['2026-01-03'], dropped: [] } : null, windowDays: 3, windowLimit: 3 } as unknown as BuildContext;
}

const rowsOf = async (db: DuckDBConnection, table: string) =>
  (await db.runAndReadAll(`SELECT * EXCLUDE (days), days::VARCHAR AS days FROM ${table} ORDER BY ALL`)).getRowObjectsJson();

test("a night folds its new day into the saved airport counts and gets the window's counts; a table saved with other columns is counted again", async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'contrail-counts-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const db = await (await DuckDBInstance.create(':memory:')).connect();
  await db.run(`CREATE TABLE ref_airports AS SELECT * FROM (VALUES ('LSZH', 'ZRH'), ('EGLL', 'LHR'), ('EDDF', 'FRA')) t(ident, iata)`);
  await db.run(`CREATE TABLE ap_airlines AS SELECT * FROM (VALUES ('SWR'), ('DLH')) t(icao)`);
  const prev = join(dir, 'prev');
  await legs(db, DAYS_1_2);
  assert.equal(await prepareCounts(context(prev, null), db, null, 'airports', AIRPORT_COUNTS, 'airports: totals', TOTALS), null, 'no build to fold: counted');
  await saveCounts(context(prev, null), db, null, 'airports', AIRPORT_COUNTS);

  await legs(db, [...DAYS_1_2, ...DAY_3]);
  const folded = await prepareCounts(context(join(dir, 'night'), prev), db, null, 'airports', AIRPORT_COUNTS, 'airports: totals', TOTALS);
  assert.equal(folded?.line, "1 days added, 0 dropped, 0 callsigns' routes changed");
  const night = await rowsOf(db, 'ap_dests');
  await prepareCounts(context(join(dir, 'fresh'), null), db, null, 'airports', AIRPORT_COUNTS, 'airports: totals', TOTALS);
  assert.deepEqual(night, await rowsOf(db, 'ap_dests'), "the fold gives the window's count");
  // LSZH's departures to EGLL on 3 days (bits 0-2 of the ring), EDDF's one to LSZH on the third, one with no destination
  assert.deepEqual(
    night.map((r) => [r.ident, r.other, r.n]),
    [
      ['EDDF', 'LSZH', 1],
      ['EDDF', null, 1],
      ['EGLL', 'LSZH', 1],
      ['LSZH', 'EGLL', 3],
    ],
  );

  // the saved ap_dests without its day bits, as code before them saved it
  await db.run(`COPY (SELECT ident, other, n FROM read_parquet('${stateFile(prev, 'ap_dests')}')) TO '${stateFile(prev, 'ap_dests')}.tmp' (FORMAT parquet)`);
  await db.run(`COPY (SELECT * FROM read_parquet('${stateFile(prev, 'ap_dests')}.tmp')) TO '${stateFile(prev, 'ap_dests')}' (FORMAT parquet)`);
  const night2 = context(join(dir, 'night2'), prev);
  assert.equal(await prepareCounts(night2, db, null, 'airports', AIRPORT_COUNTS, 'airports: totals', TOTALS), null, 'not folded: counted from the window');
  assert.deepEqual(await rowsOf(db, 'ap_dests'), night, "and the counts are the window's");
  db.closeSync();
});

test('a fold takes in only the days its rule declares: without added-days the new day is not counted, the saved counts are carried', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'contrail-counts-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const db = await (await DuckDBInstance.create(':memory:')).connect();
  await db.run(`CREATE TABLE ref_airports AS SELECT * FROM (VALUES ('LSZH', 'ZRH'), ('EGLL', 'LHR'), ('EDDF', 'FRA')) t(ident, iata)`);
  await db.run(`CREATE TABLE ap_airlines AS SELECT * FROM (VALUES ('SWR'), ('DLH')) t(icao)`);
  const prev = join(dir, 'prev');
  await legs(db, DAYS_1_2);
  await prepareCounts(context(prev, null), db, null, 'airports', AIRPORT_COUNTS, 'airports: totals', TOTALS);
  const saved = await rowsOf(db, 'ap_dests');
  await saveCounts(context(prev, null), db, null, 'airports', AIRPORT_COUNTS);

  await legs(db, [...DAYS_1_2, ...DAY_3]);
  const blind = { ...TOTALS, rebuild: ['dropped-days' as const] };
  const folded = await prepareCounts(context(join(dir, 'night'), prev), db, null, 'airports', AIRPORT_COUNTS, 'airports: totals', blind);
  assert.equal(folded?.line, "0 days added, 0 dropped, 0 callsigns' routes changed");
  assert.deepEqual(await rowsOf(db, 'ap_dests'), saved, 'the saved counts as they were: the third day is not in them');
  assert.deepEqual(
    saved.map((r) => [r.ident, r.other, r.n]),
    [
      ['EDDF', null, 1],
      ['EGLL', 'LSZH', 1],
      ['LSZH', 'EGLL', 2],
    ],
  );
  // the step's own rule declares added-days: the third day's legs are in
  await prepareCounts(context(join(dir, 'night2'), prev), db, null, 'airports', AIRPORT_COUNTS, 'airports: totals', TOTALS);
  assert.deepEqual((await rowsOf(db, 'ap_dests')).find((r) => r.ident === 'LSZH')?.n, 3);
  db.closeSync();
});
