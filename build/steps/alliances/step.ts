// the alliances step's declaration (declaration.ts): four tables of member-leg counts kept
// between nights (build.ts); every alliance document is written each night, from the counts.
import { statePath, type StepDeclaration } from '../declaration.ts';

/** the count tables and their key columns */
export const ALLIANCE_TABLES = [
  { name: 'al_hexes', keys: 'slug, icao, hex' },
  { name: 'al_days', keys: 'slug, day' },
  { name: 'al_ends', keys: 'slug, ident' },
  { name: 'al_pairs', keys: 'slug, icao, a, b' },
] as const;
/** where a version records a count table */
export const allianceState = (table: string) => statePath(`${table.replace(/^al_/, 'alliance-')}.parquet`);
const COUNTS = ALLIANCE_TABLES.map((t) => allianceState(t.name));

export const ALLIANCES_STEP = {
  name: 'alliances',
  reads: ['legs', 'ref_airports'],
  makes: [],
  saves: COUNTS,
  reuse: {
    // the previous build's counts, plus the added days' member legs and minus the dropped days'
    counts: { logDays: true, state: COUNTS, holds: 'alliance counts', rebuild: ['added-days', 'dropped-days'] },
  },
} as const satisfies StepDeclaration;
