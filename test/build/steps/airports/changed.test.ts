// the airports a night that reuses the previous build must build (build/steps/airports/changed.ts)
// are those the changes of the step's rule (step.ts, reuse.documents) reach, and no others: each
// change the rule declares is tried by a rule without it, which keeps the airport it would reach.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { changedAirports } from '../../../../build/steps/airports/changed.ts';
import { AIRPORTS_STEP } from '../../../../build/steps/airports/step.ts';
import { ROUTES_STATE } from '../../../../build/steps/airframes/step.ts';
import type { Change } from '../../../../build/steps/declaration.ts';
import type { BuildContext, RoutedLegs } from '../../../../build/steps/context.ts';
import { writeInputs, type BuildInputs } from '../../../../build/publish/inputs.ts';

process.env.TZ = 'UTC';

const ROUTED: RoutedLegs = { view: 'legs_routed', table: 'routes_table' };

test('the airports an increment builds are those its declared changes reach: without board-days, the ends of a day that left the board stay', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'contrail-airports-changed-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  // the previous build: through 06-06, a 30-day window (its board window 05-10..06-06); tonight through 06-07 (board from 05-11)
  const prev = join(dir, 'prev');
  mkdirSync(dirname(join(prev, ROUTES_STATE)), { recursive: true });
  writeFileSync(join(prev, ROUTES_STATE), '');
  writeInputs(prev, { log_values: { archive_through: '2025-06-06', window_start: '2025-05-08' } } as unknown as BuildInputs);
  const db = await (await DuckDBInstance.create(':memory:')).connect();
  t.after(() => db.closeSync());
  await db.run(`CREATE TABLE ref_airports AS
    SELECT * FROM (VALUES ('LSZH', 'ZRH'), ('EGLL', 'LHR'), ('EDDF', 'FRA'), ('LFPG', 'CDG'), ('LOWW', 'VIE')) t(ident, iata)`);
  // the new day's leg, one on the day that left the board window, one on a day neither entered nor left
  await db.run(`CREATE TABLE legs AS SELECT org, dst, day::DATE AS day, callsign FROM (VALUES
    ('LSZH', 'EGLL', '2025-06-07', 'SWR100'), ('EDDF', 'LFPG', '2025-05-10', 'DLH10'), ('LOWW', 'LSZH', '2025-05-20', 'AUA1')) t(org, dst, day, callsign)`);
  const ctx = (over: Partial<BuildContext> = {}) =>
    ({
      reuse: prev,
      logDays: { added: ['2025-06-07'], dropped: [] },
      archiveThrough: '2025-06-07',
      windowStart: '2025-05-09',
      windowDays: 30,
      timetablesDir: null,
      ...over,
    }) as unknown as BuildContext;
  const declared = AIRPORTS_STEP.reuse.documents;
  // changed-routes is tried in the nightly's increment tests (it needs a routes table on both nights)
  const without = (...changes: Change[]) => ({
    ...declared,
    rebuild: declared.rebuild.filter((c) => c !== 'changed-routes' && !changes.includes(c)),
    routes: undefined,
  });
  const built = async (rule: ReturnType<typeof without>, over?: Partial<BuildContext>) => {
    const s = await changedAirports(ctx(over), db, ROUTED, rule);
    return s && [...s].sort();
  };

  assert.deepEqual(await built(without()), ['CDG', 'FRA', 'LHR', 'ZRH'], "the new day's ends and the ends of the day that left the board window");
  assert.deepEqual(await built(without('board-days')), ['LHR', 'ZRH'], 'without board-days: FRA and CDG kept, stale');
  assert.deepEqual(await built(without('board-days', 'added-days')), [], "without added-days: the new day's ends kept too");
  // timetables and a window of another length reach every airport: null, build them all; a rule without them does not see them
  assert.equal(await built(without(), { timetablesDir: join(dir, 'timetables') }), null);
  assert.deepEqual(await built(without('timetables'), { timetablesDir: join(dir, 'timetables') }), ['CDG', 'FRA', 'LHR', 'ZRH']);
  assert.equal(await built(without(), { windowDays: 31 }), null);
  assert.deepEqual(await built(without('window-length'), { windowDays: 31 }), ['CDG', 'FRA', 'LHR', 'ZRH']);
  // the rule's state is read from the previous build: without the routes table it names, every airport
  rmSync(join(prev, ROUTES_STATE));
  assert.equal(await built(without()), null);
});
