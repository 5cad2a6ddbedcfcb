// the airport builder end to end: hand-made legs in DuckDB, a pinned clock, a published timetable;
// every document is validated by the writer against schemas/airport.schema.json.
process.env.TZ = 'UTC';
import type { RoutesTable } from '../../../../artifacts/routes-table.ts';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildAirports } from '../../../../build/steps/airports/build.ts';
import { icaoKeyOf } from '../../../../build/steps/airports/served.ts';
import type { AirportDoc } from '../../../../artifacts/airport-doc.ts';
import { problems } from '../../../../schemas/index.ts';
import { at, testContext, type LegRow } from '../../../helpers/artifact-ctx.ts';

const NOW = Date.parse('2024-05-10T08:00:00Z'); // 10:00 in Zurich
const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'fixtures', 'timetables');
const days = Array.from({ length: 9 }, (_, i) => `2024-05-0${i + 1}`);

function legs(): LegRow[] {
  const out: LegRow[] = [];
  days.forEach((d, i) => {
    // 07:00 Zurich (CEST) daily to Heathrow, landing 08:40 Zurich time
    out.push({
      hex: i % 2 ? '4b1801' : '4b1802',
      callsign: 'SWR318',
      type: i < 6 ? 'A320' : 'A20N',
      dep_ts: at(`${d}T05:00`),
      arr_ts: at(`${d}T06:40`),
      org: 'LSZH',
      dst: 'EGLL',
    });
    // 12:00 Zurich, landing never heard: the routes table names Bern
    out.push({ hex: '4b1803', callsign: 'SWR77', dep_ts: at(`${d}T10:00`), arr_ts: null, org: 'LSZH', dst: null });
    // circuits are kept in the log but never counted
    out.push({ hex: '4b1804', callsign: 'HBXYZ', dep_ts: at(`${d}T09:00`), arr_ts: at(`${d}T09:20`), org: 'LSZH', dst: 'LSZH' });
    // Heathrow to Zurich, 15:10 at Zurich
    out.push({ hex: '400001', callsign: 'BAW710', type: 'A320', dep_ts: at(`${d}T11:30`), arr_ts: at(`${d}T13:10`), org: 'EGLL', dst: 'LSZH' });
    // military shuttle at Ramstein, three times a day
    for (const h of ['07', '11', '15']) out.push({ hex: 'ae1234', callsign: 'RCH101', dep_ts: at(`${d}T${h}:00`), arr_ts: null, org: 'ETAR', dst: null });
  });
  // once, Zurich to Bern heard end to end in 25 min: the block time that gives SWR77 its arrival
  out.push({ hex: '4b1806', callsign: 'HBZZZ', dep_ts: at('2024-05-04T10:00'), arr_ts: at('2024-05-04T10:25'), org: 'LSZH', dst: 'LSZB' });
  // one flight to a field without an IATA code
  out.push({ hex: '4b1805', callsign: 'HBABC', dep_ts: at('2024-05-03T14:00'), arr_ts: at('2024-05-03T14:30'), org: 'LSZH', dst: 'LSPV' });
  return out;
}

function timetables(): string {
  const dir = mkdtempSync(join(tmpdir(), 'contrail-tt-'));
  cpSync(join(FIXTURES, 'ZRH'), join(dir, 'ZRH'), { recursive: true });
  mkdirSync(join(dir, 'GVA'));
  writeFileSync(
    join(dir, 'GVA', '2024-05-10.json'),
    '{"airport":"GVA","day":"2024-05-10","source":"x","departures":[{"flight":"LX1","dst":"ZRH","dep":"25:00"}],"arrivals":[]}',
  );
  return dir;
}

const routes = new Map([['SWR77', { org: 'ZRH', dst: 'BRN', org_ident: 'LSZH', dst_ident: 'LSZB', route_source: 'catalog' }]]);

test('every IATA airport gets one valid document, also under its ICAO code with the same bytes', async () => {
  const ctx = await testContext(legs(), { nowMs: NOW, timetablesDir: timetables() });
  const warn = process.stderr.write;
  process.stderr.write = (() => true) as typeof process.stderr.write; // the rejected GVA file is reported there
  try {
    await buildAirports(ctx, routes as RoutesTable, ctx.airports);
  } finally {
    process.stderr.write = warn;
  }
  const iata = [...ctx.writer.objects.keys()].filter((k) => /^v1\/airports\/[A-Z0-9]{3}$/.test(k)).sort();
  assert.deepEqual(
    iata,
    ['ACH', 'BRN', 'GVA', 'LHR', 'NRT', 'RMS', 'ZRH'].map((c) => `v1/airports/${c}`),
  );
  assert.equal(ctx.writer.objects.get('v1/airports/LSZH')!.sha256, ctx.writer.objects.get('v1/airports/ZRH')!.sha256);
  assert.equal(ctx.counts.airports, 7);
  assert.equal(ctx.counts.airport_icao_keys, 7);
  assert.equal(ctx.counts.timetables, 1);
  assert.equal(ctx.counts.timetables_rejected, 1);
  for (const k of [...ctx.writer.objects.keys()].filter((x) => x.startsWith('v1/'))) assert.deepEqual(problems('airport', ctx.writer.read(k)), [], k);
  // the block times the hourly roll merges a new day's timetable with, as the boards used them
  assert.deepEqual(ctx.writer.read('meta/board-blocks'), { minutes: { 'LHR-ZRH': 100, 'ZRH-BRN': 25, 'ZRH-LHR': 100 } });

  const zrh = ctx.writer.read('v1/airports/LSZH') as AirportDoc;
  assert.equal(zrh.tz, 'Europe/Zurich');
  assert.equal(zrh.class, 'commercial');
  assert.equal(zrh.window_days, 9);
  // 9 + 9 + 1 + 1 departures; circuits out; destinations heard: EGLL, LSZB and LSPV; tails 4b1801..03, 05, 06 and the BAW
  assert.deepEqual(zrh.observed, {
    departures: 20,
    destinations: 3,
    tails: 6,
    days_observed: 9,
    routes: [
      { dst: 'LHR', flights: 9, days: 9 },
      { dst: 'BRN', flights: 1, days: 1 },
    ],
  });
  // LX77 never heard landing: its arrival is dep + the 25 min the network heard ZRH-BRN take (arr_source route);
  // the published LX1612 to Geneva is left out of the inferred board: nothing heard gives its arrival time
  assert.deepEqual(
    zrh.board.map((r) => [r.flight, r.dst, r.dep, r.arr, r.arr_source, r.type, r.flights, r.source, r.route_source]),
    [
      ['LX318', 'LHR', '07:00', '08:40', 'observed', 'A320', 9, 'both', 'observed'],
      ['LX77', 'BRN', '12:00', '12:25', 'route', null, 9, 'observed', 'catalog'],
    ],
  );
  // the published LX319 from Heathrow: its departure is 11:05 minus the 100 min BAW710 takes (route)
  assert.deepEqual(
    zrh.arrivals.map((r) => [r.flight, r.org, r.dep, r.dep_source, r.arr, r.flights, r.source]),
    [
      ['LX319', 'LHR', '09:25', 'route', '11:05', 0, 'published'],
      ['BA710', 'LHR', '13:30', 'observed', '15:10', 9, 'observed'],
    ],
  );
  assert.deepEqual(zrh.airlines, [{ icao: 'SWR', flights: 18 }]);
  assert.equal(zrh.today!.day, '2024-05-10');
  assert.equal(zrh.times, 'local');
  assert.equal(zrh.coverage, 'observed');

  const gva = ctx.writer.read('v1/airports/GVA') as AirportDoc;
  assert.equal(gva.today, null, 'a rejected timetable is as if none were held');
  const brn = ctx.writer.read('v1/airports/BRN') as AirportDoc;
  // one arrival heard (HBZZZ), no departure
  assert.deepEqual(brn.observed, { departures: 0, destinations: 0, tails: 1, days_observed: 1, routes: [] });
  assert.deepEqual([brn.board, brn.arrivals, brn.airlines, brn.today], [[], [], [], null]);
  const rms = ctx.writer.read('v1/airports/RMS') as AirportDoc;
  assert.equal(rms.class, 'military');
  assert.equal(rms.board.length, 0, 'no landing heard and no route known: no board rows');
});

test('without a flight log observed and window_days are null; the published board stands whole in `today` only', async () => {
  const ctx = await testContext([], { nowMs: NOW, timetablesDir: FIXTURES });
  await buildAirports(ctx, new Map(), ctx.airports);
  const zrh = ctx.writer.read('v1/airports/ZRH') as AirportDoc;
  assert.equal(zrh.observed, null);
  assert.equal(zrh.window_days, null);
  // published rows need both times (docs/api.md, board times) and nothing heard gives the other end's: no inferred rows
  assert.deepEqual([zrh.board, zrh.arrivals], [[], []]);
  assert.equal(zrh.today!.departures.length, 2);
  assert.equal(zrh.class, 'commercial');
});

test("a flight heard only taking off at one end and only landing at the other, never end to end, is on both airports' boards", async () => {
  // as AAL72 SYD-LAX in the demo: coverage lost over the ocean cuts each flight into two legs; the route is
  // observed (the take-off at LSZH and the landing at RJAA were both heard), but no leg gives a block time
  const legs: LegRow[] = days.flatMap((d) => [
    { hex: '86e001', callsign: 'ANA210', type: 'B789', dep_ts: at(`${d}T11:00`), arr_ts: null, org: 'LSZH', dst: null },
    { hex: '86e001', callsign: 'ANA210', type: 'B789', dep_ts: null, arr_ts: at(`${d}T23:30`), org: null, dst: 'RJAA' },
  ]);
  const ctx = await testContext(legs, { nowMs: NOW });
  const table = new Map([
    ['ANA210', { org: 'ZRH', dst: 'NRT', org_ident: 'LSZH', dst_ident: 'RJAA', route_source: 'observed', org_seen: true, dst_seen: true }],
  ]);
  await buildAirports(ctx, table as RoutesTable, ctx.airports);
  const zrh = ctx.writer.read('v1/airports/ZRH') as AirportDoc;
  const nrt = ctx.writer.read('v1/airports/NRT') as AirportDoc;
  // every document passed the writer's schema check with the null time in it
  assert.deepEqual(
    zrh.board.map((r) => [r.flight, r.dst, r.dep, r.arr, r.arr_source, r.flights, r.source, r.route_source]),
    [['NH210', 'NRT', '13:00', null, null, 9, 'observed', 'observed']],
  );
  // 23:30 UTC is 08:30 the next morning in Tokyo
  assert.deepEqual(
    nrt.arrivals.map((r) => [r.flight, r.org, r.dep, r.dep_source, r.arr, r.flights, r.source, r.route_source]),
    [['NH210', 'ZRH', null, null, '08:30', 9, 'observed', 'observed']],
  );
  for (const k of ['v1/airports/ZRH', 'v1/airports/NRT']) assert.deepEqual(problems('airport', ctx.writer.read(k)), [], k);
});

test('the ICAO spelling is the ICAO code, else a 4-letter ident, never a 3-character one', () => {
  assert.equal(icaoKeyOf({ icao: 'LSZH', ident: 'LSZH' }), 'LSZH');
  assert.equal(icaoKeyOf({ icao: null, ident: 'KXYZ' }), 'KXYZ');
  assert.equal(icaoKeyOf({ icao: null, ident: '1G4' }), null);
  assert.equal(icaoKeyOf({ icao: null, ident: 'US-0571' }), null);
});
