// the links of issue 44 item 4 on a whole published tree (the nightly's pipeline, test/helpers/contract-tree.ts):
// an airframe's flights_url with a leg's flights_date names the flights document that holds that leg,
// also for a leg first heard before midnight that took off after it (its date is the next day); an
// airport's movements_url with a day names the movements document of that airport and day.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { currentVersion, readObject } from '../../artifacts/tree.ts';
import type { AirframeDoc } from '../../artifacts/airframe-doc.ts';
import type { AirportDoc } from '../../artifacts/airport-doc.ts';
import type { FlightsDoc } from '../../artifacts/flights-doc.ts';
import { makeContractTree } from '../helpers/contract-tree.ts';

process.env.TZ = 'UTC';

/** the object key of a URL path the tree serves (the tree's keys are the URL paths without the slash) */
const keyOf = (url: string) => url.replace(/^\//, '');

test("every listed leg is in the flights document its airframe's flights_url and its flights_date name; movements_url names the airport-day", async () => {
  const tree = await makeContractTree(3, 40);
  const v = currentVersion(tree.root)!;
  const hexes = readdirSync(join(v.dir, 'v1', 'airframes'))
    .map((n) => n.replace(/\.gz$/, ''))
    .filter((n) => /^[0-9a-f]{6}$/.test(n));
  assert.ok(hexes.length > 0, 'the tree has airframe documents');
  let legs = 0;
  for (const hex of hexes) {
    const doc = readObject(v.dir, `v1/airframes/${hex}`) as AirframeDoc;
    assert.equal(doc.flights_url, `/v1/flights/${hex}/{date}`);
    for (const leg of doc.legs ?? []) {
      assert.equal(leg.flights_date, new Date(leg.first_seen * 1000).toISOString().slice(0, 10), 'the UTC day of first_seen');
      const flights = readObject(v.dir, keyOf(doc.flights_url.replace('{date}', leg.flights_date))) as FlightsDoc | null;
      assert.ok(flights, `${hex} ${leg.flights_date} has a flights document`);
      assert.ok(
        flights.flights.some((f) => f.first_seen === leg.first_seen && f.last_seen === leg.last_seen),
        `${hex}: the leg first heard at ${leg.first_seen} is in its flights document`,
      );
      legs++;
    }
  }
  assert.ok(legs > 0, `legs checked (${legs})`);

  const zrh = readObject(v.dir, 'v1/airports/ZRH') as AirportDoc;
  assert.equal(zrh.movements_url, '/v1/airports/ZRH/movements/{date}');
  const days = readdirSync(join(v.dir, 'v1', 'airports', 'ZRH', 'movements')).map((n) => n.replace(/\.gz$/, ''));
  assert.ok(days.length > 0, 'ZRH has movements in the fixture');
  for (const d of days) assert.ok(readObject(v.dir, keyOf(zrh.movements_url.replace('{date}', d))), `${d} is at the URL the template names`);
});

test("a leg first heard before midnight and taken off after it: date is the take-off's day, flights_date the flights document's", async () => {
  // the fixture's first day gets one more leg, first heard at 23:58 and airborne at 00:04
  const tree = await makeContractTree(3, 40, {
    extra: (day) =>
      day === '2026-11-20'
        ? [
            {
              hex: '4b1a2b',
              callsign: 'SWR9',
              reg: null,
              type: 'A320',
              first_ts: Date.parse('2026-11-20T23:58:00Z') / 1000,
              last_ts: Date.parse('2026-11-21T01:30:00Z') / 1000,
              dep_ts: Date.parse('2026-11-21T00:04:00Z') / 1000,
              arr_ts: null,
              org: 'LSZH',
              dst: null,
              dep_lat: 47.458056,
              dep_lon: 8.548056,
              arr_lat: null,
              arr_lon: null,
              distance_km: 300,
              max_alt_ft: 36000,
              circuit: false,
              open: false,
              dep_runway: null,
              arr_runway: null,
              track: [],
            },
          ]
        : [],
  });
  const v = currentVersion(tree.root)!;
  const doc = readObject(v.dir, 'v1/airframes/4b1a2b') as AirframeDoc;
  const leg = doc.legs!.find((l) => l.first_seen === Date.parse('2026-11-20T23:58:00Z') / 1000)!;
  assert.ok(leg, 'the leg is listed');
  assert.deepEqual([leg.date, leg.flights_date], ['2026-11-21', '2026-11-20']);
  const flights = readObject(v.dir, keyOf(doc.flights_url.replace('{date}', leg.flights_date))) as FlightsDoc;
  assert.ok(
    flights.flights.some((f) => f.first_seen === leg.first_seen),
    'its flights document is the day it was first heard',
  );
});
