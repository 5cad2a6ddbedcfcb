// published timetables: the documented format, and malformed files refused with a reason
process.env.TZ = 'UTC';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { localDayAt, parseTimetable, todayOf } from '../../artifacts/timetable-file.ts';

const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'timetables');
const example = () => readFileSync(join(FIXTURES, 'ZRH', '2024-05-10.json'), 'utf8');
const expect = { airport: 'ZRH', day: '2024-05-10' };
const edit = (f: (d: Record<string, any>) => void) => {
  const d = JSON.parse(example());
  f(d);
  return JSON.stringify(d);
};

test('the example timetable parses and becomes a sorted today with nulls for what it does not give', () => {
  const r = parseTimetable(example(), expect);
  assert.equal(r.error, undefined);
  const today = todayOf(r.timetable!);
  assert.equal(today.source, 'example: hand-made test timetable (not a real publication)');
  assert.deepEqual(today.departures[1], { flight: 'LX1612', dst: 'GVA', dep: '09:15', callsign: null, type: null });
  assert.deepEqual(
    today.departures.map((d) => d.dep),
    ['07:00', '09:15'],
  );
});

const malformed: [string, string, RegExp][] = [
  ['truncated JSON', example().slice(0, 40), /not JSON/],
  ['an array', '[]', /does not match/],
  ['a missing source', edit((d) => delete d.source), /does not match.*source/],
  ['an empty source', edit((d) => (d.source = '')), /does not match/],
  ['a time of 24:00', edit((d) => (d.departures[0].dep = '24:00')), /does not match.*dep/],
  ['a time without leading zero', edit((d) => (d.departures[0].dep = '7:00')), /does not match/],
  ['a lower-case IATA code', edit((d) => (d.departures[0].dst = 'lhr')), /does not match/],
  ['an unknown field', edit((d) => (d.departures[0].gate = 'A12')), /does not match/],
  ['another airport than its folder', edit((d) => (d.airport = 'GVA')), /airport GVA does not match its folder ZRH/],
  ['another day than its file name', edit((d) => (d.day = '2024-05-11')), /day 2024-05-11 does not match/],
];
for (const [what, text, why] of malformed) {
  test(`a timetable with ${what} is rejected with a reason`, () => {
    const r = parseTimetable(text, expect);
    assert.equal(r.timetable, undefined);
    assert.match(r.error!, why);
  });
}

test('a day that is no calendar date is rejected', () => {
  const r = parseTimetable(
    edit((d) => (d.day = '2024-02-30')),
    { airport: 'ZRH', day: '2024-02-30' },
  );
  assert.match(r.error!, /not a calendar date/);
});

test("the timetable read is the airport's local day at the build clock, not the UTC day", () => {
  const now = Date.parse('2024-05-09T23:30:00Z'); // 01:30 on the 10th in Zurich
  assert.equal(localDayAt(now, 'Europe/Zurich'), '2024-05-10');
  assert.equal(localDayAt(now, 'America/New_York'), '2024-05-09');
  assert.equal(localDayAt(now, 'Pacific/Kiritimati'), '2024-05-10');
});
