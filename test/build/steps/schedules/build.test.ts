// a schedule document is written as text (artifacts/refdata-doc.ts scheduleJson): its weekdays and times
// come from DuckDB as JSON text and are spliced in, not parsed and written again. The text must be
// exactly JSON.stringify of the document scheduleDoc makes (an unchanged schedule keeps its sha256
// and stays a hard link night after night), and DuckDB's to_json of the sorted times must be what
// JSON.stringify writes for them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DuckDBInstance } from '@duckdb/node-api';
import { scheduleDoc, scheduleJson, type ScheduleCounts } from '../../../../artifacts/refdata-doc.ts';
import type { AirlineRef, AirportRef } from '../../../../artifacts/reference-view.ts';
import { mulberry32 } from '../../../../lib/random.ts';
import { scheduleRowsSql } from '../../../../build/steps/schedules/build.ts';

const airport = (iata: string, tz: string | undefined): AirportRef =>
  ({
    iata,
    ident: `X${iata}`,
    icao: null,
    name: `Airport "${iata}"`,
    kind: 'large_airport',
    lat: 47,
    lon: 8,
    iso_country: 'CH',
    iso_region: 'CH-ZH',
    municipality: 'Zürich',
    elevation_ft: 1417,
    tz,
    scheduled_service: true,
  }) as AirportRef;
const ref = {
  airline: (icao: string): AirlineRef | null =>
    icao === 'SWR' ? ({ icao, iata: 'LX', name: 'Swiss "International"', country: 'CH', telephony: 'SWISS' } as AirlineRef) : null,
  flightNumber: (callsign: string) => (callsign.startsWith('SWR') ? `LX${callsign.slice(3)}` : null),
};
const hhmm = (slot: number) => `${String(Math.floor(slot / 12)).padStart(2, '0')}:${String((slot % 12) * 5).padStart(2, '0')}`;

/** seeded counts of one route: distinct slots, callsigns with ties in flights */
function counts(random: () => number): ScheduleCounts {
  const slots = [...new Set(Array.from({ length: 1 + Math.floor(random() * 30) }, () => Math.floor(random() * 288)))].map((v) => ({
    dep: hhmm(v),
    flights: 1 + Math.floor(random() * 400),
  }));
  const callsigns = Array.from({ length: 1 + Math.floor(random() * 6) }, (_, i) => ({
    callsign: `${random() < 0.5 ? 'SWR' : 'EZY'}${100 + i}`,
    flights: 1 + Math.floor(random() * 3),
    dep: slots[0]!.dep,
  }));
  const weekdays = Array.from({ length: 7 }, () => Math.floor(random() * 60));
  return { departures: weekdays.reduce((a, b) => a + b, 0), days: 1 + Math.floor(random() * 365), weekdays, slots, callsigns };
}
const sortedTimes = (c: ScheduleCounts) => [...c.slots].sort((a, b) => (a.dep < b.dep ? -1 : a.dep > b.dep ? 1 : 0));

test('scheduleJson is JSON.stringify of scheduleDoc, byte for byte (500 seeded routes, a known and an unknown airline, a zone and none)', () => {
  const random = mulberry32(14);
  for (let i = 0; i < 500; i++) {
    const c = counts(random);
    const [icao, org, dst] = [i % 2 ? 'SWR' : 'XXX', airport('ZRH', i % 3 ? 'Europe/Zurich' : undefined), airport('LHR', 'Europe/London')];
    const text = scheduleJson(
      icao,
      org,
      dst,
      { departures: c.departures, days: c.days, weekdays: JSON.stringify(c.weekdays), times: JSON.stringify(sortedTimes(c)), callsigns: c.callsigns },
      ref,
      365,
    );
    assert.equal(text, JSON.stringify(scheduleDoc(icao, org, dst, c, ref, 365)), `route ${i}`);
  }
});

test("DuckDB's to_json of the sorted times and of the weekdays is the text JSON.stringify writes", async () => {
  const db = await (await DuckDBInstance.create(':memory:')).connect();
  const random = mulberry32(27);
  for (let i = 0; i < 20; i++) {
    const c = counts(random);
    const rows = c.slots.map((s) => `(${Number(s.dep.slice(0, 2)) * 12 + Number(s.dep.slice(3)) / 5}, ${s.flights})`).join(', ');
    const reader = await db.runAndReadAll(`
      SELECT to_json(list_sort(list({dep: lpad((v // 12)::VARCHAR, 2, '0') || ':' || lpad((v % 12 * 5)::VARCHAR, 2, '0'), flights: n})))::VARCHAR AS times,
        to_json([${c.weekdays.join(', ')}]::INTEGER[])::VARCHAR AS weekdays
      FROM (VALUES ${rows}) t(v, n)`);
    const [row] = reader.getRowObjects();
    assert.equal(row!.times, JSON.stringify(sortedTimes(c)), `times ${i}`);
    assert.equal(row!.weekdays, JSON.stringify(c.weekdays), `weekdays ${i}`);
  }
});

test("the schedules step's rows: a route's times summed over its callsigns and sorted by HH:MM, as JSON text", async () => {
  const db = await (await DuckDBInstance.create(':memory:')).connect();
  await db.run(`CREATE TABLE sc_routes AS SELECT 'SWR' AS icao, 'ZRH' AS org, 'LHR' AS dst, [1, 0, 0, 0, 0, 1, 2]::INTEGER[] AS weekdays,
    [{d: 20000, n: 2}, {d: 20001, n: 2}]::STRUCT(d INTEGER, n INTEGER)[] AS dates`);
  // two callsigns whose slots interleave and meet at 04:10 (slot 50)
  await db.run(`CREATE TABLE sc_keys AS SELECT * FROM (VALUES
    ('SWR', 'ZRH', 'LHR', 'SWR100', [{v: 200, n: 1}, {v: 50, n: 1}]::STRUCT(v SMALLINT, n INTEGER)[], 2, 50::SMALLINT),
    ('SWR', 'ZRH', 'LHR', 'SWR102', [{v: 100, n: 1}, {v: 50, n: 1}]::STRUCT(v SMALLINT, n INTEGER)[], 2, 50::SMALLINT)
  ) t(icao, org, dst, callsign, slots, flights, dep)`);
  const [row] = (await db.runAndReadAll(scheduleRowsSql(false))).getRowObjects();
  assert.equal(
    row!.times,
    JSON.stringify([
      { dep: '04:10', flights: 2 },
      { dep: '08:20', flights: 1 },
      { dep: '16:40', flights: 1 },
    ]),
  );
  assert.equal(row!.weekdays, '[1,0,0,0,0,1,2]');
  assert.equal(row!.departures, 4);
  assert.equal(row!.days, 2);
});
