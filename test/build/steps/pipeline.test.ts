// the pipeline (build/steps/pipeline.ts) checks the steps' declarations before any step runs, and
// that the code runs them in the declared order: a step whose inputs no earlier step made is refused.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { BuildContext } from '../../../build/steps/context.ts';
import { PIPELINE, buildArtifacts, stepRunner } from '../../../build/steps/pipeline.ts';
import { AIRPORTS_STEP } from '../../../build/steps/airports/step.ts';
import { AIRLINES_STEP } from '../../../build/steps/airlines/step.ts';
import { REFDATA_STEP } from '../../../build/steps/refdata/step.ts';
import { ROUTES_STEP } from '../../../build/steps/routes/step.ts';

/** a context whose every use fails the test: a step that ran would touch it */
const untouchable = new Proxy({}, { get: (_, k) => assert.fail(`a step ran: it read ctx.${String(k)}`) }) as BuildContext;

test('the nightly refuses to run a step whose declared inputs no earlier step made, before any step runs', async () => {
  // the airports step moved before the routes step, whose table and routed legs it reads
  const early = PIPELINE.filter((s) => s !== AIRPORTS_STEP);
  early.splice(early.indexOf(ROUTES_STEP), 0, AIRPORTS_STEP);
  await assert.rejects(buildArtifacts(untouchable, early), {
    message:
      "the pipeline's step declarations do not hold (build/steps/*/step.ts): " +
      'step airports reads legs_routed, which no step before it makes; step airports reads routes_table, which no step before it makes',
  });
  // a declaration that says the airports read what nothing makes
  const odd = PIPELINE.map((s) => (s === AIRPORTS_STEP ? { ...s, reads: [...s.reads, 'airport_slots' as never] } : s));
  await assert.rejects(buildArtifacts(untouchable, odd), /step airports reads airport_slots, which no step before it makes/);
});

test('the runner refuses a step the code runs out of the declared order', async () => {
  // refdata and airlines swapped in the list: the declarations hold (neither reads what the other makes), the code's order does not
  const swapped = PIPELINE.map((s) => (s === REFDATA_STEP ? AIRLINES_STEP : s === AIRLINES_STEP ? REFDATA_STEP : s));
  const step = stepRunner(swapped);
  const ran: string[] = [];
  for (const s of PIPELINE.slice(0, 3)) await step(s, async () => void ran.push(s.name));
  assert.throws(() => step(REFDATA_STEP, async () => void ran.push('refdata')), {
    message: 'the pipeline runs step refdata where it declares airlines (build/steps/pipeline.ts PIPELINE)',
  });
  assert.deepEqual(ran, ['reference airports', 'routes', 'airframes']);
});
