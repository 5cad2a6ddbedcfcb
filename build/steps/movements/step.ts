// the movements step's declaration (declaration.ts): one document per airport and UTC day of the
// log (v1/airports/{code}/movements/{date}, under the IATA and the ICAO code as the airport
// document is), from the routed legs' heard take-offs and landings. a day's document depends on
// that day's legs and the day before's (a landing after midnight) and tonight's routes table; with
// a reusable previous build a night writes only the days that entered the window, the day before
// the first of them, and the days a leg of a callsign whose routes-table row changed reaches (its
// other end and route_source follow the table), and keeps the rest as they were.
import type { StepDeclaration } from '../declaration.ts';
import { ROUTES_STATE } from '../airframes/step.ts';

export const MOVEMENTS_STEP = {
  name: 'movements',
  reads: ['legs', 'legs_routed', 'routes_table'],
  makes: [],
  saves: [],
  reuse: {
    // the previous build's documents of every day but the added ones (and the one before them)
    // (the routes table compared is the one the airframes step saves each night)
    closedDays: { logDays: true, state: [ROUTES_STATE], holds: 'movements documents', rebuild: ['added-days', 'changed-routes'], routes: ROUTES_STATE },
  },
} as const satisfies StepDeclaration;
