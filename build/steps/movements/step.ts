// the movements step's declaration (declaration.ts): one document per airport and UTC day of the
// log (v1/airports/{code}/movements/{date}, under the IATA and the ICAO code as the airport
// document is), from the routed legs' heard take-offs and landings. a day's document depends on
// that day's legs and the day before's (a landing after midnight) and tonight's routes table; with
// a reusable previous build a night writes only the days that entered the window and the day
// before the first of them, and keeps the rest as they were.
import type { StepDeclaration } from '../declaration.ts';

export const MOVEMENTS_STEP = {
  name: 'movements',
  reads: ['legs', 'legs_routed'],
  makes: [],
  saves: [],
  reuse: {
    // the previous build's documents of every day but the added ones (and the one before them)
    closedDays: { logDays: true, state: [], holds: 'movements documents', rebuild: ['added-days'] },
  },
} as const satisfies StepDeclaration;
