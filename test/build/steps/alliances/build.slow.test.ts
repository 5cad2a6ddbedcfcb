// the alliance builder end to end: hand-made legs in DuckDB, the test reference data (Star Alliance:
// SWR, DLH, ANA; oneworld: BAW). every figure of the two documents comes from the count tables
// build/steps/alliances/build.ts fills from the member legs; this pins what counts and what does not.
process.env.TZ = 'UTC';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildAlliances } from '../../../../build/steps/alliances/build.ts';
import type { AllianceDoc, AllianceRoutesDoc } from '../../../../artifacts/alliance-doc.ts';
import { problems } from '../../../../schemas/index.ts';
import { at, testContext, type LegRow } from '../../../helpers/artifact-ctx.ts';

const NOW = Date.parse('2024-05-10T08:00:00Z');

function legs(): LegRow[] {
  const leg = (hex: string, callsign: string | null, day: string, org: string | null, dst: string | null): LegRow => ({
    hex,
    callsign,
    dep_ts: at(`${day}T08:00`),
    arr_ts: at(`${day}T09:30`),
    org,
    dst,
  });
  return [
    // SWR: Zurich-Heathrow both ways on two airframes over two days: one pair, 3 legs
    leg('4b1801', 'SWR318', '2024-05-01', 'LSZH', 'EGLL'),
    leg('4b1802', 'SWR319', '2024-05-01', 'EGLL', 'LSZH'),
    leg('4b1801', 'SWR318', '2024-05-02', 'LSZH', 'EGLL'),
    // SWR to a field without an IATA code: an airport of the alliance, no route
    leg('4b1801', 'SWR9', '2024-05-03', 'LSZH', 'LSPV'),
    // SWR with its arrival never heard: a leg and an airport, no route
    leg('4b1803', 'SWR77', '2024-05-03', 'LSZH', null),
    // DLH Geneva-Zurich on an airframe SWR also flies: the alliance counts it once
    leg('4b1802', 'DLH5', '2024-05-03', 'LSGG', 'LSZH'),
    // ANA circuit at Narita: a leg, an airport, never a route
    leg('840001', 'ANA1', '2024-05-04', 'RJAA', 'RJAA'),
    // not member legs: a registration, a callsign with no flight number, another airline, no callsign
    leg('4b1804', 'HBXYZ', '2024-05-05', 'LSZH', 'LSGG'),
    leg('4b1805', 'SWRABC', '2024-05-05', 'LSZH', 'LSGG'),
    leg('4b1806', 'EZY12', '2024-05-05', 'LSZH', 'LSGG'),
    leg('4b1807', null, '2024-05-05', 'LSZH', 'LSGG'),
    // oneworld: one BAW leg London-Bern
    leg('400001', 'BAW710', '2024-05-06', 'EGLL', 'LSZB'),
  ];
}

test('alliance documents count member legs, airframes, days, airports, countries and undirected IATA pairs', async () => {
  const ctx = await testContext(legs(), { nowMs: NOW });
  await buildAlliances(ctx, ctx.airports);
  await ctx.writer.flush();
  assert.equal(ctx.counts.alliances, 2);
  for (const k of [...ctx.writer.objects.keys()].filter((x) => x.startsWith('v1/alliances/'))) {
    assert.deepEqual(problems(k.endsWith('/routes') ? 'alliance-routes' : 'alliance', ctx.writer.read(k)), [], k);
  }

  const star = ctx.writer.read('v1/alliances/star-alliance') as AllianceDoc;
  // 7 member legs: 5 SWR, 1 DLH, 1 ANA; the airframe 4b1802 flew for SWR and DLH
  assert.deepEqual(star.observed, { legs: 7, airframes: 4, airports: 5, countries: 3, routes: 2, days_observed: 4 });
  assert.deepEqual(
    star.members.map((m) => [m.icao, m.observed]),
    [
      ['SWR', { legs: 5, airframes: 3 }],
      ['DLH', { legs: 1, airframes: 1 }],
      ['ANA', { legs: 1, airframes: 1 }],
    ],
  );
  assert.equal(star.window_days, 6);
  const starRoutes = ctx.writer.read('v1/alliances/star-alliance/routes') as AllianceRoutesDoc;
  assert.deepEqual(
    starRoutes.routes.map((r) => [r.org, r.dst, r.legs, r.members.map((m) => [m.icao, m.legs])]),
    [
      ['LHR', 'ZRH', 3, [['SWR', 3]]],
      ['GVA', 'ZRH', 1, [['DLH', 1]]],
    ],
  );

  const one = ctx.writer.read('v1/alliances/oneworld') as AllianceDoc;
  assert.deepEqual(one.observed, { legs: 1, airframes: 1, airports: 2, countries: 2, routes: 1, days_observed: 1 });
  const oneRoutes = ctx.writer.read('v1/alliances/oneworld/routes') as AllianceRoutesDoc;
  assert.deepEqual(
    oneRoutes.routes.map((r) => [r.org, r.dst, r.legs]),
    [['BRN', 'LHR', 1]],
  );
});

test('with no log the alliance documents carry the memberships and no observation', async () => {
  const ctx = await testContext([], { nowMs: NOW });
  await buildAlliances(ctx, ctx.airports);
  await ctx.writer.flush();
  const star = ctx.writer.read('v1/alliances/star-alliance') as AllianceDoc;
  assert.equal(star.observed, null);
  assert.deepEqual(
    star.members.map((m) => m.icao),
    ['SWR', 'DLH', 'ANA'],
  );
});
