// pure: an airport document rolled to a new local day. `today` is "the board as the airport
// publishes it for the airport's local day" (spec 2.6), so when an airport's local midnight passes,
// its document takes the next day's timetable (or none) without waiting for the nightly: the
// observed rows stay as the nightly inferred them, the published rows of the old day go, those
// of the new day are merged in exactly as the nightly merges them (artifacts/board-rows.ts).
import type { AirportDoc } from './airport-doc.ts';
import { mergeArrivals, mergeDepartures, type RowLookups } from './board-rows.ts';
import { todayOf, type Timetable } from './timetable-file.ts';

/**
 * The document with `today` and the boards for `timetable` (the airport's timetable of its new
 * local day, or null when none is held). Rolling a document to the timetable it was built with
 * gives it back unchanged.
 */
export function rollAirport(doc: AirportDoc, timetable: Timetable | null, blockMinutes: RowLookups['blockMinutes']): AirportDoc {
  // a `both` row is an observed row a published one matched: it goes back to `observed`
  const observedDep = doc.board.filter((r) => r.source !== 'published').map((r) => ({ ...r, source: 'observed' as const }));
  const observedArr = doc.arrivals.filter((r) => r.source !== 'published').map((r) => ({ ...r, source: 'observed' as const }));
  return {
    ...doc,
    today: timetable ? todayOf(timetable) : null,
    board: mergeDepartures(doc.iata, observedDep, timetable?.departures ?? [], blockMinutes),
    arrivals: mergeArrivals(doc.iata, observedArr, timetable?.arrivals ?? [], blockMinutes),
  };
}
