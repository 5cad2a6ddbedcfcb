// the human half of the catalog review: data/catalog-review.csv, one decision per row.
//   callsign,route,decision,reviewer,date,note
//   BAW117,EGLL-KJFK,accept,jdoe,2025-06-01,matches the airline timetable
//   XYZ123,*,reject,jdoe,2025-06-02,callsign reused by several operators
// `route` is the catalog's AirportCodes string the reviewer looked at (ICAO codes joined by '-'),
// or '*' for whatever the catalog says. an accept covers that exact route only, so an upstream
// change of the row needs a new review; a reject covers its route (or every route for '*') and
// wins over any accept. malformed rows are skipped and counted, never fatal.
import { readCsv, skip, type FileCount } from '../lib/reference/csv.ts';
import { isDay } from '../lib/localtime.ts';
import { normalise } from './keys.ts';

type Decision = 'accept' | 'reject';

export interface ReviewEntry {
  callsign: string;
  /** '*' or ICAO codes joined by '-' */
  route: string;
  decision: Decision;
  reviewer: string;
  /** YYYY-MM-DD */
  date: string;
  note: string;
}

export type ReviewOutcome = { status: 'accepted'; entry: ReviewEntry } | { status: 'rejected'; entry: ReviewEntry } | { status: 'unreviewed' };

/** which catalog answers may be served: `auto` = passed the automatic checks and not rejected; `reviewed` = accepted by a reviewer too */
export type ReviewPolicy = 'auto' | 'reviewed';

const ROUTE_RE = /^\*$|^[A-Z0-9]{4}(?:-[A-Z0-9]{4})+$/;

export function parseReviewCsv(input: string | Buffer, file = 'data/catalog-review.csv'): { entries: ReviewEntry[]; count: FileCount } {
  const { rows, count } = readCsv(file, input, ['callsign', 'route', 'decision', 'reviewer', 'date'], (get) => {
    const callsign = normalise.callsign(get('callsign'));
    if (!callsign) return skip('bad callsign');
    const route = get('route').toUpperCase();
    if (!ROUTE_RE.test(route)) return skip('bad route');
    const decision = get('decision').toLowerCase();
    if (decision !== 'accept' && decision !== 'reject') return skip('bad decision');
    if (decision === 'accept' && route === '*') return skip('accept needs the exact route');
    const reviewer = get('reviewer');
    if (!reviewer) return skip('missing reviewer');
    const date = get('date');
    if (!isDay(date)) return skip('bad date');
    const entry: ReviewEntry = { callsign, route, decision, reviewer, date, note: get('note') };
    return entry;
  });
  return { entries: rows, count };
}

export interface ReviewIndex {
  /** the outcome for the catalog's current route of a callsign */
  outcome(callsign: string, route: string): ReviewOutcome;
  readonly size: number;
}

export function indexReviews(entries: readonly ReviewEntry[]): ReviewIndex {
  const by = new Map<string, ReviewEntry[]>();
  for (const e of entries) {
    const list = by.get(e.callsign);
    if (list) list.push(e);
    else by.set(e.callsign, [e]);
  }
  return {
    size: entries.length,
    outcome(callsign, route) {
      const list = by.get(callsign);
      if (!list) return { status: 'unreviewed' };
      const applies = list.filter((e) => e.route === '*' || e.route === route);
      // reject wins; among accepts the latest review speaks
      const reject = applies.find((e) => e.decision === 'reject');
      if (reject) return { status: 'rejected', entry: reject };
      const accepts = applies.filter((e) => e.decision === 'accept').sort((a, b) => (a.date < b.date ? 1 : a.date > b.date ? -1 : 0));
      return accepts[0] ? { status: 'accepted', entry: accepts[0] } : { status: 'unreviewed' };
    },
  };
}

export const emptyReviews: ReviewIndex = indexReviews([]);
