// the flights step's declaration (declaration.ts): one document per airframe and UTC day of the
// log (v1/flights/{hex}/{date}), from the routed legs, their positions and their tracks. a closed
// day is frozen (docs/api.md, "Flights"): with a reusable previous build a night writes only the
// days that entered the window and the day before the first of them (legs merged into it after
// midnight: an open leg closed), and keeps every other day's documents as they were, their route
// fields those known the night the day closed; a changed routes-table row reaches the route and
// airframe documents, not a closed day. --rebuild (no previous build) writes every day.
import type { StepDeclaration } from '../declaration.ts';

export const FLIGHTS_STEP = {
  name: 'flights',
  reads: ['legs', 'legs_routed', 'routes_table'],
  makes: [],
  saves: [],
  reuse: {
    // the previous build's documents of every day but the added ones (and the one before them); no
    // saved file: a day the previous build lacks a document for is written (writer.keep fails)
    closedDays: { logDays: true, state: [], holds: 'flights documents', rebuild: ['added-days'] },
  },
} as const satisfies StepDeclaration;
