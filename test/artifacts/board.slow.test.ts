// board inference: local times across time zones, midnight and a DST change, with the process
// pinned to TZ=UTC so nothing leans on the machine's zone.
process.env.TZ = 'UTC';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BOARD_RULES, circularMedian, inferSlots, minuteDiff, mode, type BoardLeg } from '../../artifacts/board.ts';
import { hhmm, localTime, parseHhmm, utcOffsetMinutes } from '../../lib/localtime.ts';
import { at } from '../helpers/artifact-ctx.ts';
import { mulberry32 } from '../../lib/random.ts';

const leg = (dep: string, arr: string | null = null, end: string | null = 'LHR', type: string | null = 'A320'): BoardLeg => ({
  at: at(dep),
  other: arr === null ? null : at(arr),
  end,
  type,
});

test('utc offsets follow the zone, not the process TZ (Zurich summer/winter, Tokyo, St Johns half hour)', () => {
  assert.equal(utcOffsetMinutes('Europe/Zurich', at('2023-07-01T12:00')), 120);
  assert.equal(utcOffsetMinutes('Europe/Zurich', at('2023-12-01T12:00')), 60);
  assert.equal(utcOffsetMinutes('Asia/Tokyo', at('2023-12-01T12:00')), 540);
  assert.equal(utcOffsetMinutes('America/St_Johns', at('2023-12-01T12:00')), -210);
  // the Zurich change of 2023-10-29 happens at 01:00 UTC: one second before and at it
  assert.equal(utcOffsetMinutes('Europe/Zurich', at('2023-10-29T01:00') - 1), 120);
  assert.equal(utcOffsetMinutes('Europe/Zurich', at('2023-10-29T01:00')), 60);
  assert.deepEqual(localTime(at('2023-10-28T23:30'), 'Asia/Tokyo'), { day: '2023-10-29', minute: 8 * 60 + 30 });
});

test('hhmm wraps and parseHhmm rejects malformed times', () => {
  assert.equal(hhmm(0), '00:00');
  assert.equal(hhmm(1439), '23:59');
  assert.equal(hhmm(1440 + 65), '01:05');
  assert.equal(hhmm(-5), '23:55');
  assert.equal(parseHhmm('07:05'), 425);
  for (const bad of ['7:05', '24:00', '12:60', '12:5', '', '12:05 ', 'ab:cd']) assert.equal(parseHhmm(bad), null, bad);
});

test('minutes compare on the circle: 23:55 and 00:05 are 10 minutes apart', () => {
  assert.equal(minuteDiff(5, 1435), 10);
  assert.equal(minuteDiff(1435, 5), -10);
  assert.equal(circularMedian([1430, 1435, 5, 10, 15]), 5);
  assert.equal(circularMedian([1435, 5]), 0);
  assert.equal(circularMedian([]), null);
});

test('mode picks the most common value, ties to the alphabetically first, ignores nulls', () => {
  assert.equal(mode(['B738', null, 'A320', 'B738', 'A320']), 'A320');
  assert.equal(mode([null, null]), null);
  assert.equal(mode(['A21N', 'A21N', 'A320']), 'A21N');
});

test('a flight from a UTC+9 airport shows at its local time there (NRT 10:30), arrival in NRT time', () => {
  const legs = ['2024-03-04', '2024-03-05', '2024-03-06', '2024-03-07'].map((d) => leg(`${d}T01:30`, `${d}T14:00`, 'LHR', 'B788'));
  const slots = inferSlots('ANA211', legs, 'Asia/Tokyo');
  assert.equal(slots.length, 1);
  assert.equal(hhmm(slots[0]!.at), '10:30');
  // landing at 14:00 UTC is 23:00 in Tokyo: every time in the NRT document is NRT local time
  assert.equal(hhmm(slots[0]!.other!), '23:00');
  assert.deepEqual(
    { end: slots[0]!.end, type: slots[0]!.type, flights: slots[0]!.flights, days: slots[0]!.days },
    { end: 'LHR', type: 'B788', flights: 4, days: 4 },
  );
});

test('a departure around local midnight forms one slot whose typical time is near 00:00', () => {
  // Zurich winter (UTC+1): 23:50, 23:55, 00:05, 00:10, 00:00 local
  const legs = [leg('2024-01-08T22:50'), leg('2024-01-09T22:55'), leg('2024-01-10T23:05'), leg('2024-01-11T23:10'), leg('2024-01-12T23:00')];
  const slots = inferSlots('SWR8', legs, 'Europe/Zurich');
  assert.equal(slots.length, 1);
  assert.equal(hhmm(slots[0]!.at), '00:00');
  assert.equal(slots[0]!.flights, 5);
  assert.equal(slots[0]!.days, 5);
});

test('a flight at 07:10 Zurich time stays one slot at 07:10 across the end of DST (2023-10-29)', () => {
  // 05:10 UTC while on CEST, 06:10 UTC after the change
  const days = ['2023-10-25', '2023-10-26', '2023-10-27', '2023-10-28', '2023-10-29', '2023-10-30', '2023-10-31', '2023-11-01'];
  const legs = days.map((d) => (d < '2023-10-29' ? leg(`${d}T05:10`, `${d}T05:55`) : leg(`${d}T06:10`, `${d}T06:55`)));
  const slots = inferSlots('SWR300', legs, 'Europe/Zurich');
  assert.equal(slots.length, 1);
  assert.equal(hhmm(slots[0]!.at), '07:10');
  assert.equal(hhmm(slots[0]!.other!), '07:55');
  assert.equal(slots[0]!.flights, 8);
  // the same legs read in UTC would be an hour apart: the local view is what keeps them together
  assert.notEqual(hhmm((legs[0]!.at / 60) % 1440), hhmm((legs[7]!.at / 60) % 1440));
});

test('a shuttle callsign using the airport twice a day gets two slots', () => {
  const days = ['2024-05-06', '2024-05-07', '2024-05-08'];
  const legs = days.flatMap((d) => [leg(`${d}T06:00`), leg(`${d}T14:30`)]);
  const slots = inferSlots('SWR1', legs, 'Europe/Zurich');
  assert.deepEqual(slots.map((s) => hhmm(s.at)).sort(), ['08:00', '16:30']);
});

test('a callsign heard on only one day is no typical departure', () => {
  assert.deepEqual(inferSlots('SWR2', [leg('2024-05-06T06:00'), leg('2024-05-06T06:10')], 'Europe/Zurich'), []);
});

test('a callsign at scattered times has no slot (each hour holds one use on one day)', () => {
  const legs = Array.from({ length: 10 }, (_, i) => leg(`2024-05-${String(10 + i).padStart(2, '0')}T${String(2 * i).padStart(2, '0')}:00`));
  assert.deepEqual(inferSlots('HBXYZ', legs, 'Europe/Zurich'), []);
});

test('a slot needs a fifth of the uses: 2 of 11 uses on 2 days is not enough', () => {
  const legs = [
    leg('2024-05-01T06:00'),
    leg('2024-05-02T06:00'),
    ...Array.from({ length: 9 }, (_, i) => leg(`2024-05-1${i}T${String(8 + i).padStart(2, '0')}:40`)),
  ];
  assert.equal(BOARD_RULES.minShare, 0.2);
  assert.deepEqual(inferSlots('SWR9', legs, 'Europe/Zurich'), []);
});

test('an unknown time zone is refused loudly, not read as UTC', () => {
  assert.throws(() => inferSlots('SWR1', [leg('2024-05-01T06:00'), leg('2024-05-02T06:00')], 'Mars/Olympus'), RangeError);
});

test('circularMedian depends on the minutes, not their order (DuckDB lists have none)', () => {
  // seeded lists of an even count (the median of two middle minutes), spread over a few hours
  // around a random time of day, each asked in several seeded orders
  const rnd = mulberry32(20261126);
  let lists = 0;
  for (let k = 0; k < 400; k++) {
    const around = Math.floor(rnd() * 1440);
    const n = 2 * (2 + Math.floor(rnd() * 20));
    const minutes = Array.from({ length: n }, () => (around + Math.floor(rnd() * 241) - 120 + 1440) % 1440);
    const want = circularMedian(minutes);
    for (let p = 0; p < 6; p++) {
      const shuffled = minutes
        .map((m) => [rnd(), m] as const)
        .sort((a, b) => a[0] - b[0])
        .map(([, m]) => m);
      assert.equal(circularMedian(shuffled), want, `${JSON.stringify(minutes)} in another order`);
    }
    lists++;
  }
  assert.equal(lists, 400);
  // the middle of two minutes is exact: 23:59 and 00:00 give 23:59.5, rounded up to midnight
  assert.equal(circularMedian([0, 1439]), 0);
  assert.equal(circularMedian([1439, 0]), 0);
});
