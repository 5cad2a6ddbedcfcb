import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { listLogDays, openLog } from '../../build/log/read.ts';
import { dayFile, pointsFile } from '../../build/log/write.ts';
import { writeFastLog } from '../../sim/log.ts';
import { assertValid } from '../../schemas/index.ts';
import { testWorld } from './world.ts';

process.env.TZ = 'UTC';
const dirs: string[] = [];
const tmp = () => {
  const d = mkdtempSync(join(tmpdir(), 'contrail-sim-log-test-'));
  dirs.push(d);
  return d;
};
after(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

const opts = (out: string) => ({ out, seed: 5, start: '2025-03-01', days: 3, legsPerDay: 4000, airframes: 3000, threads: 1 });

describe('sim flight-log fast path', () => {
  it('writes one legs.parquet per day that the log reader opens, every row valid against flight-log.schema.json', async () => {
    const out = tmp();
    const r = await writeFastLog(testWorld(), opts(out));
    assert.deepEqual(listLogDays(out), ['2025-03-01', '2025-03-02', '2025-03-03']);
    assert.ok(r.legs >= 3 * 4000 * 0.9 && r.legs <= 3 * 4000, `${r.legs} legs`);
    const l = await openLog(out, { threads: 1 });
    try {
      const rows = await l.rows('SELECT * EXCLUDE (day) FROM legs');
      assert.equal(rows.length, r.legs);
      for (const row of rows) assertValid('flight-log', row);
      // physical: a leg lands after it took off, inside its day, and an airframe never flies two legs at once
      const [bad] = await l.rows(`SELECT
          count(*) FILTER (WHERE first_ts > last_ts OR dep_ts >= arr_ts OR last_ts >= epoch(day) + 86400 OR first_ts < epoch(day)) AS bad_time,
          count(*) FILTER (WHERE org IS NOT NULL AND org = dst) AS circuits
        FROM legs`);
      assert.deepEqual(bad, { bad_time: 0, circuits: 0 });
      const [overlap] = await l.rows(`SELECT count(*) AS n FROM (
          SELECT first_ts, lag(last_ts) OVER (PARTITION BY hex ORDER BY first_ts) AS prev FROM legs) WHERE first_ts <= prev`);
      assert.equal(overlap!.n, 0);
      const [share] = await l.rows('SELECT avg((org IS NULL)::INT) AS no_org, count(DISTINCT hex) AS tails FROM legs');
      assert.ok((share!.no_org as number) > 0.02 && (share!.no_org as number) < 0.12, 'a few ends go unheard');
      assert.ok((share!.tails as number) > 2000, '(share!.tails as number) > 2000');
    } finally {
      l.close();
    }
  });

  it('writes the same rows for the same seed', async () => {
    const a = tmp();
    const b = tmp();
    // legs only: the legs file is the same bytes with or without tracks (the tracks test below), and
    // the tracks were most of this test's time; the full 4,000 legs so every slot's hash is drawn
    await writeFastLog(testWorld(), { ...opts(a), days: 1, tracks: false });
    await writeFastLog(testWorld(), { ...opts(b), days: 1, tracks: false });
    const read = async (dir: string) => {
      const l = await openLog(dir, { threads: 1 });
      try {
        return await l.rows('SELECT * FROM legs ORDER BY hex, first_ts');
      } finally {
        l.close();
      }
    };
    assert.deepEqual(await read(a), await read(b));
    assert.ok(readFileSync(dayFile(a, '2025-03-01')).length > 1000, "readFileSync(dayFile(a, '2025-03-01')).length > 1000");
  });

  it('writes days from 2026-02-22 on (day 20506, where its airframe formula overflowed INT32), each one whole', async () => {
    const out = tmp();
    const o = { ...opts(out), start: '2026-02-21', days: 3, legsPerDay: 400 };
    await writeFastLog(testWorld(), o);
    assert.deepEqual(listLogDays(out), ['2026-02-21', '2026-02-22', '2026-02-23']);
    assert.deepEqual(readdirSync(join(out, 'day=2026-02-22')).sort(), ['legs.parquet', 'points.parquet'], 'the day written whole, no temporary file left');
    const l = await openLog(out, { threads: 1 });
    try {
      const rows = await l.rows(`SELECT day::VARCHAR AS day, count(*) AS legs, count(DISTINCT hex) AS tails FROM legs GROUP BY day ORDER BY day`);
      for (const r of rows)
        assert.ok(
          (r.legs as number) > 300 && r.tails === o.legsPerDay / 2,
          `${r.day as string}: ${r.legs as number} legs of ${r.tails as number} airframes, one per slot`,
        );
    } finally {
      l.close();
    }
  });

  it('writes each leg its thinned track in points.parquet, and the same legs.parquet bytes as without tracks', async () => {
    const [a, b] = [tmp(), tmp()];
    const o = { ...opts(a), days: 1, legsPerDay: 400, airframes: 300 };
    const r = await writeFastLog(testWorld(), o);
    const bare = await writeFastLog(testWorld(), { ...o, out: b, tracks: false });
    assert.ok(readFileSync(dayFile(a, '2025-03-01')).equals(readFileSync(dayFile(b, '2025-03-01'))), 'legs.parquet byte for byte as before tracks');
    assert.deepEqual(readdirSync(join(b, 'day=2025-03-01')), ['legs.parquet'], 'no points.parquet with tracks off');
    assert.equal(bare.points, 0);
    assert.ok(readFileSync(pointsFile(a, '2025-03-01')).length > 1000, 'the day has a points file with tracks in it');
    const l = await openLog(a, { threads: 1 });
    try {
      const [n] = await l.rows('SELECT count(*) AS points FROM points');
      assert.equal(n!.points, r.points);
      // every leg whose ends are both heard at a placed airport has a track (the world's airports
      // without a reference point leave their legs' ends unplaced: no path to fly), inside its time
      // span; a heard take-off's track starts on the ground, an unheard one's above 5,000 ft
      const [k] = await l.rows(`SELECT count(*) AS legs,
          count(*) FILTER (WHERE p.n IS NULL AND l.dep_lat IS NOT NULL AND l.arr_lat IS NOT NULL) AS bare,
          count(*) FILTER (WHERE p.n IS NULL) > 0 AND count(*) FILTER (WHERE p.n IS NULL) < count(*) / 5 AS few_bare,
          count(*) FILTER (WHERE p.t0 < l.first_ts OR p.t1 > l.last_ts) AS outside,
          count(*) FILTER (WHERE l.dep_ts IS NOT NULL AND NOT p.ground0) AS dep_aloft,
          count(*) FILTER (WHERE l.dep_ts IS NULL AND (p.ground0 OR p.alt0 < 5000)) AS unheard_low
        FROM legs l LEFT JOIN (
          SELECT hex, first_ts, count(*) AS n, min(t) AS t0, max(t) AS t1, arg_min(ground, t) AS ground0, arg_min(alt_baro, t) AS alt0
          FROM points GROUP BY ALL) p USING (hex, first_ts)`);
      assert.deepEqual(k, { legs: r.legs, bare: 0, few_bare: true, outside: 0, dep_aloft: 0, unheard_low: 0 });
    } finally {
      l.close();
    }
  });
});
