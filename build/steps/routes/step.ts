// the routes step's declaration (declaration.ts): it reads the window's legs and the reference
// airports, makes the routes table and the routed legs every later step reads, and keeps two things
// for the next night: its log evidence per callsign (evidence-fold.ts) and every decision it took
// (decisions.ts). a night that reuses the previous build folds the evidence with the days that
// entered and left the window; a heard callsign whose evidence no such day moved takes its previous
// decision without its evidence being read, and a catalog row unheard then and now its previous one.
import { statePath, type StepDeclaration } from '../declaration.ts';

/** tonight's evidence: temp tables of these names, and state/<name>.parquet in a version */
export const EVIDENCE_TABLES = ['ev_groups', 'ev_types', 'ev_days'] as const;
const EVIDENCE_STATE = EVIDENCE_TABLES.map((t) => statePath(`${t}.parquet`));
/** every decision of a build, for the next one */
export const DECISIONS_STATE = statePath('routes-decisions.json');

export const ROUTES_STEP = {
  name: 'routes',
  reads: ['legs', 'ref_airports'],
  makes: ['routes_table', 'legs_routed'],
  saves: [...EVIDENCE_STATE, DECISIONS_STATE],
  reuse: {
    // the evidence folded: the added days' legs in, the dropped days' out; the callsigns with legs
    // in them have moved, and only those are decided again from their evidence
    evidence: { logDays: true, state: EVIDENCE_STATE, holds: 'evidence', rebuild: ['added-days', 'dropped-days'] },
    // the decisions of the callsigns the evidence fold did not move, and of catalog rows unheard
    // then and now (a function of the row alone): taken as they were
    decisions: { logDays: false, state: [DECISIONS_STATE], holds: 'decisions', rebuild: [] },
  },
} as const satisfies StepDeclaration;
