// day bits (build/steps/day-bits.ts): a key's distinct days as a ring of bits. each test
// checks the bits against the days themselves, counted by DuckDB or by hand: the count is the
// number of distinct days, a cleared day is gone and only it, the OR of keys is their union, and a
// state file's BLOB gives back the same bits.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { allRows } from '../../../build/steps/duck.ts';
import { bitsToBlob, blobToBits, clearMask, dayBitsAgg, dayRing } from '../../../build/steps/day-bits.ts';
import { isoDay, dayIndexOf } from '../../../lib/localtime.ts';
import { mulberry32 } from '../../../lib/random.ts';

process.env.TZ = 'UTC';

async function open(): Promise<DuckDBConnection> {
  return (await DuckDBInstance.create(':memory:')).connect();
}

/** a temp table d(k, day DATE) of these days per key */
async function loadDays(db: DuckDBConnection, rows: [string, string][]): Promise<void> {
  await db.run(`CREATE OR REPLACE TEMP TABLE d (k VARCHAR, day DATE)`);
  if (rows.length) await db.run(`INSERT INTO d VALUES ${rows.map(([k, day]) => `('${k}', DATE '${day}')`).join(', ')}`);
}

test('the ring is the window limit up to a multiple of 8 bits; a limit outside 1..3660 is refused', () => {
  assert.equal(dayRing(365), 368);
  assert.equal(dayRing(1), 8);
  assert.equal(dayRing(8), 8);
  assert.equal(dayRing(3660), 3664);
  for (const bad of [0, -1, 3661, 1.5, Number.NaN]) assert.throws(() => dayRing(bad), RangeError, `limit ${bad}`);
  assert.throws(() => clearMask([], 365), RangeError, 'a ring that is not a multiple of 8 is refused');
  assert.throws(() => dayBitsAgg('day', 0), RangeError, 'an empty ring is refused');
});

test('the bits set are the distinct days of a window as long as the ring, wherever it starts, before 1970 too', async () => {
  const db = await open();
  const ring = dayRing(365);
  for (const start of ['2025-03-14', '1969-12-01']) {
    const first = dayIndexOf(start);
    // every day of a 368-day window, some days twice: 368 distinct days, all on distinct bits
    const rows: [string, string][] = [];
    for (let i = 0; i < ring; i++) rows.push(['a', isoDay(first + i)]);
    rows.push(['a', isoDay(first + 5)], ['a', isoDay(first + ring - 1)]);
    await loadDays(db, rows);
    const [r] = await allRows<{ days: number; len: number }>(
      db,
      `SELECT bit_count(${dayBitsAgg('day', ring)})::INTEGER AS days, bit_length(${dayBitsAgg('day', ring)})::INTEGER AS len FROM d`,
    );
    assert.deepEqual(r, { days: ring, len: ring }, `a full window from ${start}`);
  }
  // day D and D + ring share a bit: the reason the ring is at least the window's length
  await loadDays(db, [
    ['a', '2025-01-01'],
    ['a', isoDay(dayIndexOf('2025-01-01') + ring)],
  ]);
  const [w] = await allRows<{ days: number }>(db, `SELECT bit_count(${dayBitsAgg('day', ring)})::INTEGER AS days FROM d`);
  assert.equal(w!.days, 1, 'two days a ring apart are one bit');
});

test('clearing days takes exactly their bits away; the OR of keys counts the union of their days', async () => {
  const db = await open();
  const ring = dayRing(365);
  const next = mulberry32(14);
  const first = dayIndexOf('2025-06-01');
  // three keys, seeded random days of one window
  const days = new Map<string, Set<number>>();
  const rows: [string, string][] = [];
  for (const k of ['a', 'b', 'c']) {
    const set = new Set<number>();
    for (let i = 0; i < 150; i++) set.add(first + Math.floor(next() * 365));
    days.set(k, set);
    for (const d of set) rows.push([k, isoDay(d)]);
  }
  await loadDays(db, rows);
  await db.run(`CREATE OR REPLACE TEMP TABLE b AS SELECT k, ${dayBitsAgg('day', ring)} AS bits FROM d GROUP BY k`);
  const union = new Set([...days.values()].flatMap((s) => [...s]));
  const [all] = await allRows<{ n: number }>(db, `SELECT bit_count(bit_or(bits))::INTEGER AS n FROM b`);
  assert.equal(all!.n, union.size, 'the OR of the keys is the union of their days');
  // clear two days of a's and one day no key has
  const aDays = [...days.get('a')!].sort((x, y) => x - y);
  const noOne = Array.from({ length: 365 }, (_, i) => first + i).find((d) => !union.has(d))!;
  const cleared = [aDays[0]!, aDays[aDays.length - 1]!, noOne];
  const mask = clearMask(cleared.map(isoDay), ring);
  const after = await allRows<{ k: string; n: number }>(db, `SELECT k, bit_count(bits & ${mask})::INTEGER AS n FROM b ORDER BY k`);
  for (const { k, n } of after) {
    const left = [...days.get(k)!].filter((d) => !cleared.includes(d));
    assert.equal(n, left.length, `key ${k}: its days but the cleared ones`);
  }
});

test("a state file's BLOB gives back the same bits", async () => {
  const db = await open();
  const next = mulberry32(3);
  for (const limit of [1, 30, 365, 3660]) {
    const ring = dayRing(limit);
    const rows: [string, string][] = [];
    for (let i = 0; i < 40; i++) rows.push(['a', isoDay(dayIndexOf('2024-02-01') + Math.floor(next() * limit))]);
    await loadDays(db, rows);
    const [r] = await allRows<{ same: boolean; len: number; n: number }>(
      db,
      `
      WITH x AS (SELECT ${dayBitsAgg('day', ring)} AS bits FROM d),
           y AS (SELECT ${blobToBits(bitsToBlob('bits'))} AS back, bits FROM x)
      SELECT back = bits AS same, bit_length(back)::INTEGER AS len, bit_count(back)::INTEGER AS n FROM y`,
    );
    assert.deepEqual(r, { same: true, len: ring, n: new Set(rows.map(([, d]) => d)).size }, `ring ${ring}`);
  }
});
