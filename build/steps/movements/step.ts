// the movements step's declaration (declaration.ts): one document per airport and UTC day of the
// log (v1/airports/{code}/movements/{date}, under the IATA and the ICAO code as the airport
// document is), from the routed legs' heard take-offs and landings. a day's document reads that
// day's legs and the day before's (a landing after midnight). a closed day is frozen (docs/api.md,
// "Movements"): with a reusable previous build a night writes only the days that entered the window
// and the day before the first of them, and keeps the rest as they were, their other ends and
// route_source those known the night the day closed. --rebuild (no previous build) writes every day.
import type { StepDeclaration } from '../declaration.ts';

export const MOVEMENTS_STEP = {
  name: 'movements',
  reads: ['legs', 'legs_routed', 'routes_table'],
  makes: [],
  saves: [],
  reuse: {
    // the previous build's documents of every day but the added ones (and the one before them); no
    // saved file: a spelling the previous build lacks is written (writer.keep fails)
    closedDays: { logDays: true, state: [], holds: 'movements documents', rebuild: ['added-days'] },
  },
} as const satisfies StepDeclaration;
