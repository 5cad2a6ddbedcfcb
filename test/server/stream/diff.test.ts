// the per-cell diff: entered, changed, unchanged, moved, lost its position, left; and the invariant
// that a holder of the previous cell contents who applies the diff holds the new contents exactly
// (seeded brute force over random snapshots, every cell of both grids and the sky).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mulberry32 } from '../../../lib/random.ts';
import type { AircraftRecord } from '../../../server/feed/record.ts';
import { PreparedSnapshot } from '../../../server/live/snapshot.ts';
import { SKY, cellName, cellOf } from '../../../server/stream/cells.ts';
import { IndexedSnapshot, diffSnapshots, type SnapshotDiff } from '../../../server/stream/diff.ts';

const T0 = 1_795_312_400;
const snap = (now: number, aircraft: AircraftRecord[]) => new IndexedSnapshot(PreparedSnapshot.of({ now, aircraft }, { eagerGzip: false }));
const named = (d: SnapshotDiff, cur: IndexedSnapshot) =>
  Object.fromEntries([...d].map(([c, ch]) => [cellName(c), { upsert: ch.upsert.map((i) => cur.view.hexOf(i)).sort(), gone: [...ch.gone].sort() }]));

test('entered, changed, unchanged and left, per cell and in the sky', () => {
  const prev = snap(T0, [
    { hex: 'aaaaaa', lat: 47.5, lon: 8.5, alt_baro: 3000 }, // will change altitude
    { hex: 'bbbbbb', lat: 47.6, lon: 8.6, alt_baro: 'ground' }, // unchanged
    { hex: 'cccccc', lat: 47.7, lon: 8.7, alt_baro: 9000 }, // will leave the snapshot
  ]);
  const cur = snap(T0 + 1, [
    { hex: 'aaaaaa', lat: 47.5, lon: 8.5, alt_baro: 3100 },
    { hex: 'bbbbbb', lat: 47.6, lon: 8.6, alt_baro: 'ground' },
    { hex: 'dddddd', lat: 47.8, lon: 8.8 }, // entered
  ]);
  assert.deepEqual(named(diffSnapshots(prev, cur), cur), {
    sky: { upsert: ['aaaaaa', 'dddddd'], gone: ['cccccc'] },
    '2/8/46': { upsert: ['aaaaaa', 'dddddd'], gone: ['cccccc'] },
    '10/0/40': { upsert: ['aaaaaa', 'dddddd'], gone: ['cccccc'] },
  });
  assert.equal(diffSnapshots(cur, cur).size, 0, 'a snapshot against itself changes nothing');
});

test('an aircraft moving to the next cell is gone from the old one and upserted in the new; losing its position leaves every cell but the sky', () => {
  const prev = snap(T0, [
    { hex: 'aaaaaa', lat: 47.9, lon: 9.99 },
    { hex: 'bbbbbb', lat: 47.5, lon: 8.5, gs: 200 },
  ]);
  const cur = snap(T0 + 1, [
    { hex: 'aaaaaa', lat: 47.9, lon: 10.01 }, // 2/8/46 -> 2/10/46, and 10/0/40 -> 10/10/40
    { hex: 'bbbbbb', gs: 200 }, // no position any more
  ]);
  assert.deepEqual(named(diffSnapshots(prev, cur), cur), {
    sky: { upsert: ['aaaaaa', 'bbbbbb'], gone: [] },
    '2/8/46': { upsert: [], gone: ['aaaaaa', 'bbbbbb'] },
    '2/10/46': { upsert: ['aaaaaa'], gone: [] },
    '10/0/40': { upsert: [], gone: ['aaaaaa', 'bbbbbb'] },
    '10/10/40': { upsert: ['aaaaaa'], gone: [] },
  });
});

test('a repeated hex keeps its first record only, so it is never both kept and gone', () => {
  const prev = snap(T0, [{ hex: 'aaaaaa', lat: 10, lon: 10 }]);
  const cur = snap(T0 + 1, [
    { hex: 'aaaaaa', lat: 10, lon: 10 },
    { hex: 'aaaaaa', lat: 60, lon: 60 },
  ]);
  assert.equal(diffSnapshots(prev, cur).size, 0);
  assert.deepEqual([...cur.membersOf(SKY)], [0]);
});

function randomSky(seed: number, prev: AircraftRecord[] | null, n: number): AircraftRecord[] {
  const r = mulberry32(seed);
  const out: AircraftRecord[] = [];
  // most aircraft carry on (some moving a little, some far, some losing their position), some leave, some arrive
  for (const a of prev ?? []) {
    const roll = r();
    if (roll < 0.1) continue;
    if (roll < 0.15) out.push({ hex: a.hex, alt_baro: 1000 });
    else if (roll < 0.5) out.push(a);
    else if (roll < 0.9 && a.lat !== undefined)
      out.push({ ...a, lat: Math.max(-90, Math.min(90, a.lat + (r() - 0.5) * 3)), lon: ((a.lon! + (r() - 0.5) * 3 + 540) % 360) - 180 });
    else out.push({ hex: a.hex, lat: r() * 180 - 90, lon: r() * 360 - 180, gs: Math.round(r() * 500) });
  }
  for (let k = 0; k < n; k++) {
    const hex = Math.floor(r() * 0xffffff)
      .toString(16)
      .padStart(6, '0');
    if (out.some((a) => a.hex === hex)) continue;
    // clustered, like real traffic: half of it in one 20-degree region
    const lat = r() < 0.5 ? 40 + r() * 20 : r() * 180 - 90;
    const lon = r() < 0.5 ? r() * 20 : r() * 360 - 180;
    out.push(r() < 0.1 ? { hex } : { hex, lat, lon, alt_baro: Math.round(r() * 40000) });
  }
  return out;
}

test('applying the diff to the previous cell contents gives the new contents, in every cell (seeded, 30 rounds)', () => {
  let records = randomSky(1, null, 400);
  let prev = snap(T0, records);
  for (let round = 1; round <= 30; round++) {
    records = randomSky(round + 1, records, 40);
    const cur = snap(T0 + round, records);
    const d = diffSnapshots(prev, cur);
    const cells = new Set<number>([SKY]);
    for (const a of records) if (a.lat !== undefined) for (const l of [0, 1]) cells.add(cellOf(l, a.lat, a.lon!));
    for (let i = 0; i < prev.view.total; i++)
      if (Number.isFinite(prev.view.latOf(i))) for (const l of [0, 1]) cells.add(cellOf(l, prev.view.latOf(i), prev.view.lonOf(i)));
    for (const c of cells) {
      // the holder's view of the cell: hex -> record JSON
      const held = new Map(prev.membersOf(c).map((i) => [prev.view.hexOf(i), prev.view.record(i).toString()]));
      const change = d.get(c);
      for (const h of change?.gone ?? []) assert.ok(held.delete(h), `round ${round} ${cellName(c)}: ${h} gone but not held`);
      for (const i of change?.upsert ?? []) held.set(cur.view.hexOf(i), cur.view.record(i).toString());
      const want = new Map(cur.membersOf(c).map((i) => [cur.view.hexOf(i), cur.view.record(i).toString()]));
      assert.deepEqual(held, want, `round ${round} cell ${cellName(c)}`);
      // nothing is sent that did not change
      for (const i of change?.upsert ?? []) {
        const p = prev.byHex.get(cur.view.hexOf(i));
        const wasHere = p !== undefined && prev.membersOf(c).includes(p);
        assert.ok(!wasHere || !prev.view.record(p).equals(cur.view.record(i)), `round ${round} ${cellName(c)}: unchanged ${cur.view.hexOf(i)} upserted`);
      }
    }
    prev = cur;
  }
});
