// the researchers' data as a researcher meets it: DuckDB reads the published Hive tree as it is
// (the day from the path, a DATE), the tables agree with the log and the artifacts of the same
// build, sha256sum -c passes, the CREDITS name only what the files draw on, and a rebuild that
// changes nothing rewrites nothing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, statSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { writeBundles } from '../../../build/bundle/bundle.ts';
import { indexFiles, localFile, readIndex } from '../../../build/bundle/index-file.ts';
import { LogWriter, dayFile } from '../../../build/log/write.ts';
import { problems } from '../../../schemas/index.ts';
import { currentVersion, readObject } from '../../../artifacts/tree.ts';
import { DAYS, legsFor, makeFixture, NOW_MS, publishTree, seeded } from '../../helpers/publish-fixture.ts';

process.env.TZ = 'UTC';
const BASE = 'https://contrail.example';

async function query(sql: string): Promise<Record<string, unknown>[]> {
  const db = await (await DuckDBInstance.create(':memory:')).connect();
  const rows = (await db.runAndReadAll(sql)).getRowObjectsJson() as Record<string, unknown>[];
  db.closeSync();
  return rows;
}

const stamp = (f: string) => {
  const s = statSync(f);
  return `${s.ino}:${s.mtimeMs}`;
};

test("DuckDB reads the published log tree as it is: day is a DATE from the path, counts per day are the log's", async () => {
  const fx = await makeFixture();
  const out = join(fx.dir, 'bundles');
  const r = await writeBundles({ log: fx.log, root: fx.root, out, nowMs: NOW_MS, baseUrl: BASE });
  assert.deepEqual(problems('bundles-index', r.index), []);
  assert.deepEqual(
    r.index.log.map((e) => [e.day, e.path, e.rows]),
    DAYS.map((d) => [d, `/v1/bundles/log/day=${d}/legs.parquet`, fx.rows[d]!.length]),
  );
  for (const e of r.index.log) {
    assert.deepEqual(readFileSync(localFile(out, e)), readFileSync(dayFile(fx.log, e.day)), "the published day is the log's own file");
    assert.equal(statSync(localFile(out, e)).ino, statSync(dayFile(fx.log, e.day)).ino, 'linked, not copied: one copy on the disk');
  }
  const names = await query(`SELECT name FROM parquet_schema('${localFile(out, r.index.log[0]!)}') WHERE name = 'day'`);
  assert.deepEqual(names, [], 'the file holds no day column: the path carries it, no conflict');

  const glob = `${out}/log/*/legs.parquet`;
  for (const opts of ['hive_partitioning = true', "hive_partitioning = true, hive_types = {'day': DATE}"]) {
    const byDay = await query(
      `SELECT day::VARCHAR AS day, typeof(day) AS t, count(*)::INT AS n FROM read_parquet('${glob}', ${opts}) GROUP BY ALL ORDER BY day`,
    );
    assert.deepEqual(
      byDay,
      DAYS.map((d) => ({ day: d, t: 'DATE', n: fx.rows[d]!.length })),
      opts,
    );
  }
  // the researchers' README's recipe, with the folder standing in for the host (httpfs is not installed here)
  const recipe =
    await query(`SET VARIABLE files = (SELECT list('${out}' || substr(f.path, ${'/v1/bundles'.length + 1})) FROM (SELECT unnest(log) AS f FROM read_json('${out}/index.json')));
    SELECT day::VARCHAR AS day, count(*)::INT AS n FROM read_parquet(getvariable('files'), hive_partitioning = true) GROUP BY day ORDER BY day`);
  assert.deepEqual(
    recipe,
    DAYS.map((d) => ({ day: d, n: fx.rows[d]!.length })),
  );
  const readme = readFileSync(join(out, 'README'), 'utf8');
  assert.ok(
    readme.includes(
      "SET VARIABLE files = (SELECT list('https://contrail.example' || f.path) FROM (SELECT unnest(log) AS f FROM read_json('https://contrail.example/v1/bundles')));",
    ),
    'the README shows the recipe tested above',
  );
  const compression = await query(`SELECT DISTINCT compression FROM parquet_metadata('${glob}')`);
  assert.deepEqual(
    compression.map((c) => c.compression),
    ['ZSTD'],
  );
});

test('the tables agree with the log and the artifacts; the texts verify and credit only what the files draw on', async () => {
  const fx = await makeFixture();
  const out = join(fx.dir, 'bundles');
  const r = await writeBundles({ log: fx.log, root: fx.root, out, nowMs: NOW_MS, baseUrl: BASE });
  assert.equal(r.index.build_id, 'b1');
  assert.deepEqual([r.index.tables_from, r.index.tables_to, r.index.archive_through], [DAYS[0], DAYS[1], DAYS[1]]);
  assert.deepEqual(
    r.index.tables.map((t) => t.path),
    ['airframes', 'airports', 'routes'].map((n) => `/v1/bundles/tables/${n}.parquet`),
  );
  const pq = `${out}/log/*/legs.parquet`;
  const perHex = await query(`SELECT hex, count(*)::INT AS n FROM '${pq}' GROUP BY hex ORDER BY hex`);
  assert.ok(perHex.length >= 3, 'perHex.length >= 3');
  const airframes = await query(`SELECT hex, legs, len(history)::INT AS h FROM '${out}/tables/airframes.parquet' ORDER BY hex`);
  assert.deepEqual(
    airframes.map((a) => [a.hex, a.legs, a.h]),
    perHex.map((p) => [p.hex, p.n, p.n]),
    'one airframe row per hex, its legs listed',
  );
  const v = currentVersion(fx.root)!;
  for (const { hex, n } of perHex) assert.equal((readObject(v.dir, `v1/airframes/${hex}`) as { legs: unknown[] }).legs.length, n, String(hex));
  const routes = await query(`SELECT callsign, org, dst, route_source FROM '${out}/tables/routes.parquet' ORDER BY callsign`);
  const table = readObject(v.dir, 'meta/routes') as Record<string, string[]>;
  assert.deepEqual(
    routes.map((x) => [x.callsign, x.org, x.dst, x.route_source]),
    Object.entries(table)
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([k, e]) => [k, ...e]),
  );
  const airports = await query(`SELECT sum(departures)::INT AS d FROM '${out}/tables/airports.parquet'`);
  const deps = await query(`SELECT count(*)::INT AS d FROM '${pq}' WHERE org IS NOT NULL AND org IS DISTINCT FROM dst`);
  assert.deepEqual(airports, deps, "airport departures are the log's, circuits excluded");
  for (const t of r.index.tables) assert.equal(t.rows, (await query(`SELECT count(*)::INT AS n FROM '${localFile(out, t)}'`))[0]!.n, t.name);

  for (const e of indexFiles(r.index)) {
    const got = spawnSync('sha256sum', [localFile(out, e)], { encoding: 'utf8' }).stdout.split(' ')[0];
    assert.equal(got, e.sha256, e.path);
    assert.equal(statSync(localFile(out, e)).size, e.bytes, e.path);
  }
  const check = spawnSync('sha256sum', ['-c', '--strict', 'SHA256SUMS'], { cwd: out, encoding: 'utf8' });
  assert.equal(check.status, 0, check.stdout + check.stderr);
  assert.equal(
    readFileSync(join(out, 'SHA256SUMS'), 'utf8').trim().split('\n').length,
    DAYS.length + 3 + 2 * DAYS.length + 3,
    'the days, the tables, the flights and points days, README, LICENSE, CREDITS',
  );
  assert.match(readFileSync(join(out, 'LICENSE'), 'utf8'), /Open Database License[\s\S]*10\.4 Choice of law/);
  const credits = readFileSync(join(out, 'CREDITS'), 'utf8');
  for (const s of ['OurAirports', 'feeders', `${BASE}/v1/credits`, `${BASE}/v1/stations`, 'https://opendatacommons.org/licenses/odbl/1-0/'])
    assert.ok(credits.includes(s), `CREDITS names ${s}`);
  // the fixture's catalog is empty and the files carry no operator or alliance data
  for (const s of ['Virtual Radar Server', 'FlightGazer', 'alliance', 'adsb.lol']) assert.ok(!credits.includes(s), `CREDITS does not name ${s}`);
  const links = credits.match(/(?:https?:\/)?\/[\w./-]*v1\/\w+/g) ?? [];
  assert.ok(links.length >= 2 && links.every((l) => l.startsWith('https://')), `absolute URLs only: ${links.join(' ')}`);
  const readme = readFileSync(join(out, 'README'), 'utf8');
  for (const s of [
    '- dep_ts (integer or null)',
    'never an official registry',
    'observed+catalog',
    'hive_partitioning',
    `build b1 over ${DAYS[0]} to ${DAYS[1]}`,
  ])
    assert.ok(readme.includes(s), `README has ${s}`);
});

test('a rebuild that changes nothing rewrites nothing; a changed day replaces only its file; a day gone from the log and the old tarballs are removed', async () => {
  const fx = await makeFixture(11);
  const out = join(fx.dir, 'bundles');
  mkdirSync(join(out, 'daily'), { recursive: true });
  writeFileSync(join(out, 'daily', 'contrail-2026-11-20-0123456789ab.tar.gz'), 'old layout');
  const first = await writeBundles({ log: fx.log, root: fx.root, out, nowMs: NOW_MS });
  assert.deepEqual(first.removed, ['daily']);
  const before = new Map(indexFiles(first.index).map((e) => [e.path, stamp(localFile(out, e))]));

  const again = await writeBundles({ log: fx.log, root: fx.root, out, nowMs: NOW_MS + 86400_000 });
  assert.deepEqual(again.written, [], 'nothing changed: nothing written');
  assert.deepEqual(indexFiles(again.index), indexFiles(first.index), 'same files, same updated_at');
  for (const e of indexFiles(again.index)) assert.equal(stamp(localFile(out, e)), before.get(e.path), `${e.path} untouched (inode and mtime)`);

  // a new build of the same log: the tables are made again and come out byte for byte the same
  await publishTree(fx.log, fx.root, 'b2');
  const rebuilt = await writeBundles({ log: fx.log, root: fx.root, out, nowMs: NOW_MS + 2 * 86400_000 });
  assert.equal(rebuilt.index.build_id, 'b2');
  assert.deepEqual(rebuilt.written, ['README', 'SHA256SUMS'], 'the same content: no table rewritten (the README names the build)');
  assert.deepEqual(
    rebuilt.index.tables.map((t) => t.build_id),
    ['b2', 'b2', 'b2'],
  );

  // a new build that kept its closed days' flights documents (a reusing night: its counts say so) and
  // added no day: no flights file is made again, so each stays the one its day closed with (docs/api.md)
  await publishTree(fx.log, fx.root, 'b3', { counts: { 'flights.kept': 2 } });
  const frozen = await writeBundles({ log: fx.log, root: fx.root, out, nowMs: NOW_MS + 2.5 * 86400_000 });
  assert.equal(frozen.index.build_id, 'b3');
  assert.deepEqual(
    frozen.index.flights.map((e) => [e.day, e.build_id]),
    DAYS.map((d) => [d, 'b2']),
    "the flights files are the previous index's entries, not made from build b3",
  );
  assert.deepEqual(
    rebuilt.index.flights.map((e) => e.build_id),
    DAYS.map(() => 'b2'),
    'a build that wrote every day makes every flights file again',
  );

  const w = await LogWriter.open(fx.log, 1);
  await w.writeDay(DAYS[1]!, legsFor(DAYS[1]!, 3, seeded(99)));
  // the log rewrites a day with the same rows: a new file (a new inode), the same bytes
  await w.writeDay(DAYS[0]!, fx.rows[DAYS[0]!]!);
  w.close();
  assert.notEqual(statSync(dayFile(fx.log, DAYS[0]!)).ino, Number(before.get(first.index.log[0]!.path)!.split(':')[0]), 'the log replaced its file');
  const third = await writeBundles({ log: fx.log, root: fx.root, out, nowMs: NOW_MS + 3 * 86400_000 });
  assert.ok(third.written.includes(`log/day=${DAYS[1]}/legs.parquet`), third.written.join(' '));
  assert.ok(!third.written.some((p) => p.includes(DAYS[0]!)), 'the unchanged day is not rewritten');
  const day0 = third.index.log[0]!;
  assert.equal(stamp(localFile(out, day0)), before.get(day0.path));
  assert.equal(day0.updated_at, first.index.log[0]!.updated_at);
  assert.equal(third.index.log[1]!.updated_at, new Date(NOW_MS + 3 * 86400_000).toISOString());
  assert.equal(third.index.log[1]!.rows, 3);
  assert.deepEqual(readIndex(out), third.index);

  // a day gone from the log (and a killed run's temporary) leave the published tree too
  spawnSync('rm', ['-r', join(fx.log, `day=${DAYS[0]}`)]);
  writeFileSync(join(out, 'log', `day=${DAYS[1]}`, '.tmp-1-legs.parquet'), 'half a file');
  const fourth = await writeBundles({ log: fx.log, root: fx.root, out, nowMs: NOW_MS + 4 * 86400_000 });
  assert.deepEqual(
    fourth.index.log.map((e) => e.day),
    [DAYS[1]],
  );
  assert.deepEqual(fourth.removed.sort(), [
    `log/day=${DAYS[0]}`,
    `log/day=${DAYS[1]}/.tmp-1-legs.parquet`,
    `tables/flights/date=${DAYS[0]}`,
    `tables/points/date=${DAYS[0]}`,
  ]);
  assert.equal(existsSync(join(out, 'log', `day=${DAYS[0]}`)), false);
});

test('with no published build there are no tables; an empty log publishes an empty index', async () => {
  const fx = await makeFixture(5);
  const out = join(fx.dir, 'bundles');
  const r = await writeBundles({ log: fx.log, root: join(fx.dir, 'nothing'), out, nowMs: NOW_MS });
  assert.deepEqual([r.index.tables, r.index.build_id, r.index.tables_from], [[], null, null]);
  assert.equal(existsSync(join(out, 'tables')), false);
  assert.ok(!readFileSync(join(out, 'README'), 'utf8').includes('tables/'), "!readFileSync(join(out, 'README'), 'utf8').includes('tables/')");
  const empty = await writeBundles({ log: join(fx.dir, 'no-log'), root: join(fx.dir, 'nothing'), out: join(fx.dir, 'b2'), nowMs: NOW_MS });
  assert.deepEqual([empty.index.log, empty.index.archive_through], [[], null]);
  assert.deepEqual(problems('bundles-index', empty.index), []);
});

test('a malformed sources file fails the bundle step with the file named', async () => {
  const fx = await makeFixture(3, 2);
  const bad = join(fx.dir, 'sources.json');
  writeFileSync(bad, JSON.stringify([{ name: 'x' }]));
  await assert.rejects(writeBundles({ log: fx.log, root: fx.root, out: join(fx.dir, 'b'), nowMs: NOW_MS, sources: bad }), /sources\.json: every source needs/);
  writeFileSync(bad, '{');
  await assert.rejects(writeBundles({ log: fx.log, root: fx.root, out: join(fx.dir, 'b'), nowMs: NOW_MS, sources: bad }), SyntaxError);
});

test('the step runs DuckDB under the memory limit and spill folder it is given', async () => {
  const fx = await makeFixture(4, 6);
  const spill = join(fx.dir, 'spill');
  const r = await writeBundles({ log: fx.log, root: fx.root, out: join(fx.dir, 'b'), nowMs: NOW_MS, memoryLimit: '300MB', tempDirectory: spill });
  assert.deepEqual(r.duckdb, { memoryLimit: '286.1 MiB', tempDirectory: spill });
  await assert.rejects(
    writeBundles({ log: fx.log, root: fx.root, out: join(fx.dir, 'c'), nowMs: NOW_MS, memoryLimit: '1MB', tempDirectory: spill }),
    /Out of Memory Error: .*976\.5 KiB/,
  );
});
