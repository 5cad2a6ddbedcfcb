// an increment aggregates only the airframes whose documents can have changed
// (build/steps/airframes/changed.ts). the subtle case: an airframe with no leg in the new day
// whose leg, heard at one end only, is filled from a routes-table entry the new day changed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ArtifactWriter } from '../../../../build/publish/writer.ts';
import type { BuildContext } from '../../../../build/steps/context.ts';
import type { Refdata } from '../../../../lib/reference/index.ts';
import { keys } from '../../../../artifacts/keys.ts';
import { Origin } from '../../../../artifacts/object-table.ts';
import type { AirframeDoc } from '../../../../artifacts/airframe-doc.ts';
import { silentProgress } from '../../../../build/progress.ts';
import { makeRef } from '../../../helpers/ref-fixture.ts';
import { buildRoutesAirframes, legsDb } from '../../../helpers/airframes-build.ts';
import { AIRFRAMES_STEP } from '../../../../build/steps/airframes/step.ts';

const DAY0 = Date.UTC(2024, 5, 1) / 1000; // 2024-06-01T00:00Z, pinned
const H = 3600;

test('an increment rebuilds an airframe whose one-ended leg a changed route fills, keeps the untouched, and equals a full build', async (t) => {
  const { dir, db } = await legsDb(t, 'airframes-increment');
  const leg = (hex: string, cs: string, d: number, org: string | null, dst: string | null) => {
    const t = DAY0 + d * 86400 + 8 * H;
    return db.run(
      `INSERT INTO legs VALUES ('${hex}', '${cs}', NULL, 'A320', ${t}, ${t + 2 * H}, ${t}, ${dst ? t + 2 * H : 'NULL'}, ${org ? `'${org}'` : 'NULL'}, ${dst ? `'${dst}'` : 'NULL'}, DATE '2024-06-0${d + 1}')`,
    );
  };
  // day 1: aaa001 takes off from Zurich as SWR200, its landing unheard (the catalog's LHR fills it);
  // aaa003 flies another callsign end to end
  await leg('aaa001', 'SWR200', 0, 'LSZH', null);
  await leg('aaa003', 'SWR300', 0, 'LSZH', 'EDDF');
  const ref = makeRef({ SWR200: ['LSZH', 'EGLL'] });
  const base = {
    db,
    refdata: {} as Refdata,
    ref,
    archiveThrough: '2024-06-02',
    windowStart: '2023-06-03',
    windowDays: 366,
    windowLimit: 366,
    timetablesDir: null,
    nowMs: Date.UTC(2024, 5, 3),
    progress: silentProgress,
  };
  const build = (name: string, previous: ArtifactWriter | null, extra: Partial<BuildContext> = {}) => buildRoutesAirframes(dir, base, name, previous, extra, 4);
  const first = await build('v1', null);
  // day 2: another airframe flies SWR200 heard end to end: the route's destination is now observed
  await leg('aaa002', 'SWR200', 1, 'LSZH', 'EGLL');
  const night = await build('v2', first, { reuse: first.dir, logDays: { added: ['2024-06-02'], dropped: [] } });
  const full = await build('v3', null);

  const a1 = keys.airframe('aaa001');
  const sourceOf = (w: ArtifactWriter) => (w.read(a1) as AirframeDoc).legs![0]!.route_source;
  assert.equal(sourceOf(first), 'observed+catalog');
  // the filled end is now the network's, not the catalog's; aaa001's own landing still unheard, so not observed (issue 43)
  assert.equal(sourceOf(full), null, "the new day changed aaa001's document without a leg of its own in it");
  assert.equal((full.read(a1) as AirframeDoc).legs![0]!.table_source, 'observed', 'the end it was filled with is the one the network heard');
  assert.equal(night.objects.originOf(a1), Origin.WRITTEN, 'aaa001 was built again');
  assert.equal(night.objects.originOf(keys.airframe('aaa003')), Origin.KEPT, 'aaa003 was kept unbuilt');
  assert.deepEqual(night.objects.get(keys.airframe('aaa003')), first.objects.get(keys.airframe('aaa003')), 'aaa003: the previous entry as it was');
  const kinds = [...full.objects.keys()].filter((k) => k.startsWith('v1/airframes/') || k.startsWith('v1/refdata/aircraft/')).sort();
  assert.deepEqual([...night.objects.keys()].filter((k) => kinds.includes(k) || k.startsWith('v1/airframes/')).sort(), kinds);
  for (const k of kinds) assert.equal(night.objects.get(k)!.sha256, full.objects.get(k)!.sha256, k);
});

test('the airframes an increment builds are those its declared changes reach: without changed-routes the re-routed airframe is kept, stale', async (t) => {
  // the same two days as above, run twice from one first build: with the step's declaration, and
  // with changed-routes taken out of its increment rule (step.ts)
  const { dir, db } = await legsDb(t, 'airframes-declared');
  const leg = (hex: string, cs: string, d: number, org: string | null, dst: string | null) => {
    const t = DAY0 + d * 86400 + 8 * H;
    const q = (s: string | null) => (s ? `'${s}'` : 'NULL');
    const arr = dst ? t + 2 * H : 'NULL';
    return db.run(`INSERT INTO legs VALUES ('${hex}', '${cs}', NULL, 'A320', ${t}, ${t + 2 * H}, ${t}, ${arr}, ${q(org)}, ${q(dst)},
      DATE '2024-06-0${d + 1}')`);
  };
  await leg('aaa001', 'SWR200', 0, 'LSZH', null);
  await leg('aaa003', 'SWR300', 0, 'LSZH', 'EDDF');
  const base = {
    db,
    refdata: {} as Refdata,
    ref: makeRef({ SWR200: ['LSZH', 'EGLL'] }),
    archiveThrough: '2024-06-02',
    windowStart: '2023-06-03',
    windowDays: 366,
    windowLimit: 366,
    timetablesDir: null,
    nowMs: Date.UTC(2024, 5, 3),
    progress: silentProgress,
  };
  const first = await buildRoutesAirframes(dir, base, 'v1', null, {}, 4);
  await leg('aaa002', 'SWR200', 1, 'LSZH', 'EGLL');
  const night = { reuse: first.dir, logDays: { added: ['2024-06-02'], dropped: [] } };
  const declared = await buildRoutesAirframes(dir, base, 'v2', first, night, 4);
  const { routes: _compared, ...rule } = AIRFRAMES_STEP.reuse.increment;
  const increment = { ...rule, rebuild: rule.rebuild.filter((c) => c !== 'changed-routes') };
  const undeclared = await buildRoutesAirframes(dir, base, 'v3', first, night, 4, { ...AIRFRAMES_STEP.reuse, increment });
  const a1 = keys.airframe('aaa001');
  assert.equal(declared.objects.originOf(a1), Origin.WRITTEN, 'the declaration names changed-routes: aaa001 is built again');
  assert.equal(undeclared.objects.originOf(a1), Origin.KEPT, 'without it, nothing reaches aaa001: kept');
  assert.equal((undeclared.read(a1) as AirframeDoc).legs![0]!.route_source, 'observed+catalog', 'and its document is the stale one');
  assert.notEqual(undeclared.objects.get(a1)!.sha256, declared.objects.get(a1)!.sha256);
  assert.equal(undeclared.objects.originOf(keys.airframe('aaa002')), Origin.WRITTEN, 'the added day still reaches aaa002');
});
