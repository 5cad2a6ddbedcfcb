// the artifact steps of one night, in the order they run. each step takes what it needs and
// returns what it made, so the order is the code: a step that reads the routes table or a DuckDB
// object made by an earlier step takes that step's result as an argument (context.ts handles).
import type { BuildContext } from './context.ts';
import type { RoutesTable } from '../../artifacts/routes-table.ts';
import { loadRefAirports } from './duck.ts';
import { buildRoutes } from './routes/build.ts';
import { buildAirframes } from './airframes/build.ts';
import { buildRefdata } from './refdata/build.ts';
import { buildAirlines } from './airlines/build.ts';
import { buildSchedules } from './schedules/build.ts';
import { buildAirports } from './airports/build.ts';
import { buildAlliances } from './alliances/build.ts';

/** what the artifact steps made that a later part of the night reads (the estimate accuracy replay) */
export interface ArtifactsMade {
  routes: RoutesTable;
}

export async function buildArtifacts(ctx: BuildContext): Promise<ArtifactsMade> {
  const airports = await loadRefAirports(ctx.db, ctx.ref);
  const routes = await buildRoutes(ctx, airports);
  await buildAirframes(ctx, routes.legs);
  await buildRefdata(ctx);
  await buildAirlines(ctx, routes.legs);
  await buildSchedules(ctx, routes.legs);
  await buildAirports(ctx, routes.table, airports, routes.legs);
  await buildAlliances(ctx, airports);
  return { routes: routes.table };
}
