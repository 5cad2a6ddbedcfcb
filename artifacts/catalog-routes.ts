// the routes of catalog-only callsigns (never heard in the window; the checked catalog supplied both
// ends) are not written as v1/route/<callsign> files unless a deployment asks for them
// (--catalog-route-files): the live server answers them from the routes table it already holds, plus
// meta/catalog-routes, the little the table does not say (docs/api.md "Routes of catalog-only
// callsigns"). the build encodes, the server decodes and builds the document; both stand on this
// file, so the answer is the document the build would have written (test/artifacts/catalog-routes.test.ts).
import type { RefView } from './reference-view.ts';
import type { ReviewOutcome } from './catalog-review.ts';
import { airlinePrefixOf, type RouteDoc, type RouteEntry } from './routes-table.ts';

/** meta/catalog-routes (schemas/catalog-routes.schema.json) */
export interface CatalogRoutesDoc {
  /** ICAO designator -> [IATA code or null, name]: the airline of every catalog-only callsign that names one */
  airlines: Record<string, [string | null, string]>;
  /** catalog-only callsigns whose flight number is not the airline's IATA code + the callsign's digits (a positioning flight: null) */
  flights: Record<string, string | null>;
  /** catalog-only routes a reviewer accepted: callsign -> [reviewer, ISO date]; every other one is `auto` */
  accepted: Record<string, [string, string]>;
}

/** the flight number the server assumes unless `flights` says otherwise (lib/reference/airlines.ts has the whole rule) */
const plainFlight = (callsign: string, airline: readonly [string | null, string] | undefined) => (airline?.[0] ? airline[0] + callsign.slice(3) : null);

/** collects meta/catalog-routes while the routes step decides; `add` once per catalog-only route */
export function catalogRoutesCollector(ref: Pick<RefView, 'airline' | 'flightNumber'>): {
  add: (callsign: string, entry: RouteEntry, review: ReviewOutcome) => void;
  doc: () => CatalogRoutesDoc;
} {
  const airlines = new Map<string, [string | null, string]>();
  const flights = new Map<string, string | null>();
  const accepted = new Map<string, [string, string]>();
  return {
    add(callsign, entry, review) {
      // an unheard callsign's route is one segment of a passed two-stop row (decideRoute): both ends the catalog's
      if (entry.route_source !== 'catalog') throw new Error(`catalog-only route ${callsign}: route_source ${entry.route_source}, expected catalog`);
      const prefix = airlinePrefixOf(callsign);
      const airline = prefix ? ref.airline(prefix) : null;
      if (prefix && airline) airlines.set(prefix, [airline.iata, airline.name]);
      const flight = ref.flightNumber(callsign);
      if (flight !== plainFlight(callsign, prefix ? airlines.get(prefix) : undefined)) flights.set(callsign, flight);
      if (review.status === 'accepted') accepted.set(callsign, [review.entry.reviewer, review.entry.date]);
    },
    // keys sorted: an unchanged catalog is the same bytes every night
    doc: () => ({ airlines: sorted(airlines), flights: sorted(flights), accepted: sorted(accepted) }),
  };
}

function sorted<T>(m: ReadonlyMap<string, T>): Record<string, T> {
  const out: Record<string, T> = {};
  for (const k of [...m.keys()].sort()) out[k] = m.get(k)!;
  return out;
}

/** the document back; throws on a malformed one (the build that wrote it is broken) */
export function decodeCatalogRoutes(doc: unknown): CatalogRoutesDoc {
  const d = doc as Partial<CatalogRoutesDoc> | null;
  const isRecord = (x: unknown) => !!x && typeof x === 'object' && !Array.isArray(x);
  if (!d || !isRecord(d.airlines) || !isRecord(d.flights) || !isRecord(d.accepted)) throw new Error('meta/catalog-routes lacks airlines, flights or accepted');
  return { airlines: d.airlines!, flights: d.flights!, accepted: d.accepted! };
}

/**
 * The v1/route document of a catalog-only callsign, as artifacts/routes-table.ts routeDoc builds it
 * (same fields in the same order: the same bytes as the file a --catalog-route-files build writes).
 */
export function catalogRouteDoc(callsign: string, entry: readonly [string, string, string], c: CatalogRoutesDoc): RouteDoc {
  const prefix = airlinePrefixOf(callsign);
  const airline = prefix ? c.airlines[prefix] : undefined;
  const review = c.accepted[callsign];
  return {
    callsign,
    org: entry[0],
    dst: entry[1],
    route_source: 'catalog',
    flight: Object.hasOwn(c.flights, callsign) ? c.flights[callsign]! : plainFlight(callsign, airline),
    airline: prefix && airline ? { icao: prefix, iata: airline[0], name: airline[1] } : null,
    observed: null,
    catalog: { stops: [entry[0], entry[1]], review: review ? 'accepted' : 'auto', reviewer: review?.[0] ?? null, reviewed_on: review?.[1] ?? null },
    coverage: 'observed',
  };
}
