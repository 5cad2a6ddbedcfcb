// the artifact steps of one night, in the order they run. each step takes what it needs and
// returns what it made, so the order is the code: a step that reads the routes table or a DuckDB
// object made by an earlier step takes that step's result as an argument (context.ts handles).
// the order is also declared (PIPELINE, each step's step.ts), and checked before any step runs:
// a step whose declared inputs no earlier step made, or a reuse rule that reads a file no step
// saves, stops the build here with the reason (declaration.ts stepProblems).
import type { BuildContext } from './context.ts';
import type { RoutesTable } from '../../artifacts/routes-table.ts';
import { stepProblems, type StepDeclaration } from './declaration.ts';
import { REF_AIRPORTS_STEP, loadRefAirports } from './duck.ts';
import { buildRoutes } from './routes/build.ts';
import { ROUTES_STEP } from './routes/step.ts';
import { buildAirframes } from './airframes/build.ts';
import { AIRFRAMES_STEP } from './airframes/step.ts';
import { buildRefdata } from './refdata/build.ts';
import { REFDATA_STEP } from './refdata/step.ts';
import { buildAirlines } from './airlines/build.ts';
import { AIRLINES_STEP } from './airlines/step.ts';
import { buildSchedules } from './schedules/build.ts';
import { SCHEDULES_STEP } from './schedules/step.ts';
import { buildAirports } from './airports/build.ts';
import { AIRPORTS_STEP } from './airports/step.ts';
import { buildAlliances } from './alliances/build.ts';
import { ALLIANCES_STEP } from './alliances/step.ts';
import { buildFlights } from './flights/build.ts';
import { FLIGHTS_STEP } from './flights/step.ts';
import { buildMovements } from './movements/build.ts';
import { MOVEMENTS_STEP } from './movements/step.ts';

/** the steps in the order buildArtifacts runs them */
export const PIPELINE: readonly StepDeclaration[] = [
  REF_AIRPORTS_STEP,
  ROUTES_STEP,
  AIRFRAMES_STEP,
  REFDATA_STEP,
  AIRLINES_STEP,
  SCHEDULES_STEP,
  AIRPORTS_STEP,
  ALLIANCES_STEP,
  FLIGHTS_STEP,
  MOVEMENTS_STEP,
];

/** what the artifact steps made that a later part of the night reads (the estimate accuracy replay) */
export interface ArtifactsMade {
  routes: RoutesTable;
}

/**
 * A runner for `steps`, checked first: it throws before any step runs when their declarations do
 * not hold, and when the code runs a step other than the next one declared.
 */
export function stepRunner(steps: readonly StepDeclaration[]): <T>(step: StepDeclaration, run: () => Promise<T>) => Promise<T> {
  const problems = stepProblems(steps);
  if (problems.length) throw new Error(`the pipeline's step declarations do not hold (build/steps/*/step.ts): ${problems.join('; ')}`);
  let next = 0;
  return (step, run) => {
    const declared = steps[next++];
    if (declared?.name !== step.name) {
      throw new Error(`the pipeline runs step ${step.name} where it declares ${declared?.name ?? 'no more steps'} (build/steps/pipeline.ts PIPELINE)`);
    }
    return run();
  };
}

/** `steps`: the declarations the run is checked against (tests give others) */
export async function buildArtifacts(ctx: BuildContext, steps: readonly StepDeclaration[] = PIPELINE): Promise<ArtifactsMade> {
  const step = stepRunner(steps);
  const airports = await step(REF_AIRPORTS_STEP, () => loadRefAirports(ctx.db, ctx.ref));
  const routes = await step(ROUTES_STEP, () => buildRoutes(ctx, airports));
  await step(AIRFRAMES_STEP, () => buildAirframes(ctx, routes.legs));
  await step(REFDATA_STEP, () => buildRefdata(ctx));
  await step(AIRLINES_STEP, () => buildAirlines(ctx, routes.legs));
  await step(SCHEDULES_STEP, () => buildSchedules(ctx, routes.legs));
  await step(AIRPORTS_STEP, () => buildAirports(ctx, routes.table, airports, routes.legs));
  await step(ALLIANCES_STEP, () => buildAlliances(ctx, airports));
  await step(FLIGHTS_STEP, () => buildFlights(ctx));
  await step(MOVEMENTS_STEP, () => buildMovements(ctx));
  return { routes: routes.table };
}
