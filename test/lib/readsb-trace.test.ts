import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseTraceFull, TraceFormatError, FLAG_NEW_LEG } from '../../lib/readsb-trace.ts';
import { ac671b, sampleTrace } from '../helpers/traffic.ts';

const row = (dt: number, extra: Partial<Record<number, unknown>> = {}) => {
  const r: unknown[] = [dt, 40.5, -119.2, 4500, 90.5, 270.1, 0, 0, null, 'adsb_icao', 4600, 0, 90, 0];
  for (const [k, v] of Object.entries(extra)) r[Number(k)] = v;
  return r;
};
const doc = (trace: unknown[], head: Record<string, unknown> = {}) => ({ icao: 'a3c78c', r: 'N3423Q', t: 'P28R', timestamp: 1693353600, trace, ...head });

test('a real trace_full: header fields, absolute times oldest first, nothing dropped', () => {
  const tr = sampleTrace('a3c78c');
  assert.equal(tr.hex, 'a3c78c');
  assert.equal(tr.reg, 'N3423Q');
  assert.equal(tr.type, 'P28R');
  assert.equal(tr.dropped, 0);
  assert.equal(tr.points.length, 464);
  // timestamp 1693353600 (2023-08-30T00:00Z) + the first row's 52085.xx s
  assert.equal(new Date(tr.points[0]!.t * 1000).toISOString().slice(0, 19), '2023-08-30T14:28:05');
  for (let i = 1; i < tr.points.length; i++) assert.ok(tr.points[i]!.t >= tr.points[i - 1]!.t, 'tr.points[i]!.t >= tr.points[i - 1]!.t');
  assert.ok(
    tr.points.some((p) => p.alt === 'ground') && tr.points.some((p) => typeof p.alt === 'number'),
    "tr.points.some((p) => p.alt === 'ground') && tr.points.some((p) => typeof p.alt === 'number')",
  );
});

test('ac671b: owner, build year as a number, callsigns from detail objects carried forward and reset at readsb new-leg flags', () => {
  const tr = ac671b();
  assert.equal(tr.ownOp, 'DELTA AIR LINES INC');
  assert.equal(tr.year, 2018);
  assert.equal(tr.desc, 'BOEING 737-900');
  const legStarts = tr.points.map((p, i) => (((p.flags ?? 0) & FLAG_NEW_LEG) !== 0 ? i : -1)).filter((i) => i >= 0);
  assert.equal(legStarts.length, 3);
  // the first detail object (row 3) names DAL1812; row 0 has none yet
  assert.equal(tr.points[0]!.callsign, undefined);
  assert.equal(tr.points[3]!.callsign, 'DAL1812');
  assert.equal(tr.points[legStarts[0]! - 1]!.callsign, 'DAL1812');
  const names = new Set(tr.points.map((p) => p.callsign).filter(Boolean));
  assert.deepEqual([...names].sort(), ['DAL1615', 'DAL1812', 'DAL2418', 'DAL2927']);
});

test('row values: ground stays "ground", null altitude stays null, gs/track null when absent, flags kept', () => {
  const tr = parseTraceFull(doc([row(0, { 3: 'ground', 4: null, 5: null, 6: 2 }), row(1, { 3: null }), row(2.456)]));
  assert.deepEqual(tr.points[0], { t: 1693353600, lat: 40.5, lon: -119.2, alt: 'ground', gs: null, track: null, flags: 2 });
  assert.equal(tr.points[1]!.alt, null);
  assert.equal(tr.points[2]!.t, 1693353602.46);
});

test('malformed rows are dropped and counted, the good ones kept', () => {
  const bad = [
    'not a row',
    [1, 2],
    row(1, { 0: 'soon' }),
    row(2, { 1: 91 }),
    row(3, { 2: -181 }),
    row(4, { 1: Number.NaN }),
    row(5, { 3: 'high' }),
    row(6, { 3: 1e9 }),
    null,
  ];
  const tr = parseTraceFull(doc([row(0), ...bad, row(10), row(9) /* out of order */, row(11)]));
  assert.equal(tr.dropped, bad.length + 1);
  assert.deepEqual(
    tr.points.map((p) => p.t - 1693353600),
    [0, 10, 11],
  );
});

test('header: missing strings are null, a year that is not a year is null, hex is lower-cased, ~ (non-ICAO) is kept', () => {
  const tr = parseTraceFull({ icao: '~A1B2C3', timestamp: 1, trace: [], r: '  ', year: '0000', desc: 7 });
  assert.deepEqual({ ...tr, points: tr.points.length }, { hex: '~a1b2c3', reg: null, type: null, desc: null, ownOp: null, year: null, points: 0, dropped: 0 });
});

test('a file that is not a trace_full is a TraceFormatError whose message names the problem', () => {
  const cases: [unknown, RegExp][] = [
    [null, /expected a JSON object/],
    [[1, 2], /expected a JSON object/],
    ['trace', /expected a JSON object/],
    [{ timestamp: 1, trace: [] }, /"icao" must be 6 hex digits, got undefined/],
    [{ icao: 'xyz123', timestamp: 1, trace: [] }, /"icao" must be 6 hex digits/],
    [{ icao: 'a3c78c', timestamp: '1693353600', trace: [] }, /a3c78c: "timestamp" must be unix seconds/],
    [{ icao: 'a3c78c', timestamp: -5, trace: [] }, /"timestamp" must be unix seconds/],
    [{ icao: 'a3c78c', timestamp: 1693353600, trace: {} }, /a3c78c: "trace" must be an array of rows/],
  ];
  for (const [input, msg] of cases) {
    assert.throws(
      () => parseTraceFull(input),
      (e: unknown) => e instanceof TraceFormatError && msg.test(e.message),
      JSON.stringify(input),
    );
  }
});
