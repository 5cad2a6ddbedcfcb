import assert from 'node:assert/strict';
import { test } from 'node:test';
import { flightsDoc, type FlightRow } from '../../artifacts/flights-doc.ts';
import { problems } from '../../schemas/index.ts';

const row = (first: number, over: Partial<FlightRow> = {}): FlightRow => ({
  callsign: 'SWR100',
  reg: 'HB-JVL',
  type: 'A320',
  first_ts: first,
  last_ts: first + 3600,
  dep_ts: first + 300,
  arr_ts: first + 3300,
  org: 'ZRH',
  dst: 'LHR',
  org_ident: 'LSZH',
  dst_ident: 'EGLL',
  route_source: 'observed',
  dep_lat: 47.45,
  dep_lon: 8.56,
  arr_lat: 51.47,
  arr_lon: -0.45,
  dep_runway: null,
  arr_runway: '27R',
  distance_km: 800.5,
  max_alt_ft: 37000,
  circuit: false,
  track: [
    [first + 3600, 51.47, -0.45, 'ground', null],
    [first, 47.45, 8.56, 'ground', 280],
  ],
  ...over,
});

test('flightsDoc: oldest first, ends with airport and runway, null ends when not heard, tracks oldest first; valid', () => {
  const doc = flightsDoc('4b1814', '2026-11-20', [
    row(2000, { reg: null, dep_ts: null, dep_lat: null, dep_lon: null, org: null, org_ident: null, route_source: 'observed+catalog' }),
    row(1000, { reg: 'HB-OLD' }),
  ]);
  assert.deepEqual(
    doc.flights.map((f) => f.first_seen),
    [1000, 2000],
  );
  assert.equal(doc.reg, 'HB-OLD', 'the latest reg heard that day (the later flight had none)');
  assert.deepEqual(doc.flights[0]!.departure, { at: 1300, lat: 47.45, lon: 8.56, airport: 'LSZH', runway: null });
  assert.deepEqual(doc.flights[0]!.arrival, { at: 4300, lat: 51.47, lon: -0.45, airport: 'EGLL', runway: '27R' });
  assert.equal(doc.flights[1]!.departure, null);
  assert.deepEqual(
    doc.flights[0]!.track.map((p) => p[0]),
    [1000, 4600],
  );
  assert.equal(doc.coverage, 'observed');
  assert.deepEqual(problems('flights', doc), []);
  assert.notDeepEqual(problems('flights', { ...doc, flights: [] }), [], 'a day without flights is no document');
  assert.throws(() => flightsDoc('4b1814', '2026-11-20', []), /no flights/);
});
