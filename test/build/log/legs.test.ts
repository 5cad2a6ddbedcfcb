import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseTraceFull, type TracePoint } from '../../../lib/readsb-trace.ts';
import { DEFAULT_LEG_OPTIONS, airframeLegs, isOpen, majorityCallsign, type LegRow } from '../../../build/log/legs.ts';
import { ac671b, splitByDay, testLocate } from '../../helpers/history.ts';

process.env.TZ = 'UTC';

const FEB5 = Date.parse('2025-02-05T00:00:00Z') / 1000;
const FEB6 = FEB5 + 86400;
const iso = (t: number) => new Date(t * 1000).toISOString();

function wholeDay(): LegRow[] {
  const t = parseTraceFull(ac671b());
  // one window far from any midnight rule: the whole trace as a single day ending after it
  return airframeLegs({ hex: t.hex, reg: t.reg, type: t.type, carry: null, points: t.points, dayEnd: FEB6 + 86400 }, testLocate).rows;
}

describe('flight-log legs from the real Delta ac671b trace', () => {
  it('cuts four legs: from aloft into MSP, MSP out, into MSP, MSP to DEN, with KMSP/KDEN idents', () => {
    const rows = wholeDay();
    assert.deepEqual(
      rows.map((r) => [r.callsign, r.org, r.dst]),
      [
        ['DAL1812', null, 'KMSP'],
        ['DAL2418', 'KMSP', null],
        ['DAL1615', null, 'KMSP'],
        ['DAL2927', 'KMSP', 'KDEN'],
      ],
    );
    for (const r of rows) {
      assert.equal(r.hex, 'ac671b');
      assert.equal(r.reg, 'N899DN');
      assert.equal(r.type, 'B739');
      assert.ok(r.first_ts <= r.last_ts, 'r.first_ts <= r.last_ts');
      for (const k of ['first_ts', 'last_ts', 'dep_ts', 'arr_ts'] as const) if (r[k] !== null) assert.ok(Number.isInteger(r[k]), k);
    }
    const den = rows[3]!;
    // the heard ends' positions, the great-circle km MSP-DEN (about 1,090) or a little more as flown,
    // a jet's cruise, not a circuit; the track thinned (fewer points than heard), oldest first
    assert.ok(den.dep_lat !== null && Math.abs(den.dep_lat - 44.88) < 0.05 && Math.abs(den.dep_lon! + 93.22) < 0.05, `dep ${den.dep_lat},${den.dep_lon}`);
    assert.ok(den.arr_lat !== null && Math.abs(den.arr_lat - 39.86) < 0.05 && Math.abs(den.arr_lon! + 104.67) < 0.05, `arr ${den.arr_lat},${den.arr_lon}`);
    assert.ok(den.distance_km >= 1050 && den.distance_km < 1400, `distance_km ${den.distance_km}`);
    assert.ok(den.max_alt_ft! >= 25_000 && den.max_alt_ft! <= 45_000, `max_alt_ft ${den.max_alt_ft}`);
    assert.equal(den.circuit, false);
    assert.ok(den.track.length > 10, `track ${den.track.length}`);
    for (let i = 1; i < den.track.length; i++) assert.ok(den.track[i]![0] > den.track[i - 1]![0], 'track oldest first');
    assert.equal(den.track[0]![0], den.first_ts === Math.round(den.track[0]![0]) ? den.track[0]![0] : NaN);
    assert.ok(
      rows.every((r) => r.track.length > 0 && !r.circuit),
      'every leg has a track and none of these is a circuit',
    );
    assert.equal(iso(den.dep_ts!), '2025-02-05T18:14:36.000Z');
    assert.equal(iso(den.arr_ts!), '2025-02-05T19:54:30.000Z');
    assert.ok(den.first_ts <= den.dep_ts! && den.arr_ts! <= den.last_ts, 'den.first_ts <= den.dep_ts! && den.arr_ts! <= den.last_ts');
    // null dep/arr where the take-off or landing was not heard
    assert.equal(rows[0]!.dep_ts, null);
    assert.equal(rows[1]!.arr_ts, null);
  });

  it('holds a leg airborne at midnight back as the carry, then writes it once, whole, on the next day', () => {
    const parts = splitByDay(ac671b());
    assert.deepEqual([...parts.keys()], ['2025-02-04', '2025-02-05']);
    const d1 = parseTraceFull(parts.get('2025-02-04'));
    const d2 = parseTraceFull(parts.get('2025-02-05'));
    const first = airframeLegs({ hex: 'ac671b', reg: d1.reg, type: d1.type, carry: null, points: d1.points, dayEnd: FEB5 }, testLocate);
    assert.deepEqual(first.rows, [], 'nothing closes on 2025-02-04: DAL1812 is still in the air at midnight');
    assert.ok(first.carry, 'first.carry');
    assert.equal(first.carry.points.length, d1.points.length);

    const second = airframeLegs({ hex: 'ac671b', reg: d2.reg, type: d2.type, carry: first.carry, points: d2.points, dayEnd: FEB6 }, testLocate);
    assert.equal(second.carry, null, 'the day ends on the ground at DEN');
    // the two days together give exactly the legs of the unsplit trace: none lost, none twice
    assert.deepEqual(second.rows, wholeDay());
    const dal1812 = second.rows.filter((r) => r.callsign === 'DAL1812');
    assert.equal(dal1812.length, 1);
    assert.equal(iso(dal1812[0]!.first_ts), '2025-02-04T21:13:43.000Z');
    assert.equal(dal1812[0]!.dst, 'KMSP');
  });

  it('writes a carried leg the next day never continued, as it was', () => {
    const d1 = parseTraceFull(splitByDay(ac671b()).get('2025-02-04'));
    const first = airframeLegs({ hex: 'ac671b', reg: d1.reg, type: d1.type, carry: null, points: d1.points, dayEnd: FEB5 }, testLocate);
    const next = airframeLegs({ hex: 'ac671b', reg: null, type: null, carry: first.carry, points: [], dayEnd: FEB6 }, testLocate);
    assert.equal(next.carry, null);
    assert.equal(next.rows.length, 1);
    const { dep_lat, dep_lon, arr_lat, arr_lon, distance_km, max_alt_ft, circuit, track, ...row } = next.rows[0]!;
    // ends not heard: no positions, no circuit; flown and tracked all the same
    assert.deepEqual([dep_lat, dep_lon, arr_lat, arr_lon, circuit], [null, null, null, null, false]);
    assert.ok(distance_km > 100, `distance_km ${distance_km}`);
    assert.ok(max_alt_ft !== null && max_alt_ft > 10_000, `max_alt_ft ${max_alt_ft}`);
    assert.equal(track[0]![0], d1.points[0]!.t);
    assert.equal(track.at(-1)![0], d1.points.at(-1)!.t);
    assert.deepEqual(row, {
      hex: 'ac671b',
      callsign: 'DAL1812',
      reg: 'N899DN',
      type: 'B739',
      first_ts: Math.round(d1.points[0]!.t),
      last_ts: Math.round(d1.points.at(-1)!.t),
      dep_ts: null,
      arr_ts: null,
      org: null,
      dst: null,
      open: false,
      dep_runway: null,
      arr_runway: null,
    });
    // the open row the carry held is the same leg, marked open
    assert.deepEqual(first.carry!.row, { ...next.rows[0], open: true });
  });

  it('keeps points repeated across the midnight boundary once', () => {
    const parts = splitByDay(ac671b());
    const d1 = parseTraceFull(parts.get('2025-02-04'));
    const d2 = parseTraceFull(parts.get('2025-02-05'));
    const first = airframeLegs({ hex: 'ac671b', reg: d1.reg, type: d1.type, carry: null, points: d1.points, dayEnd: FEB5 }, testLocate);
    // the next day's file starts with the last 5 points of the day before
    const overlap = d1.points.slice(-5).concat(d2.points);
    const second = airframeLegs({ hex: 'ac671b', reg: d2.reg, type: d2.type, carry: first.carry, points: overlap, dayEnd: FEB6 }, testLocate);
    assert.deepEqual(second.rows, wholeDay());
  });
});

describe('open-at-midnight rule', () => {
  const pts = (ts: number[]): TracePoint[] => ts.map((t) => ({ t, lat: 45, lon: -93, alt: 30000, gs: 450 }));
  const cut = { start: 0, end: 1, departure: null, arrival: null };
  const carryS = DEFAULT_LEG_OPTIONS.carryS;

  it('is open only without a landing and with the last point within carryS of midnight', () => {
    assert.equal(isOpen(cut, pts([0, FEB5 - 60]), FEB5, carryS), true);
    assert.equal(isOpen(cut, pts([0, FEB5 - carryS]), FEB5, carryS), true);
    assert.equal(isOpen(cut, pts([0, FEB5 - carryS - 1]), FEB5, carryS), false);
    assert.equal(isOpen({ ...cut, arrival: { at: FEB5 - 60, lat: 45, lon: -93, index: 1 } }, pts([0, FEB5 - 60]), FEB5, carryS), false);
  });

  it('is never open when the points lie far past the midnight (a folder dated before its content)', () => {
    assert.equal(isOpen(cut, pts([0, FEB5 + 10 * 86400]), FEB5, carryS), false);
  });
});

describe('majorityCallsign', () => {
  const p = (callsign?: string): TracePoint => ({ t: 0, lat: 0, lon: 0, alt: 1000, ...(callsign === undefined ? {} : { callsign }) });

  it('takes the callsign on most points, trailing spaces stripped', () => {
    assert.equal(majorityCallsign([p('DAL1 '), p('DAL2'), p('DAL2   '), p()], 0, 3), 'DAL2');
  });

  it('is null when no point carries a callsign, and blank callsigns do not count', () => {
    assert.equal(majorityCallsign([p(), p('   '), p('')], 0, 2), null);
  });

  it('counts only the points inside the leg', () => {
    assert.equal(majorityCallsign([p('AAA'), p('AAA'), p('BBB')], 2, 2), 'BBB');
  });

  it('breaks a tie for the callsign that reached the count first', () => {
    assert.equal(majorityCallsign([p('AAA'), p('BBB'), p('BBB'), p('AAA')], 0, 3), 'BBB');
  });
});
