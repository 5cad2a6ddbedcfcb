// the researchers' flights and points tables as a researcher meets them (issue 44 item 6): DuckDB
// reads tables/{flights,points}/*/*.parquet with hive_partitioning, "all landings on runway X in
// month M" counts what the log holds, one flight's track is its points, every row is the flight
// the published /v1/flights document carries, and a second run of the same build rewrites nothing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { writeBundles } from '../../../build/bundle/bundle.ts';
import { localFile, readIndex } from '../../../build/bundle/index-file.ts';
import { FLIGHT_COLUMNS, POINT_COLUMNS_TEXT } from '../../../build/bundle/flight-columns.ts';
import { openLog } from '../../../build/log/read.ts';
import { pointsFile } from '../../../build/log/write.ts';
import { currentVersion, readObject } from '../../../artifacts/tree.ts';
import { keys } from '../../../artifacts/keys.ts';
import { refViewOf } from '../../../artifacts/reference-view-adapter.ts';
import { testRefdata } from '../../helpers/artifact-ctx.ts';
import type { FlightsDoc } from '../../../artifacts/flights-doc.ts';
import { FIXTURE_RUNWAYS, makeContractTree } from '../../helpers/contract-tree.ts';

process.env.TZ = 'UTC';
// two days in two months, so that a month's filter has something to leave out
const DAYS = ['2026-10-31', '2026-11-01'];

async function query(sql: string): Promise<Record<string, unknown>[]> {
  const inst = await DuckDBInstance.create(':memory:');
  const db = await inst.connect();
  const rows = (await db.runAndReadAll(sql)).getRowObjectsJson() as Record<string, unknown>[];
  db.closeSync();
  inst.closeSync();
  return rows;
}

async function logLegs(log: string): Promise<Record<string, unknown>[]> {
  const db = await openLog(log, { threads: 1 });
  try {
    return await db.rows('SELECT day::VARCHAR AS day, hex, first_ts, dst, arr_runway FROM legs ORDER BY day, hex, first_ts');
  } finally {
    db.close();
  }
}

test("flights and points: DuckDB answers landings on a runway in a month and one flight's track, as the log and the documents say", async () => {
  const tree = await makeContractTree(5, 40, { days: DAYS, runways: true });
  const index = readIndex(tree.bundles)!;
  assert.ok(index, 'the bundle index is there and valid');
  assert.deepEqual(
    index.flights.map((e) => [e.day, e.path]),
    DAYS.map((d) => [d, `/v1/bundles/tables/flights/date=${d}/flights.parquet`]),
  );
  assert.deepEqual(
    index.points.map((e) => [e.day, e.path]),
    DAYS.map((d) => [d, `/v1/bundles/tables/points/date=${d}/points.parquet`]),
  );
  const legs = await logLegs(tree.log);
  const flightsGlob = `read_parquet('${tree.bundles}/tables/flights/*/*.parquet', hive_partitioning = true)`;
  const pointsGlob = `read_parquet('${tree.bundles}/tables/points/*/*.parquet', hive_partitioning = true)`;

  // one row per leg of the log, on the day it is filed under; date is a DATE from the path
  const perDay = await query(`SELECT date::VARCHAR AS date, typeof(date) AS t, count(*)::INT AS n FROM ${flightsGlob} GROUP BY ALL ORDER BY 1`);
  assert.deepEqual(
    perDay,
    DAYS.map((d) => ({ date: d, t: 'DATE', n: legs.filter((l) => l.day === d).length })),
  );
  assert.deepEqual(
    index.flights.map((e) => e.rows),
    DAYS.map((d) => legs.filter((l) => l.day === d).length),
    'the index counts the rows',
  );

  // the columns are the bundle's README's, in its order
  const schema = async (file: string) =>
    (await query(`DESCRIBE SELECT * FROM read_parquet('${file}', hive_partitioning = false)`)).map((r) => [String(r.column_name), String(r.column_type)]);
  assert.deepEqual(
    await schema(localFile(tree.bundles, index.flights[0]!)),
    FLIGHT_COLUMNS.map(([n, t]) => [n, t]),
  );
  assert.deepEqual(
    await schema(localFile(tree.bundles, index.points[0]!)),
    POINT_COLUMNS_TEXT.map(([n, t]) => [n, t]),
  );
  const readme = readFileSync(join(tree.bundles, 'README'), 'utf8');
  for (const [n] of FLIGHT_COLUMNS) assert.ok(readme.includes(`- ${n} (`), `the README describes flights.${n}`);

  // all landings on runway 27R at LSZH in November, against the log's own rows
  const [rwy] = FIXTURE_RUNWAYS;
  const landings = await query(
    `SELECT count(*)::INT AS n FROM ${flightsGlob}
       WHERE dst_ident = 'LSZH' AND arr_runway = '${rwy}' AND date >= DATE '2026-11-01' AND date < DATE '2026-12-01'`,
  );
  const expected = legs.filter((l) => String(l.day).startsWith('2026-11') && l.dst === 'LSZH' && l.arr_runway === rwy).length;
  const anyMonth = legs.filter((l) => l.dst === 'LSZH' && l.arr_runway === rwy).length;
  assert.ok(expected > 0 && expected < anyMonth, `the fixture has such landings in November (${expected}) and in October too (${anyMonth})`);
  assert.deepEqual(landings, [{ n: expected }]);

  // every row is the flight its published document carries, and its points are the document's track
  const v = currentVersion(tree.root)!;
  const rows = await query(`SELECT date::VARCHAR AS date, * EXCLUDE (date) FROM ${flightsGlob} ORDER BY date, hex, first_seen`);
  const points = await query(`SELECT date::VARCHAR AS date, * EXCLUDE (date) FROM ${pointsGlob} ORDER BY date, hex, first_ts, t`);
  let withTrack = 0;
  let filled = 0;
  for (const r of rows) {
    const doc = readObject(v.dir, keys.flights(String(r.hex), String(r.date))) as FlightsDoc;
    const f = doc.flights.find((x) => x.first_seen === Number(r.first_seen));
    assert.ok(f, `${r.hex} ${r.date} ${r.first_seen} is in its document`);
    const endOf = (p: 'dep' | 'arr', airport: unknown) =>
      r[`${p}_at`] === null ? null : { at: Number(r[`${p}_at`]), lat: r[`${p}_lat`], lon: r[`${p}_lon`], airport, runway: r[`${p}_runway`] };
    assert.deepEqual(
      {
        callsign: r.callsign,
        org: r.org,
        dst: r.dst,
        org_ident: r.org_ident,
        dst_ident: r.dst_ident,
        route_source: r.route_source,
        departure: endOf('dep', r.org_ident),
        arrival: endOf('arr', r.dst_ident),
        last_seen: Number(r.last_seen),
        distance_km: r.distance_km,
        max_alt_ft: r.max_alt_ft,
        circuit: r.circuit,
      },
      {
        callsign: f.callsign,
        org: f.org,
        dst: f.dst,
        org_ident: f.org_ident,
        dst_ident: f.dst_ident,
        route_source: f.route_source,
        departure: f.departure,
        arrival: f.arrival,
        last_seen: f.last_seen,
        distance_km: f.distance_km,
        max_alt_ft: f.max_alt_ft,
        circuit: f.circuit,
      },
      `${r.hex} ${r.date} ${r.first_seen}`,
    );
    const track = points
      .filter((p) => p.date === r.date && p.hex === r.hex && Number(p.first_ts) === Number(r.first_seen))
      .map((p) => [p.t, p.lat, p.lon, p.ground ? 'ground' : p.alt_baro, p.track]);
    assert.deepEqual(track, f.track, `the points of ${r.hex} ${r.first_seen} are its document's track`);
    if (track.length) withTrack++;
    // an end filled from the routes table: the build's table was read, not only the heard idents
    if (r.org !== null && r.dst !== null && (r.org_ident === null) !== (r.dst_ident === null)) filled++;
  }
  assert.ok(withTrack === rows.length && filled > 0, `every flight has its track (${withTrack}/${rows.length}), some ends from the routes table (${filled})`);

  // one flight's track straight from DuckDB, as the bundle's README shows it
  const one = rows[0]!;
  const track = await query(
    `SELECT t, lat, lon FROM ${pointsGlob} WHERE hex = '${one.hex}' AND date = DATE '${one.date}' AND first_ts = ${one.first_seen} ORDER BY t`,
  );
  assert.equal(track.length, 3, 'the fixture leg has three points');
  assert.equal(Number(track[0]!.t), Number(one.first_seen), 'its first point is the flight first_seen');

  // the points are the log's own files (one copy on the disk); a second run of the build writes no day again
  for (const e of index.points) assert.equal(statSync(localFile(tree.bundles, e)).ino, statSync(pointsFile(tree.log, e.day)).ino, `${e.day} linked`);
  const again = await writeBundles({ log: tree.log, root: tree.root, out: tree.bundles, nowMs: tree.nowMs + 86_400_000, airports: refViewOf(testRefdata()) });
  assert.deepEqual(
    again.written.filter((p) => p.startsWith('tables/')),
    [],
    'nothing of the tables changed',
  );
  assert.deepEqual(again.index.flights, index.flights, 'the same entries, updated_at kept');
});
