// the airlines step's declaration (declaration.ts): the airline documents are made from counts of
// the window's airline-shaped legs kept between nights (build.ts, counts-fold.ts); al_routes holds
// routed ends, so a callsign whose routes-table row changed is counted again whole.
import { countFiles, statePath, type StepDeclaration } from '../declaration.ts';

/** the count tables (build.ts TABLES), saved as state/<name>.parquet */
export const AIRLINE_TABLES = ['al_fleet', 'al_callsigns', 'al_days', 'al_routes'] as const;
const COUNTS = countFiles('airlines', AIRLINE_TABLES, true);

export const AIRLINES_STEP = {
  name: 'airlines',
  reads: ['legs', 'ref_airports', 'legs_routed', 'routes_table'],
  makes: [],
  saves: COUNTS,
  reuse: {
    // the counts folded: the added days in, the dropped days out, the changed callsigns counted
    // again; only the airlines whose counts moved are written (and the list, which holds them all),
    // every one when the window changed length
    counts: {
      logDays: true,
      state: COUNTS,
      holds: 'airline counts',
      rebuild: ['added-days', 'dropped-days', 'changed-routes', 'window-length'],
      routes: statePath('airlines-routes.parquet'),
    },
  },
} as const satisfies StepDeclaration;
