// the schedules step's declaration (declaration.ts): one schedule document per (airline, org,
// dst), made from counts kept between nights (counts.ts) of the departures of routed legs, so a
// callsign whose routes-table row changed is counted again in both windows.
import { countFiles, statePath, type StepDeclaration } from '../declaration.ts';

/** the count tables a build ends with (temp tables, then state/<name>.parquet) */
export const SCHEDULE_TABLES = [
  { name: 'sc_keys', routed: true },
  { name: 'sc_routes', routed: true },
] as const;
const COUNTS = countFiles(
  'schedules',
  SCHEDULE_TABLES.map((t) => t.name),
  true,
);

export const SCHEDULES_STEP = {
  name: 'schedules',
  reads: ['legs', 'ref_airports', 'legs_routed', 'routes_table'],
  makes: [],
  saves: COUNTS,
  reuse: {
    // the counts folded; only the routes the fold touched are written, every one when the window changed length
    counts: {
      logDays: true,
      state: COUNTS,
      holds: 'schedule counts',
      rebuild: ['added-days', 'dropped-days', 'changed-routes', 'window-length'],
      routes: statePath('schedules-routes.parquet'),
    },
  },
} as const satisfies StepDeclaration;
