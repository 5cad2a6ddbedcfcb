// a day's track points read column by column (build/steps/flights/tracks.ts): each leg's points,
// oldest first, as the row-by-row reading gave them, across chunk boundaries (DuckDB hands over
// 2,048 rows at a time), for legs that share a hex or a first_ts, with ground and null values, and
// none of another day's points.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DuckDBInstance } from '@duckdb/node-api';
import { dayTracks, trackKey } from '../../../../build/steps/flights/tracks.ts';
import type { FlightPoint } from '../../../../artifacts/flights-doc.ts';
import { mulberry32 } from '../../../../lib/random.ts';

process.env.TZ = 'UTC';
const DAY = '2026-03-01';

test("a day's tracks by leg, oldest first, as the rows say: across chunks, shared hexes and first_ts, ground and nulls, no other day", async () => {
  const db = await (await DuckDBInstance.create(':memory:')).connect();
  await db.run(
    `CREATE TABLE points (hex VARCHAR, first_ts BIGINT, t DOUBLE, lat DOUBLE, lon DOUBLE, alt_baro INTEGER, ground BOOLEAN, track DOUBLE, day DATE)`,
  );
  const rand = mulberry32(44);
  const rows: string[] = [];
  const lit = (x: number | null) => (x === null ? 'NULL' : String(x));
  // 40 legs of 1-400 points over 8 hexes, first_ts shared across hexes; inserted out of order
  const legs = Array.from({ length: 40 }, (_, i) => ({ hex: `4b18${String(i % 8).padStart(2, '0')}`, first: 1772323200 + Math.floor(i / 8) * 3600 }));
  for (const { hex, first } of legs) {
    const n = 1 + Math.floor(rand() * 400);
    for (let k = 0; k < n; k++) {
      const ground = rand() < 0.1 ? (rand() < 0.5 ? null : true) : false;
      const alt = rand() < 0.1 ? null : Math.round(rand() * 40000);
      const track = rand() < 0.1 ? null : Math.round(rand() * 3600) / 10;
      rows.push(`('${hex}', ${first}, ${first + k * 4.5}, ${47 + rand()}, ${8 + rand()}, ${lit(alt)}, ${lit(ground as never)}, ${lit(track)}, DATE '${DAY}')`);
    }
  }
  // a point of the next day under a leg key of this one
  rows.push(`('${legs[0]!.hex}', ${legs[0]!.first}, ${legs[0]!.first + 86400}, 47, 8, 1000, false, 90, DATE '2026-03-02')`);
  for (let i = rows.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [rows[i], rows[j]] = [rows[j]!, rows[i]!];
  }
  await db.run(`INSERT INTO points VALUES ${rows.join(', ')}`);
  assert.ok(rows.length > 3 * 2048, `${rows.length} points: several chunks`);

  // the row-by-row reading the step did before
  const expected = new Map<string, FlightPoint[]>();
  const r = await db.runAndReadAll(
    `SELECT hex, first_ts, t, lat, lon, alt_baro, ground, track FROM points WHERE day = DATE '${DAY}' ORDER BY hex, first_ts, t`,
  );
  for (const p of r.getRowObjectsJS() as {
    hex: string;
    first_ts: bigint;
    t: number;
    lat: number;
    lon: number;
    alt_baro: number | null;
    ground: boolean | null;
    track: number | null;
  }[]) {
    const k = `${p.hex} ${Number(p.first_ts)}`;
    if (!expected.has(k)) expected.set(k, []);
    expected.get(k)!.push([p.t, p.lat, p.lon, p.ground ? 'ground' : p.alt_baro, p.track]);
  }
  const got = await dayTracks(db, DAY);
  assert.equal(got.size, 40);
  assert.deepEqual([...got.keys()].sort(), [...expected.keys()].sort());
  for (const [k, list] of expected) assert.deepEqual(got.get(k), list, k);
  assert.equal(got.get(trackKey(legs[0]!.hex, legs[0]!.first))!.at(-1)![0] < legs[0]!.first + 86400, true, "the next day's point is not read");
  assert.ok([...got.values()].flat().some((p) => p[3] === 'ground') && [...got.values()].flat().some((p) => p[3] === null), 'ground and null altitudes');
  assert.equal((await dayTracks(db, '2026-02-28')).size, 0, 'a day without points: no tracks');
  db.closeSync();
});
