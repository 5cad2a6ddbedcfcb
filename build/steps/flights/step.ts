// the flights step's declaration (declaration.ts): one document per airframe and UTC day of the
// log (v1/flights/{hex}/{date}), from the routed legs, their positions and their tracks. a day's
// documents depend only on that day's legs and tonight's routes table; a closed day's are kept as
// they were when the previous build is reusable, and a night writes only the days that entered the
// window, the day before the first of them (legs merged into it after midnight: an open leg closed),
// and the days holding a leg of a callsign whose routes-table row changed (its ends and route_source
// follow the table), so a kept day is always what a fresh build would write.
import type { StepDeclaration } from '../declaration.ts';
import { ROUTES_STATE } from '../airframes/step.ts';

export const FLIGHTS_STEP = {
  name: 'flights',
  reads: ['legs', 'legs_routed', 'routes_table'],
  makes: [],
  saves: [],
  reuse: {
    // the previous build's documents of every day but the added ones (and the one before them)
    // (the routes table compared is the one the airframes step saves each night)
    closedDays: { logDays: true, state: [ROUTES_STATE], holds: 'flights documents', rebuild: ['added-days', 'changed-routes'], routes: ROUTES_STATE },
  },
} as const satisfies StepDeclaration;
