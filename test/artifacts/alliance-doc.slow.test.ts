// alliance documents: sourced memberships, observed coverage of member brands, undirected routes
process.env.TZ = 'UTC';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { allianceRoutes, type AllianceDoc, type AllianceRoutesDoc } from '../../artifacts/alliance-doc.ts';
import { buildAlliances } from '../../build/steps/alliances/build.ts';
import { problems } from '../../schemas/index.ts';
import { at, testContext, type LegRow } from '../helpers/artifact-ctx.ts';

const NOW = Date.parse('2024-05-10T08:00:00Z');

test('routes are undirected with org/dst in alphabetical order, busiest first, members busiest first', () => {
  const r = allianceRoutes([
    { a: 'ZRH', b: 'LHR', icao: 'SWR', legs: 2 },
    { a: 'LHR', b: 'ZRH', icao: 'DLH', legs: 3 },
    { a: 'LHR', b: 'ZRH', icao: 'SWR', legs: 1 },
    { a: 'GVA', b: 'ZRH', icao: 'SWR', legs: 6 },
    { a: 'NRT', b: 'NRT', icao: 'ANA', legs: 9 },
  ]);
  assert.deepEqual(r, [
    { org: 'GVA', dst: 'ZRH', legs: 6, members: [{ icao: 'SWR', legs: 6 }] },
    {
      org: 'LHR',
      dst: 'ZRH',
      legs: 6,
      members: [
        { icao: 'DLH', legs: 3 },
        { icao: 'SWR', legs: 3 },
      ],
    },
  ]);
});

function legs(): LegRow[] {
  const out: LegRow[] = [];
  for (let i = 1; i <= 4; i++) {
    const d = `2024-05-0${i}`;
    out.push({ hex: '4b1801', callsign: 'SWR318', dep_ts: at(`${d}T05:00`), arr_ts: at(`${d}T06:40`), org: 'LSZH', dst: 'EGLL' });
    out.push({ hex: '4b1801', callsign: 'SWR319', dep_ts: at(`${d}T08:00`), arr_ts: at(`${d}T09:40`), org: 'EGLL', dst: 'LSZH' });
    out.push({ hex: '3c6601', callsign: 'DLH2', dep_ts: at(`${d}T10:00`), arr_ts: null, org: 'LSZH', dst: null });
    out.push({ hex: '400001', callsign: 'BAW710', dep_ts: at(`${d}T11:30`), arr_ts: at(`${d}T13:10`), org: 'EGLL', dst: 'LSZH' });
  }
  // not member legs: no flight number after the designator, and an unknown prefix
  out.push({ hex: '4b1809', callsign: 'SWRTEST', dep_ts: at('2024-05-02T12:00'), arr_ts: at('2024-05-02T13:00'), org: 'LSZH', dst: 'LSGG' });
  out.push({ hex: '4b1808', callsign: 'EDW12', dep_ts: at('2024-05-02T12:00'), arr_ts: at('2024-05-02T13:00'), org: 'LSZH', dst: 'LSGG' });
  // a member leg to a field without IATA: counts as coverage, not as a route
  out.push({ hex: '4b1807', callsign: 'SWR5', dep_ts: at('2024-05-03T12:00'), arr_ts: at('2024-05-03T12:30'), org: 'LSZH', dst: 'LSPV' });
  return out;
}

test('alliance documents: memberships as sourced, coverage per member, undirected member routes, all valid', async () => {
  const ctx = await testContext(legs(), { nowMs: NOW });
  await buildAlliances(ctx, ctx.airports);
  assert.deepEqual([...ctx.writer.objects.keys()].sort(), [
    'v1/alliances/oneworld',
    'v1/alliances/oneworld/routes',
    'v1/alliances/star-alliance',
    'v1/alliances/star-alliance/routes',
  ]);
  for (const k of [...ctx.writer.objects.keys()]) {
    assert.deepEqual(problems(k.endsWith('/routes') ? 'alliance-routes' : 'alliance', ctx.writer.read(k)), [], k);
  }
  const star = ctx.writer.read('v1/alliances/star-alliance') as AllianceDoc;
  assert.equal(star.source, 'https://www.staralliance.com/en/member-airlines');
  assert.equal(star.as_of, '2025-06-30');
  assert.deepEqual(
    star.members.map((m) => [m.icao, m.iata, m.observed.legs, m.observed.airframes]),
    [
      ['SWR', 'LX', 9, 2],
      ['DLH', 'LH', 4, 1],
      ['ANA', 'NH', 0, 0],
    ],
  );
  // airports: LSZH, EGLL, LSPV; countries CH, GB; routes: LHR-ZRH only (LSPV has no IATA)
  assert.deepEqual(star.observed, { legs: 13, airframes: 3, airports: 3, countries: 2, routes: 1, days_observed: 4 });
  assert.equal(star.window_days, 4);
  const starRoutes = ctx.writer.read('v1/alliances/star-alliance/routes') as AllianceRoutesDoc;
  assert.deepEqual(starRoutes.routes, [{ org: 'LHR', dst: 'ZRH', legs: 8, members: [{ icao: 'SWR', legs: 8 }] }]);
  const ow = ctx.writer.read('v1/alliances/oneworld/routes') as AllianceRoutesDoc;
  assert.deepEqual(ow.routes, [{ org: 'LHR', dst: 'ZRH', legs: 4, members: [{ icao: 'BAW', legs: 4 }] }]);
});

test('without a flight log alliances keep their memberships, with observed and window_days null', async () => {
  const ctx = await testContext([], { nowMs: NOW });
  await buildAlliances(ctx, ctx.airports);
  const ow = ctx.writer.read('v1/alliances/oneworld') as AllianceDoc;
  assert.equal(ow.observed, null);
  assert.equal(ow.window_days, null);
  assert.deepEqual(ow.members[0]!.observed, { legs: 0, airframes: 0 });
  assert.deepEqual((ctx.writer.read('v1/alliances/oneworld/routes') as AllianceRoutesDoc).routes, []);
});
