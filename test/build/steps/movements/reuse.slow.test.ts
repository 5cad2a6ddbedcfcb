// the movements step on a reusable night (build/steps/movements/step.ts): it writes the added day
// and the day before it, and keeps every older day's documents (both spellings) as they were, even
// where a callsign's routes-table row changed since (a closed day is frozen: docs/api.md).
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { ArtifactWriter } from '../../../../build/publish/writer.ts';
import type { BuildContext } from '../../../../build/steps/context.ts';
import { loadRefAirports } from '../../../../build/steps/duck.ts';
import { buildRoutes } from '../../../../build/steps/routes/build.ts';
import { buildMovements } from '../../../../build/steps/movements/build.ts';
import { ROUTES_STATE } from '../../../../build/steps/airframes/step.ts';
import { saveState } from '../../../../build/steps/state.ts';
import { silentProgress } from '../../../../build/progress.ts';
import { refViewOf } from '../../../../artifacts/reference-view-adapter.ts';
import { keys } from '../../../../artifacts/keys.ts';
import { Origin } from '../../../../artifacts/object-table.ts';
import type { MovementsDoc } from '../../../../artifacts/movements-doc.ts';
import { buildCatalog } from '../../../../lib/reference/catalog.ts';
import { buildTypes } from '../../../../lib/reference/types.ts';
import { buildRegistry } from '../../../../lib/reference/registry.ts';
import { testRefdata } from '../../../helpers/artifact-ctx.ts';
import { legsDb } from '../../../helpers/airframes-build.ts';

process.env.TZ = 'UTC';

const DAY0 = Date.UTC(2024, 5, 1) / 1000; // 2024-06-01T00:00Z, pinned
const H = 3600;
const DAYS = ['2024-06-01', '2024-06-02', '2024-06-03'];

test('a reusable night writes the added day and the day before, keeps older days under both codes, files a late landing on its day', async (t) => {
  const { dir, db } = await legsDb(t, 'movements-reuse');
  const leg = (hex: string, cs: string, d: number, dep: number, arr: number) => {
    const [a, b] = [DAY0 + d * 86400 + dep, DAY0 + d * 86400 + arr];
    return db.run(`INSERT INTO legs VALUES ('${hex}', '${cs}', NULL, 'A320', ${a - 60}, ${b + 60}, ${a}, ${b}, 'LSZH', 'EGLL', DATE '${DAYS[d]}')`);
  };
  await leg('aaa001', 'SWR100', 0, 8 * H, 10 * H);
  await leg('aaa002', 'SWR200', 1, 8 * H, 10 * H);
  // leaves Geneva on the first day, its landing not heard: the other end comes from the routes table
  await db.run(
    `INSERT INTO legs VALUES ('aaa007', 'SWR700', NULL, 'A320', ${DAY0 + 12 * H - 60}, ${DAY0 + 13 * H}, ${DAY0 + 12 * H}, NULL, 'LSGG', NULL, DATE '${DAYS[0]}')`,
  );
  // leaves Zurich at 23:00 on the second day, lands at Heathrow at 01:00 on the third
  await leg('aaa003', 'SWR300', 1, 23 * H, 25 * H);
  const refdata = { ...testRefdata(), catalog: buildCatalog([]), types: buildTypes([]), registry: buildRegistry([]) };
  const base = {
    db,
    refdata,
    ref: refViewOf(refdata),
    windowStart: DAYS[0]!,
    windowDays: 3,
    windowLimit: 366,
    timetablesDir: null,
    progress: silentProgress,
  };
  const build = async (name: string, previous: ArtifactWriter | null, extra: Partial<BuildContext>) => {
    const writer = new ArtifactWriter(join(dir, name), previous && { dir: previous.dir, objects: previous.objects });
    const ctx: BuildContext = { ...base, archiveThrough: DAYS[1]!, nowMs: Date.UTC(2024, 5, 3), writer, counts: {}, ...extra };
    const routes = await buildRoutes(ctx, await loadRefAirports(db, ctx.ref));
    await buildMovements(ctx);
    // the routes table the night was routed with, as the airframes step saves it for the next night
    await saveState(db, `SELECT * FROM ${routes.legs.table}`, join(writer.dir, ROUTES_STATE));
    await writer.drain();
    return writer;
  };
  const first = await build('v1', null, {});
  assert.equal((first.read(keys.movements('ZRH', DAYS[0]!)) as MovementsDoc).movements[0]!.callsign, 'SWR100');
  assert.equal(first.objects.get(keys.movements('LHR', DAYS[2]!)), undefined, 'a day the log does not hold has no document yet');

  // the third day enters the log; a change to the first day's leg that leaves the routes table as it
  // was (its type) shows whether that day was built again
  await db.run(`UPDATE legs SET type = 'B738' WHERE hex = 'aaa001'`);
  await leg('aaa004', 'SWR400', 2, 9 * H, 11 * H);
  const night = await build('v2', first, {
    archiveThrough: DAYS[2]!,
    nowMs: Date.UTC(2024, 5, 4),
    reuse: first.dir,
    logDays: { added: [DAYS[2]!], dropped: [] },
  });
  for (const code of ['ZRH', 'LSZH', 'LHR', 'EGLL']) {
    const k = keys.movements(code, DAYS[0]!);
    assert.equal(night.objects.originOf(k), Origin.KEPT, `${k}: a closed day is kept`);
    assert.deepEqual(night.objects.get(k), first.objects.get(k), `${k}: as it was`);
    // built again: its bytes are the previous build's (SAME) as nothing of that day changed
    assert.equal(night.objects.originOf(keys.movements(code, DAYS[1]!)), Origin.SAME, `${code}: the day before the added one is built again`);
  }
  assert.equal((night.read(keys.movements('ZRH', DAYS[0]!)) as MovementsDoc).movements[0]!.type, 'A320', 'kept, not rebuilt');
  const lhr3 = night.read(keys.movements('LHR', DAYS[2]!)) as MovementsDoc;
  assert.equal(night.objects.originOf(keys.movements('LHR', DAYS[2]!)), Origin.WRITTEN);
  assert.deepEqual(
    lhr3.movements.map((m) => [m.kind, m.hex, m.at - DAY0]),
    [
      ['landing', 'aaa003', 2 * 86400 + H],
      ['landing', 'aaa004', 2 * 86400 + 11 * H],
    ],
    "the second day's late flight lands in the third day's document",
  );
  assert.equal(lhr3.movements[0]!.local, '2024-06-03T02:00:00+01:00', 'London summer time');

  // without a previous build every day is written
  const full = await build('v3', null, { archiveThrough: DAYS[2]!, nowMs: Date.UTC(2024, 5, 4) });
  assert.equal(full.objects.originOf(keys.movements('ZRH', DAYS[0]!)), Origin.WRITTEN);
  assert.equal((full.read(keys.movements('ZRH', DAYS[0]!)) as MovementsDoc).movements[0]!.type, 'B738');

  // the third day, read again with a late leg, hears SWR700 from Geneva to Narita whole: its routes-table row changes, but the
  // first day is closed, so its Geneva document keeps the other end known the night it closed; a full build fills it
  await db.run(
    `INSERT INTO legs VALUES ('aaa008', 'SWR700', NULL, 'A320', ${DAY0 + 2 * 86400 + 8 * H}, ${DAY0 + 2 * 86400 + 20 * H}, ${DAY0 + 2 * 86400 + 8 * H + 60}, ${DAY0 + 2 * 86400 + 20 * H - 60}, 'LSGG', 'RJAA', DATE '${DAYS[2]}')`,
  );
  const late = await build('v4', night, {
    archiveThrough: DAYS[2]!,
    nowMs: Date.UTC(2024, 5, 4),
    reuse: night.dir,
    logDays: { added: [DAYS[2]!], dropped: [] },
  });
  const gva1 = keys.movements('GVA', DAYS[0]!);
  assert.equal((first.read(gva1) as MovementsDoc).movements[0]!.dst ?? null, null, 'before: the other end unknown');
  assert.equal(late.objects.originOf(gva1), Origin.KEPT, 'a closed day a re-routed callsign reaches is kept, not written again');
  assert.equal((late.read(gva1) as MovementsDoc).movements[0]!.dst ?? null, null, 'frozen: the other end known the night the day closed');
  const rebuilt = await build('v5', null, { archiveThrough: DAYS[2]!, nowMs: Date.UTC(2024, 5, 4) });
  assert.equal(rebuilt.objects.originOf(gva1), Origin.WRITTEN);
  assert.equal((rebuilt.read(gva1) as MovementsDoc).movements[0]!.dst, 'NRT', 'a full build (--rebuild): the routes table fills it');
});
