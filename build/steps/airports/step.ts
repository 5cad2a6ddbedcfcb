// the airports step's declaration (declaration.ts). an airport's document comes from the reference
// data, the window's length, its own legs in the window (totals, traffic mix, busiest routes), its
// own legs in the board window (the last BOARD_RULES.windowDays days: the inferred slots), and, for
// its board rows, the routes-table entries of its slots' callsigns and the block times of the IATA
// routes it is an end of, and the published timetables. with the window as long as before and no
// timetables (read against the clock), it changes only if an airport with its IATA code is an end
// of a leg of a day that entered or left the window, of a day that entered or left the board
// window, or in the board window, whose callsign's routes-table row changed (changed.ts).
import { countFiles, type StepDeclaration } from '../declaration.ts';
import { ROUTES_STATE } from '../airframes/step.ts';

/** the count tables of the totals and traffic mix (sql.ts AIRPORT_COUNTS), saved as state/<name>.parquet */
export const AIRPORT_TABLES = ['ap_tails', 'ap_dests', 'ap_ends'] as const;
/** the family the counts are saved as (counts-fold.ts): state/airports.json beside the tables */
export const COUNTS_FAMILY = 'airports';
const COUNTS = countFiles(COUNTS_FAMILY, AIRPORT_TABLES, false);

export const AIRPORTS_STEP = {
  name: 'airports',
  reads: ['legs', 'ref_airports', 'legs_routed', 'routes_table'],
  makes: [],
  saves: COUNTS,
  reuse: {
    // the totals' counts folded: the log's own ends, no routing (no changed-routes)
    totals: { logDays: true, state: COUNTS, holds: 'airport counts', rebuild: ['added-days', 'dropped-days'] },
    // only the airports these changes reach are aggregated and built; the routes table compared is
    // the one the airframes step saved (the previous build routed with it too)
    documents: {
      logDays: true,
      state: [ROUTES_STATE],
      holds: 'routes table',
      rebuild: ['added-days', 'dropped-days', 'board-days', 'changed-routes', 'window-length', 'timetables'],
      routes: ROUTES_STATE,
    },
  },
} as const satisfies StepDeclaration;
