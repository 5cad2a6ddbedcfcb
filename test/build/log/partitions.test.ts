import assert from 'node:assert/strict';
import { NO_POSITIONS } from '../../helpers/leg-row.ts';
import { describe, it } from 'node:test';
import { Partitions, legDay } from '../../../build/log/partitions.ts';
import type { LegRow } from '../../../build/log/legs.ts';

process.env.TZ = 'UTC';

const at = (iso: string) => Date.parse(iso) / 1000;
const leg = (hex: string, first: string, last: string): LegRow => ({
  hex,
  callsign: null,
  reg: null,
  type: null,
  first_ts: at(first),
  last_ts: at(last),
  dep_ts: null,
  arr_ts: null,
  org: null,
  dst: null,
  open: false,
  dep_runway: null,
  arr_runway: null,
  ...NO_POSITIONS,
});

describe('flight-log partitions: a leg lives in the UTC day of its first point', () => {
  it('dates a leg by its first point, to the second, whatever the local zone', () => {
    assert.equal(legDay(leg('a', '2025-02-04T23:59:59Z', '2025-02-05T02:00:00Z')), '2025-02-04');
    assert.equal(legDay(leg('a', '2025-02-05T00:00:00Z', '2025-02-05T02:00:00Z')), '2025-02-05');
  });

  it('holds a day back while a leg that started on it is still open, then hands it over whole', () => {
    const p = new Partitions();
    p.readDay('2025-02-04');
    p.add([leg('a', '2025-02-04T08:00:00Z', '2025-02-04T10:00:00Z')]);
    const stillFlying = leg('b', '2025-02-04T22:00:00Z', '2025-02-04T23:59:00Z');
    assert.deepEqual(p.take('2025-02-04', [stillFlying]), [], 'b may still add to the 4th');
    p.readDay('2025-02-05');
    p.add([{ ...stillFlying, last_ts: at('2025-02-05T01:00:00Z') }, leg('c', '2025-02-05T09:00:00Z', '2025-02-05T10:00:00Z')]);
    const out = p.take('2025-02-05', []);
    assert.deepEqual(
      out.map((x) => [x.day, x.rows.map((r) => r.hex), x.whole]),
      [
        ['2025-02-04', ['a', 'b'], true],
        ['2025-02-05', ['c'], true],
      ],
    );
  });

  it('writes a day the run read even with no leg, and merges (not replaces) a day it did not read', () => {
    const p = new Partitions();
    p.readDay('2025-02-05');
    p.add([leg('b', '2025-02-04T22:00:00Z', '2025-02-05T01:00:00Z')]); // carried in from an earlier build
    const out = p.take(null);
    assert.deepEqual(
      out.map((x) => [x.day, x.rows.length, x.whole]),
      [
        ['2025-02-04', 1, false],
        ['2025-02-05', 0, true],
      ],
    );
    assert.deepEqual(p.take(null), [], 'each partition is handed over once');
  });

  it('a leg open for days holds back only the day it started on; days not yet read stay pending', () => {
    const p = new Partitions();
    for (const d of ['2025-02-03', '2025-02-04', '2025-02-05']) p.readDay(d);
    const long = leg('z', '2025-02-03T20:00:00Z', '2025-02-05T23:00:00Z');
    assert.deepEqual(
      p.take('2025-02-04', [long]).map((x) => x.day),
      ['2025-02-04'],
    );
    assert.deepEqual(
      p.take('2025-02-05', []).map((x) => x.day),
      ['2025-02-03', '2025-02-05'],
    );
  });
});
