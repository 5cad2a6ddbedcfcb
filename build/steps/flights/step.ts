// the flights step's declaration (declaration.ts): one document per airframe and UTC day of the
// log (v1/flights/{hex}/{date}), from the routed legs, their positions and their tracks. a day's
// documents depend only on that day's legs and tonight's routes table; a closed day's are kept as
// they were when the previous build is reusable, and a night writes only the days that entered the
// window and the day before the first of them (legs merged into it after midnight: an open leg closed).
import type { StepDeclaration } from '../declaration.ts';

export const FLIGHTS_STEP = {
  name: 'flights',
  reads: ['legs', 'legs_routed'],
  makes: [],
  saves: [],
  reuse: {
    // the previous build's documents of every day but the added ones (and the one before them)
    closedDays: { logDays: true, state: [], holds: 'flights documents', rebuild: ['added-days'] },
  },
} as const satisfies StepDeclaration;
