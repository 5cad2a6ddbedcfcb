// the steps' declarations (build/steps/declaration.ts, each build/steps/<kind>/step.ts): the
// pipeline's hold, and a declaration that does not is named with the reason. the files the steps
// declare are the ones a build writes in state/ (and earlier builds wrote: a renamed one would stop
// every night from reusing the previous build without a word).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { countFiles, stepProblems, type StepDeclaration } from '../../../build/steps/declaration.ts';
import { PIPELINE } from '../../../build/steps/pipeline.ts';
import { AIRFRAMES_STEP } from '../../../build/steps/airframes/step.ts';
import { AIRLINES_STEP } from '../../../build/steps/airlines/step.ts';
import { ROUTES_STEP } from '../../../build/steps/routes/step.ts';
import { FLIGHTS_STEP } from '../../../build/steps/flights/step.ts';
import { MOVEMENTS_STEP } from '../../../build/steps/movements/step.ts';

test("the pipeline's declarations hold: each step reads what the build or a step before it made, each reuse rule files a step saves", () => {
  assert.deepEqual(stepProblems(PIPELINE), []);
  assert.deepEqual(
    PIPELINE.map((s) => s.name),
    ['reference airports', 'routes', 'airframes', 'refdata', 'airlines', 'schedules', 'airports', 'alliances', 'flights', 'movements'],
  );
});

test('the files the steps declare they save are those a build writes in state/, each saved by one step', () => {
  const saves = PIPELINE.flatMap((s) => s.saves);
  assert.equal(new Set(saves).size, saves.length, 'no file saved by two steps');
  // the state/ folder of the nightly on the bundled sample and on a simulated increment (both: these 25)
  assert.deepEqual(saves.map((f) => f.replace(/^state\//, '')).sort(), [
    'airframe-operators.parquet',
    'airframe-routes.parquet',
    'airframes.parquet',
    'airlines-routes.parquet',
    'airlines.json',
    'airports.json',
    'al_callsigns.parquet',
    'al_days.parquet',
    'al_fleet.parquet',
    'al_routes.parquet',
    'alliance-days.parquet',
    'alliance-ends.parquet',
    'alliance-hexes.parquet',
    'alliance-pairs.parquet',
    'ap_dests.parquet',
    'ap_ends.parquet',
    'ap_tails.parquet',
    'ev_days.parquet',
    'ev_groups.parquet',
    'ev_types.parquet',
    'routes-decisions.json',
    'sc_keys.parquet',
    'sc_routes.parquet',
    'schedules-routes.parquet',
    'schedules.json',
  ]);
  assert.deepEqual(countFiles('airlines', ['al_fleet'], true), ['state/airlines-routes.parquet', 'state/airlines.json', 'state/al_fleet.parquet']);
  assert.deepEqual(countFiles('airports', ['ap_ends'], false), ['state/airports.json', 'state/ap_ends.parquet']);
});

test('a step run before the step that makes what it reads is named, with each object it reads', () => {
  const swapped = PIPELINE.map((s) => (s === ROUTES_STEP ? AIRFRAMES_STEP : s === AIRFRAMES_STEP ? ROUTES_STEP : s));
  assert.deepEqual(stepProblems(swapped), [
    'step airframes reads legs_routed, which no step before it makes',
    'step airframes reads routes_table, which no step before it makes',
  ]);
  // and one that reads an object nothing makes
  const odd = { name: 'odd', reads: ['legs', 'flights' as never], makes: [], saves: [], reuse: {} } satisfies StepDeclaration;
  assert.deepEqual(stepProblems([...PIPELINE, odd]), ['step odd reads flights, which no step before it makes']);
});

test('a reuse rule that reads a file no step saves is named: the airports compare with the routes table the airframes step saves', () => {
  assert.deepEqual(stepProblems(PIPELINE.filter((s) => s !== AIRFRAMES_STEP)), [
    'step airports (reuse documents) reads state/airframe-routes.parquet of the previous build, which no step saves',
  ]);
});

test('a closed day of flights and movements is frozen: those steps build a day again only when it entered the window (docs/api.md)', () => {
  for (const step of [FLIGHTS_STEP, MOVEMENTS_STEP]) {
    assert.deepEqual(step.reuse.closedDays.rebuild, ['added-days'], `${step.name}: no changed-routes, no dropped-days`);
    assert.deepEqual(step.reuse.closedDays.state, [], `${step.name}: reads no saved routes table`);
  }
});

test("changed-routes goes with a saved routes table among the rule's state, and a routes table with changed-routes", () => {
  const rule = AIRLINES_STEP.reuse.counts;
  const withRule = (r: object) => PIPELINE.map((s) => (s === AIRLINES_STEP ? { ...s, reuse: { counts: { ...rule, ...r } } } : s));
  const unnamed = ['step airlines (reuse counts) rebuilds on changed-routes but names no saved routes table among its state'];
  assert.deepEqual(stepProblems(withRule({ routes: undefined })), unnamed);
  assert.deepEqual(stepProblems(withRule({ state: rule.state.filter((f) => f !== rule.routes) })), unnamed);
  const unused = ['step airlines (reuse counts) names a routes table but does not rebuild on changed-routes'];
  assert.deepEqual(stepProblems(withRule({ rebuild: ['added-days', 'dropped-days'] })), unused);
});
