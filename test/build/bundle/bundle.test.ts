// researchers' bundles, opened the way a researcher would: tar -xzf, sha256sum -c, DuckDB on the
// Parquet, and the counts checked against the artifacts of the same build.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { localFile, readIndex, writeBundles } from '../../../build/bundle/bundle.ts';
import { splitName, TarGzWriter } from '../../../build/bundle/tar.ts';
import { LogWriter } from '../../../build/log/write.ts';
import { problems } from '../../../schemas/index.ts';
import { currentVersion, readObject } from '../../../artifacts/tree.ts';
import { DAYS, legsFor, makeFixture, NOW_MS, seeded } from '../../helpers/publish-fixture.ts';

process.env.TZ = 'UTC';

function extract(file: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'contrail-open-'));
  const r = spawnSync('tar', ['-xzf', file, '-C', dir], { encoding: 'utf8' });
  assert.equal(r.status, 0, `tar -xzf failed: ${r.stderr}`);
  const [top] = readdirSync(dir);
  return join(dir, top!);
}

async function query(sql: string): Promise<Record<string, unknown>[]> {
  const db = await (await DuckDBInstance.create(':memory:')).connect();
  const rows = (await db.runAndReadAll(sql)).getRowObjectsJson() as Record<string, unknown>[];
  db.closeSync();
  return rows;
}

test('the rolling bundle verifies with sha256sum -c, its Parquet reads in DuckDB, and its tables agree with the log and the artifacts', async () => {
  const fx = await makeFixture();
  const out = join(fx.dir, 'bundles');
  const r = await writeBundles({ log: fx.log, root: fx.root, out, nowMs: NOW_MS });
  assert.deepEqual(problems('bundles-index', r.index), []);
  assert.deepEqual(r.index.bundles.map((b) => `${b.kind} ${b.from} ${b.to}`), ['daily 2026-11-20 2026-11-20', 'daily 2026-11-21 2026-11-21', 'rolling 2026-11-20 2026-11-21']);
  const rolling = r.index.bundles.find((b) => b.kind === 'rolling')!;
  assert.equal(rolling.build_id, 'b1');
  const file = localFile(out, rolling);
  const sha = spawnSync('sha256sum', [file], { encoding: 'utf8' }).stdout.split(' ')[0];
  assert.equal(sha, rolling.sha256, 'the index sha256 is the file sha256');
  assert.ok(file.endsWith(`-${rolling.sha256.slice(0, 12)}.tar.gz`), 'the file is named by its hash');

  const dir = extract(file);
  for (const f of ['README', 'LICENSE', 'CREDITS', 'SHA256SUMS', 'legs.parquet', 'tables/airframes.parquet', 'tables/airports.parquet', 'tables/routes.parquet']) assert.ok(existsSync(join(dir, f)), f);
  assert.ok(!existsSync(join(dir, 'artifacts')), 'no artifact tree of JSON files: the tables are Parquet');
  assert.ok(rolling.bytes < 200_000, `a small download: ${rolling.bytes} bytes`);
  const check = spawnSync('sha256sum', ['-c', '--strict', 'SHA256SUMS'], { cwd: dir, encoding: 'utf8' });
  assert.equal(check.status, 0, check.stdout + check.stderr);
  const listed = readFileSync(join(dir, 'SHA256SUMS'), 'utf8').trim().split('\n').length;
  assert.equal(listed, 7, 'every file but SHA256SUMS is listed');
  assert.match(readFileSync(join(dir, 'LICENSE'), 'utf8'), /Open Database License[\s\S]*10\.4 Choice of law/);
  const credits = readFileSync(join(dir, 'CREDITS'), 'utf8');
  for (const s of ['OurAirports', 'Virtual Radar Server', 'FlightGazer', 'feeders']) assert.ok(credits.includes(s), `CREDITS names ${s}`);
  const readme = readFileSync(join(dir, 'README'), 'utf8');
  for (const s of ['- dep_ts (integer or null)', 'never an official registry', 'observed+catalog']) assert.ok(readme.includes(s), `README has ${s}`);

  const pq = join(dir, 'legs.parquet');
  const total = await query(`SELECT count(*)::INT AS n, min(day)::VARCHAR AS lo, max(day)::VARCHAR AS hi FROM '${pq}'`);
  const expected = DAYS.reduce((n, d) => n + fx.rows[d]!.length, 0);
  assert.deepEqual(total[0], { n: expected, lo: DAYS[0], hi: DAYS[1] });
  assert.equal(rolling.legs, expected);
  const compression = await query(`SELECT DISTINCT compression FROM parquet_metadata('${pq}')`);
  assert.deepEqual(compression.map((c) => c.compression), ['ZSTD']);
  const perHex = await query(`SELECT hex, count(*)::INT AS n FROM '${pq}' GROUP BY hex ORDER BY hex`);
  assert.ok(perHex.length >= 3);
  const airframes = await query(`SELECT hex, legs, len(history)::INT AS h FROM '${join(dir, 'tables/airframes.parquet')}' ORDER BY hex`);
  assert.deepEqual(airframes.map((a) => [a.hex, a.legs, a.h]), perHex.map((p) => [p.hex, p.n, p.n]), 'one airframe row per hex, its legs listed');
  const v = currentVersion(fx.root)!;
  for (const { hex, n } of perHex) {
    const doc = readObject(v.dir, `v1/airframes/${hex}`) as { legs: unknown[] };
    assert.equal(doc.legs.length, n, `legs of ${hex} in the airframe artifact vs the Parquet`);
  }
  const routes = await query(`SELECT callsign, org, dst, route_source FROM '${join(dir, 'tables/routes.parquet')}' ORDER BY callsign`);
  const table = readObject(v.dir, 'meta/routes') as Record<string, string[]>;
  assert.deepEqual(routes.map((x) => [x.callsign, x.org, x.dst, x.route_source]), Object.entries(table).sort(([a], [b]) => (a < b ? -1 : 1)).map(([k, e]) => [k, ...e]));
  const airports = await query(`SELECT sum(departures)::INT AS d FROM '${join(dir, 'tables/airports.parquet')}'`);
  const deps = await query(`SELECT count(*)::INT AS d FROM '${pq}' WHERE org IS NOT NULL AND org IS DISTINCT FROM dst`);
  assert.deepEqual(airports, deps, 'airport departures are the log\'s, circuits excluded');
});

test('a daily bundle holds only its day and no artifact tree; an unchanged day is not rebuilt and a changed one is', async () => {
  const fx = await makeFixture(11);
  const out = join(fx.dir, 'bundles');
  const first = await writeBundles({ log: fx.log, root: fx.root, out, nowMs: NOW_MS });
  const day0 = first.index.bundles.find((b) => b.kind === 'daily' && b.from === DAYS[0])!;
  const dir = extract(localFile(out, day0));
  assert.equal(existsSync(join(dir, 'artifacts')), false);
  const n = await query(`SELECT count(*)::INT AS n, count(DISTINCT day)::INT AS days FROM '${join(dir, 'legs.parquet')}'`);
  assert.deepEqual(n[0], { n: fx.rows[DAYS[0]!]!.length, days: 1 });

  const again = await writeBundles({ log: fx.log, root: fx.root, out, nowMs: NOW_MS + 86400_000 });
  assert.deepEqual(again.built, [], 'nothing changed: nothing rebuilt');
  assert.deepEqual(again.index.bundles, first.index.bundles);

  const w = await LogWriter.open(fx.log, 1);
  await w.writeDay(DAYS[1]!, legsFor(DAYS[1]!, 3, seeded(99)));
  w.close();
  const third = await writeBundles({ log: fx.log, root: fx.root, out, nowMs: NOW_MS + 2 * 86400_000 });
  assert.deepEqual(third.built.map((b) => `${b.kind} ${b.from}`), ['daily 2026-11-21', 'rolling 2026-11-20']);
  assert.equal(third.index.bundles.find((b) => b.from === DAYS[0])!.path, day0.path, 'the unchanged day keeps its file');
  assert.equal(third.removed.length, 2, 'the replaced daily and rolling files are deleted');
  assert.deepEqual(readIndex(out), third.index);
});

test('forcing a day rebuilds it to the same bytes: bundles are reproducible', async () => {
  const fx = await makeFixture(5);
  const out = join(fx.dir, 'bundles');
  const a = await writeBundles({ log: fx.log, root: fx.root, out, nowMs: NOW_MS });
  const b = await writeBundles({ log: fx.log, root: fx.root, out, nowMs: NOW_MS + 1000, days: [DAYS[0]!] });
  assert.deepEqual(b.built.map((e) => e.from), [DAYS[0]]);
  assert.equal(b.built[0]!.sha256, a.index.bundles[0]!.sha256);
  await assert.rejects(writeBundles({ log: fx.log, root: fx.root, out, nowMs: NOW_MS, days: ['2026-13-01'] }), /not a YYYY-MM-DD date/);
});

test('a malformed sources file fails the bundle step with the file named', async () => {
  const fx = await makeFixture(3, 2);
  const bad = join(fx.dir, 'sources.json');
  writeFileSync(bad, JSON.stringify([{ name: 'x' }]));
  await assert.rejects(writeBundles({ log: fx.log, root: fx.root, out: join(fx.dir, 'b'), nowMs: NOW_MS, sources: bad }), /sources\.json: every source needs/);
  writeFileSync(bad, '{');
  await assert.rejects(writeBundles({ log: fx.log, root: fx.root, out: join(fx.dir, 'b'), nowMs: NOW_MS, sources: bad }), SyntaxError);
});

test('tar entries longer than 100 bytes are split at a slash or carried by a pax header, and GNU tar reads both back', async () => {
  assert.deepEqual(splitName('a/b'), { name: 'a/b', prefix: '' });
  const long = `${'d'.repeat(120)}/${'f'.repeat(90)}`;
  assert.deepEqual(splitName(long), { name: 'f'.repeat(90), prefix: 'd'.repeat(120) });
  assert.equal(splitName('x'.repeat(150)), null);
  const dir = mkdtempSync(join(tmpdir(), 'contrail-tar-'));
  const t = new TarGzWriter(join(dir, 't.tar.gz'), 1_700_000_000);
  await t.addBuffer(`top/${long}`, Buffer.from('split'));
  await t.addBuffer(`top/${'x'.repeat(150)}.json`, Buffer.from('pax'));
  await assert.rejects(t.addBuffer('../escape', Buffer.from('')), /unsafe tar entry/);
  await t.close();
  const root = extract(join(dir, 't.tar.gz'));
  assert.equal(readFileSync(join(root, long), 'utf8'), 'split');
  assert.equal(readFileSync(join(root, `${'x'.repeat(150)}.json`), 'utf8'), 'pax');
});
