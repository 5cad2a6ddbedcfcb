// the automatic half of the catalog review: a community catalog row may be served only when it
// is plausible on its own (airline known, every stop an open airport with an IATA code, no
// stop repeated back to back, every leg long enough to be a flight and short enough for the
// types the callsign was seen flying) and no reviewer rejected it. the observation check
// (an end that observation contradicts is never served) is in artifacts/routes-table.ts.
import { distanceKm } from '../lib/geo.ts';
import type { AirportRef, RefView } from './reference-view.ts';
import type { ReviewIndex, ReviewOutcome, ReviewPolicy } from './catalog-review.ts';

export type CatalogVerdict =
  | {
      ok: true;
      /** every stop in flight order */
      stops: AirportRef[];
      /** consecutive stop pairs: one for a plain route, several for a multi-stop one */
      segments: [AirportRef, AirportRef][];
      review: ReviewOutcome;
    }
  | { ok: false; reason: CatalogRejection; review: ReviewOutcome };

type CatalogRejection =
  | 'unknown_airline'
  | 'unknown_airport'
  | 'airport_without_iata'
  | 'airport_closed'
  | 'same_airport'
  | 'too_short'
  | 'too_long_for_type'
  | 'rejected_by_review'
  | 'not_reviewed';

/** shortest leg served, km: two idents closer than this are one field (Westray - Papa Westray is 2.8 km) */
const MIN_LEG_KM = 1;

/**
 * Longest plausible great-circle leg per type category, km, with room to spare (A321XLR ~8,700,
 * ATR 72 / Dash 8 ~2,000, long-range business jets ~13,000). Categories not listed set no limit.
 */
const MAX_LEG_KM: Readonly<Record<string, number>> = {
  wide: 18000,
  narrow: 9500,
  regional: 4500,
  business: 14500,
  turboprop: 3500,
  piston: 2500,
  electric: 600,
  helicopter: 1200,
  gyrocopter: 600,
  tiltrotor: 2500,
};

/** the longest leg the callsign's observed types allow, Infinity when any type is unknown or unlimited */
function maxLegKm(types: readonly string[], ref: Pick<RefView, 'type'>): number {
  if (types.length === 0) return Infinity;
  let max = 0;
  for (const t of types) {
    const cat = ref.type(t)?.category;
    const km = cat ? MAX_LEG_KM[cat] : undefined;
    if (km === undefined) return Infinity;
    max = Math.max(max, km);
  }
  return max;
}

/**
 * Check one catalog row. `codes` are the row's airport codes in flight order; `types` the type
 * designators observed under the callsign (empty when never heard).
 */
export function checkCatalogRow(
  callsign: string,
  codes: readonly string[],
  types: readonly string[],
  ref: Pick<RefView, 'airportByCode' | 'airline' | 'type'>,
  reviews: ReviewIndex,
  policy: ReviewPolicy,
): CatalogVerdict {
  const review = reviews.outcome(callsign, codes.join('-'));
  const fail = (reason: CatalogRejection): CatalogVerdict => ({ ok: false, reason, review });
  // reject wins before anything else is looked at
  if (review.status === 'rejected') return fail('rejected_by_review');
  const prefix = /^([A-Z]{3})\d/.exec(callsign)?.[1];
  if (!prefix || !ref.airline(prefix)) return fail('unknown_airline');
  const stops: AirportRef[] = [];
  for (const code of codes) {
    const a = ref.airportByCode(code);
    if (!a) return fail('unknown_airport');
    if (a.kind === 'closed') return fail('airport_closed');
    if (!a.iata) return fail('airport_without_iata');
    stops.push(a);
  }
  if (stops.length < 2) return fail('unknown_airport');
  const limit = maxLegKm(types, ref);
  const segments: [AirportRef, AirportRef][] = [];
  for (let i = 1; i < stops.length; i++) {
    const a = stops[i - 1]!;
    const b = stops[i]!;
    if (a.ident === b.ident) return fail('same_airport');
    const km = distanceKm(a.lat, a.lon, b.lat, b.lon);
    if (km < MIN_LEG_KM) return fail('too_short');
    if (km > limit) return fail('too_long_for_type');
    segments.push([a, b]);
  }
  // an accept counts only after the automatic checks passed (they ran above)
  if (policy === 'reviewed' && review.status !== 'accepted') return fail('not_reviewed');
  return { ok: true, stops, segments, review };
}
