// the route of a catalog-only callsign as the live server builds it (no file written) is the
// document a --catalog-route-files build writes, byte for byte: the same decisions, reviews and
// flight numbers through both paths (artifacts/catalog-routes.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { catalogRouteDoc, catalogRoutesCollector, decodeCatalogRoutes } from '../../artifacts/catalog-routes.ts';
import { indexReviews } from '../../artifacts/catalog-review.ts';
import { routeDoc, type RouteEntry } from '../../artifacts/routes-table.ts';
import type { CatalogVerdict } from '../../artifacts/catalog-check.ts';
import { encodeRoutesTable, decodeRoutesTable } from '../../artifacts/meta.ts';
import { computeRoutes } from '../../build/steps/routes/build.ts';
import { problems } from '../../schemas/index.ts';
import { makeRef } from '../helpers/ref-fixture.ts';

const CATALOG = {
  SWR100: ['LSZH', 'KJFK'],
  SWR200: ['LSZH', 'EGLL'],
  // a positioning flight of its airline: no flight number although the airline has an IATA code
  SWR9000: ['LSZH', 'LSGG'],
  BAW12: ['EGLL', 'KJFK'],
  // an airline without an IATA code: no flight number
  XAA12: ['LSZH', 'EDDF'],
  // multi-stop and never heard: no route (decideRoute), so nothing for the server to build
  DLH400: ['EDDF', 'LSZH', 'KJFK'],
};
const base = makeRef(CATALOG);
const noIata = { icao: 'XAA', iata: null, name: 'No IATA Air', country: 'SWITZERLAND', telephony: null };
const ref = {
  ...base,
  airline: (icao: string) => (icao === 'XAA' ? noIata : base.airline(icao)),
  flightNumber: (cs: string) => (cs === 'SWR9000' ? null : base.flightNumber(cs)),
};
const reviews = indexReviews([{ callsign: 'SWR200', route: 'LSZH-EGLL', decision: 'accept', reviewer: 'mk', date: '2026-10-01', note: '' }]);

function decided() {
  const made: { cs: string; entry: RouteEntry; verdict: CatalogVerdict | null }[] = [];
  const r = computeRoutes(new Map(), ref, reviews, 'auto', (cs, d, _ev, verdict) => {
    if (d.entry) made.push({ cs, entry: d.entry, verdict });
  });
  return { made, table: r.table };
}

test('every catalog-only route the server builds from meta/routes and meta/catalog-routes is the file the build would write, byte for byte', () => {
  const { made, table } = decided();
  assert.deepEqual(made.map((m) => m.cs).sort(), ['BAW12', 'SWR100', 'SWR200', 'SWR9000', 'XAA12']);
  const c = catalogRoutesCollector(ref);
  for (const m of made) c.add(m.cs, m.entry, m.verdict!.review);
  // what the server loads: both documents through JSON, as published
  const doc = c.doc();
  assert.deepEqual(problems('catalog-routes', doc), []);
  const served = decodeCatalogRoutes(JSON.parse(JSON.stringify(doc)));
  const routes = decodeRoutesTable(JSON.parse(JSON.stringify(encodeRoutesTable(table))));
  for (const m of made) {
    const file = JSON.stringify(routeDoc(m.cs, m.entry, null, m.verdict, ref));
    assert.equal(JSON.stringify(catalogRouteDoc(m.cs, routes.get(m.cs)!, served)), file, m.cs);
  }
  // the exceptions the table cannot say, and nothing more
  assert.deepEqual(served.flights, { SWR9000: null });
  assert.deepEqual(served.accepted, { SWR200: ['mk', '2026-10-01'] });
  assert.deepEqual(served.airlines, { BAW: ['BA', 'British Airways'], SWR: ['LX', 'Swiss'], XAA: [null, 'No IATA Air'] });
  const reviewed = JSON.parse(JSON.stringify(catalogRouteDoc('SWR200', routes.get('SWR200')!, served)));
  assert.deepEqual(reviewed.catalog, { stops: ['ZRH', 'LHR'], review: 'accepted', reviewer: 'mk', reviewed_on: '2026-10-01' });
  assert.equal(reviewed.flight, 'LX200');
});

test('the collector refuses a route the network observed, and a malformed meta/catalog-routes is refused on load', () => {
  const c = catalogRoutesCollector(ref);
  const observed: RouteEntry = { org: 'ZRH', dst: 'JFK', org_ident: 'LSZH', dst_ident: 'KJFK', route_source: 'observed', org_seen: true, dst_seen: true };
  assert.throws(() => c.add('SWR100', observed, { status: 'unreviewed' }), /route_source observed, expected catalog/);
  for (const bad of [null, [], {}, { airlines: {}, flights: {} }, { airlines: [], flights: {}, accepted: {} }]) {
    assert.throws(() => decodeCatalogRoutes(bad), /meta\/catalog-routes lacks/, JSON.stringify(bad));
  }
});
