// board rows: flight numbers, other ends from the routes table, merge with the published timetable
process.env.TZ = 'UTC';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { arrivalRows, boardAirlines, departureRows, type RowLookups } from '../../artifacts/board-rows.ts';
import type { Slot } from '../../artifacts/board.ts';

const slot = (callsign: string, atMin: number, end: string | null, over: Partial<Slot> = {}): Slot => ({
  callsign,
  end,
  at: atMin,
  other: atMin + 90,
  type: 'A320',
  flights: 5,
  days: 5,
  ...over,
});
const lk: RowLookups = {
  flightOf: (cs) => (cs.startsWith('SWR') ? `LX${cs.slice(3)}` : null),
  routeOf: (cs) => (cs === 'SWR77' ? { org: 'ZRH', dst: 'BRN', route_source: 'catalog' } : undefined),
  // the network heard flights fly these routes in these minutes; nothing else
  blockMinutes: (org, dst) =>
    (({ 'ZRH-ACH': 45, 'LHR-ZRH': 100, 'ZRH-LHR': 95, 'ZRH-GVA': 40, 'ZRH-NRT': 720 }) as Record<string, number>)[`${org}-${dst}`] ?? null,
};

test('observed rows carry the IATA flight number, HH:MM local times and sort by dep', () => {
  const rows = departureRows('ZRH', [slot('SWR318', 7 * 60, 'LHR'), slot('HBABC', 6 * 60, 'ACH', { other: null, type: null })], [], lk);
  assert.deepEqual(rows, [
    // never heard landing: dep plus the 45 min the network heard other flights take from ZRH to ACH
    {
      flight: 'HBABC',
      callsign: 'HBABC',
      dst: 'ACH',
      dep: '06:00',
      arr: '06:45',
      arr_source: 'route',
      type: null,
      flights: 5,
      source: 'observed',
      route_source: 'observed',
    },
    {
      flight: 'LX318',
      callsign: 'SWR318',
      dst: 'LHR',
      dep: '07:00',
      arr: '08:30',
      arr_source: 'observed',
      type: 'A320',
      flights: 5,
      source: 'observed',
      route_source: 'observed',
    },
  ]);
});

test('an end never heard comes from the routes table with its route_source; with no answer the row is left out', () => {
  const rows = departureRows('ZRH', [slot('SWR77', 600, null), slot('SWR78', 610, null)], [], lk);
  assert.equal(rows.length, 1);
  assert.equal(rows[0]!.dst, 'BRN');
  assert.equal(rows[0]!.route_source, 'catalog');
  const arr = arrivalRows('ZRH', [slot('SWR77', 600, null)], [], lk);
  assert.equal(arr[0]!.org, 'ZRH');
});

test('a published departure within 30 min of the same observed flight makes it both; others are published with flights 0', () => {
  const rows = departureRows(
    'ZRH',
    [slot('SWR318', 7 * 60 + 25, 'LHR'), slot('SWR100', 12 * 60, 'NRT')],
    [
      { flight: 'LX318', callsign: 'SWR318', dst: 'LHR', dep: '07:00' },
      { flight: 'LX100', dst: 'NRT', dep: '13:00' }, // same flight, 60 min away: not the same
      { flight: 'LX1612', dst: 'GVA', dep: '09:15', type: 'BCS3' },
    ],
    lk,
  );
  assert.deepEqual(
    rows.map((r) => [r.flight, r.dep, r.source, r.flights]),
    [
      ['LX318', '07:25', 'both', 5],
      ['LX1612', '09:15', 'published', 0],
      ['LX100', '12:00', 'observed', 5],
      ['LX100', '13:00', 'published', 0],
    ],
  );
  const pub = rows.find((r) => r.flight === 'LX1612')!;
  assert.equal(pub.route_source, undefined);
  assert.equal(pub.callsign, null);
  assert.equal(pub.type, 'BCS3');
});

test('published matching works across midnight (23:50 published, 00:10 observed)', () => {
  const rows = arrivalRows('ZRH', [slot('SWR1', 10, 'LHR')], [{ flight: 'LX1', org: 'LHR', arr: '23:50' }], lk);
  assert.deepEqual(
    rows.map((r) => r.source),
    ['both'],
  );
});

test('one published row matches at most one observed row, the nearest', () => {
  const rows = departureRows('ZRH', [slot('SWR5', 600, 'LHR'), slot('SWR5', 620, 'LHR')], [{ flight: 'LX5', dep: '10:15', dst: 'LHR' }], lk);
  assert.deepEqual(
    rows.map((r) => [r.dep, r.source]),
    [
      ['10:00', 'observed'],
      ['10:20', 'both'],
    ],
  );
});

test('airlines on the board: observed flights per airline, busiest first, top 20, non-airlines left out', () => {
  const slots = Array.from({ length: 25 }, (_, i) => slot(`A${String.fromCharCode(65 + i)}A${i + 1}`, 300 + i, 'LHR', { flights: 30 - i }));
  const rows = departureRows('ZRH', [...slots, slot('HBABC', 100, 'ACH', { flights: 99 })], [], lk);
  const airlines = boardAirlines(rows, (cs) => (/^[A-Z]{3}\d/.test(cs) ? cs.slice(0, 3) : null));
  assert.equal(airlines.length, 20);
  assert.deepEqual(airlines[0], { icao: 'AAA', flights: 30 });
  assert.ok(!airlines.some((a) => a.icao === 'HBA'), "!airlines.some((a) => a.icao === 'HBA')");
  assert.ok(
    airlines.every((a, i) => i === 0 || airlines[i - 1]!.flights >= a.flights),
    'airlines.every((a, i) => i === 0 || airlines[i - 1]!.flights >= a.flights)',
  );
});

test("the other end's time from the route's block time (across midnight too), else null on an observed row; a published row needs one", () => {
  // an arrival never heard taking off at LHR: 00:30 local minus LHR-ZRH's 100 min is 22:50 the day before
  const arr = arrivalRows('ZRH', [slot('SWR9', 30, 'LHR', { other: null })], [], lk);
  assert.deepEqual(
    arr.map((r) => [r.dep, r.dep_source, r.arr]),
    [['22:50', 'route', '00:30']],
  );
  // no landing heard and no flight ever heard on ZRH-BRN: nothing gives the time, so it is null, and the heard flight stays
  assert.deepEqual(
    departureRows('ZRH', [slot('SWR7', 600, 'BRN', { other: null })], [], lk).map((r) => [r.flight, r.dst, r.dep, r.arr, r.arr_source, r.flights]),
    [['LX7', 'BRN', '10:00', null, null, 5]],
  );
  // a published departure gets its arrival from observation of the route, labelled so; none known: left out
  const pub = departureRows(
    'ZRH',
    [],
    [
      { flight: 'LX2', dst: 'GVA', dep: '23:50' },
      { flight: 'LX3', dst: 'BRN', dep: '08:00' },
    ],
    lk,
  );
  assert.deepEqual(
    pub.map((r) => [r.flight, r.dep, r.arr, r.arr_source, r.source]),
    [['LX2', '23:50', '00:30', 'route', 'published']],
  );
  for (const r of [...arr, ...pub])
    assert.ok(/^\d\d:\d\d$/.test(r.dep ?? '') && /^\d\d:\d\d$/.test(r.arr ?? ''), '/^\\d\\d:\\d\\d$/.test(r.dep) && /^\\d\\d:\\d\\d$/.test(r.arr)');
});

test('a flight heard at one airport only, its other end from the routes table and no time for it, is on the board of both ends it has', () => {
  // AAL72 SYD-LAX in the demo: the take-off heard at SYD on one leg, the landing at LAX on another, the route
  // observed, no leg heard end to end, so no block time: both boards keep it with the other time null
  const routes: RowLookups = {
    flightOf: (cs) => (cs.startsWith('AAL') ? `AA${cs.slice(3)}` : null),
    routeOf: (cs) => (cs === 'AAL72' ? { org: 'SYD', dst: 'LAX', route_source: 'observed' } : undefined),
    blockMinutes: () => null,
  };
  const atSyd = departureRows('SYD', [slot('AAL72', 16 * 60, null, { other: null })], [], routes);
  assert.deepEqual(atSyd, [
    {
      flight: 'AA72',
      callsign: 'AAL72',
      dst: 'LAX',
      dep: '16:00',
      arr: null,
      arr_source: null,
      type: 'A320',
      flights: 5,
      source: 'observed',
      route_source: 'observed',
    },
  ]);
  const atLax = arrivalRows('LAX', [slot('AAL72', 11 * 60, null, { other: null })], [], routes);
  assert.deepEqual(
    atLax.map((r) => [r.flight, r.org, r.dep, r.dep_source, r.arr, r.route_source]),
    [['AA72', 'SYD', null, null, '11:00', 'observed']],
  );
  // a published row matching it still makes it both, and the null time sorts by its own time as any other
  const merged = departureRows(
    'SYD',
    [slot('AAL72', 16 * 60, null, { other: null }), slot('AAL7', 9 * 60, null, { other: null })],
    [{ flight: 'AA72', callsign: 'AAL72', dst: 'LAX', dep: '16:10' }],
    {
      ...routes,
      routeOf: (cs) => ({ org: 'SYD', dst: cs === 'AAL7' ? 'DFW' : 'LAX', route_source: 'observed' }),
    },
  );
  assert.deepEqual(
    merged.map((r) => [r.flight, r.dep, r.arr, r.source]),
    [
      ['AA7', '09:00', null, 'observed'],
      ['AA72', '16:00', null, 'both'],
    ],
  );
});

test('rows of one minute and one flight number (two callsigns of one airline) sort by callsign, whatever order the slots came in', () => {
  // SWR8161 and EDW8161 both map to LX8161 here, as DLH8161 and GEC8161 both are LH8161
  const shared: RowLookups = { ...lk, flightOf: (cs) => (cs.endsWith('8161') ? 'LX8161' : null) };
  const a = slot('SWR8161', 600, 'LHR');
  const b = slot('EDW8161', 600, 'LHR');
  for (const order of [
    [a, b],
    [b, a],
  ]) {
    assert.deepEqual(
      departureRows('ZRH', order, [], shared).map((r) => r.callsign),
      ['EDW8161', 'SWR8161'],
    );
    assert.deepEqual(
      arrivalRows('ZRH', order, [], shared).map((r) => r.callsign),
      ['EDW8161', 'SWR8161'],
    );
  }
});
