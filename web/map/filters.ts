// which aircraft the map draws (docs/api.md "Filters"): an altitude range in feet (on the ground
// counts as 0 ft), a type (designators, or a silhouette class such as helicopter), military only.
// what is filtered out is neither drawn nor counted nor listed; the status line says a filter is on.
import { SHAPE_IDS, type ShapeId } from './shapes.ts';
import type { Aircraft } from './types.ts';

export interface Filters {
  altMin: number | null;
  altMax: number | null;
  /** upper-case designators (A320, B738) and classes (helicopter), any of which matches */
  types: string[];
  military: boolean;
}

export const NO_FILTERS: Filters = { altMin: null, altMax: null, types: [], military: false };

export const filtersOn = (f: Filters) => f.altMin !== null || f.altMax !== null || f.types.length > 0 || f.military;

/** "a320, Helicopter" -> ['A320', 'HELICOPTER']: designators and classes alike, upper case, no duplicates */
export function parseTypes(text: string): string[] {
  return [
    ...new Set(
      text
        .split(/[\s,]+/)
        .map((s) => s.trim().toUpperCase())
        .filter((s) => /^[A-Z0-9-]{2,12}$/.test(s)),
    ),
  ];
}

/** feet from a box's text: a whole number, thousands separators allowed; null when empty or not a number */
export function parseFeet(text: string): number | null {
  const t = text.replace(/[,\s_]/g, '');
  return /^-?\d{1,6}$/.test(t) ? Number(t) : null;
}

/** the predicate for one set of filters; `shape` and `isMilitary` answer for a record */
export function matcher(f: Filters, shape: (a: Aircraft) => ShapeId, isMilitary: (hex: string) => boolean): (a: Aircraft) => boolean {
  if (!filtersOn(f)) return () => true;
  const classes = new Set(f.types.map((t) => t.toLowerCase()).filter((t): t is ShapeId => (SHAPE_IDS as readonly string[]).includes(t)));
  const designators = new Set(f.types.filter((t) => !classes.has(t.toLowerCase() as ShapeId)));
  return (a) => {
    if (f.military && !isMilitary(a.hex)) return false;
    if (f.altMin !== null || f.altMax !== null) {
      const alt = a.alt_baro === 'ground' ? 0 : a.alt_baro;
      if (typeof alt !== 'number') return false;
      if (f.altMin !== null && alt < f.altMin) return false;
      if (f.altMax !== null && alt > f.altMax) return false;
    }
    if (f.types.length && !(designators.has((a.t ?? '').toUpperCase()) || classes.has(shape(a)))) return false;
    return true;
  };
}
