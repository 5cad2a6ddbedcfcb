// the nightly as cron runs it: what it says when a step after the commit fails must be true.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { currentVersion } from '../../artifacts/tree.ts';
import { spawnSync } from 'node:child_process';
import { ROOT } from '../helpers/processes.ts';

test('a bundle step that fails after the commit says the new build is live, never "unchanged"', () => {
  const tmp = mkdtempSync(join(tmpdir(), 'contrail-nightly-'));
  const blocker = join(tmp, 'not-a-dir');
  writeFileSync(blocker, 'a file where the bundles folder should go');
  const r = spawnSync(
    process.execPath,
    [
      '--import',
      'tsx',
      join(ROOT, 'build/nightly.ts'),
      '--ref',
      'test/fixtures/ref-small',
      '--log',
      join(tmp, 'log'),
      '--artifacts',
      join(tmp, 'artifacts'),
      '--bundles',
      join(blocker, 'bundles'),
      '--no-accuracy',
    ],
    { cwd: ROOT, encoding: 'utf8', timeout: 300_000 },
  );
  assert.equal(r.status, 1, r.stderr);
  const v = currentVersion(join(tmp, 'artifacts'));
  assert.ok(v, 'the build was committed before the bundles step');
  assert.match(r.stderr, new RegExp(`bundles: .*\\(build ${v.id} is published and served; only this later step failed: rerun the nightly\\)`));
  assert.doesNotMatch(r.stderr, /published tree is unchanged/);
  rmSync(tmp, { recursive: true, force: true }); // a built tree: about 400 MB
});

test("run from another working directory, the defaults still find the shipped data; the bundle step gets the build's DuckDB limits; a missing --history is exit 2, not an empty build", () => {
  const tmp = mkdtempSync(join(tmpdir(), 'contrail-nightly-cwd-'));
  // cron's way: some other folder, only outputs named
  // as an operator's crontab would call it: the installation's tsx, by absolute path
  const TSX = join(ROOT, 'node_modules', '.bin', 'tsx');
  const r = spawnSync(
    TSX,
    [
      join(ROOT, 'build/nightly.ts'),
      '--log',
      join(tmp, 'log'),
      '--artifacts',
      join(tmp, 'artifacts'),
      '--bundles',
      join(tmp, 'bundles'),
      '--memory-limit',
      '700MB',
      '--no-accuracy',
      '--ref',
      join(ROOT, 'test/fixtures/ref-small'),
    ],
    { cwd: tmp, encoding: 'utf8', timeout: 300_000 },
  );
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stderr, /archive through 2023-08-30/, 'the bundled sample history, found from the installation');
  // as DuckDB itself reads its settings back inside the bundle step: the nightly's limit (700 MB
  // is 667.5 MiB) and the build's spill folder
  assert.match(
    r.stderr,
    new RegExp(`bundles: .*DuckDB memory limit 667\\.5 MiB, spilling to ${join(tmp, 'artifacts', '.duckdb-spill').replaceAll('.', '\\.')}\n`),
  );
  // the sample's traffic is credited because this log holds it
  assert.match(readFileSync(join(tmp, 'bundles', 'CREDITS'), 'utf8'), /adsb\.lol and its feeders/);
  const missing = spawnSync(TSX, [join(ROOT, 'build/nightly.ts'), '--history', join(tmp, 'no-such-folder'), '--artifacts', join(tmp, 'a2')], {
    cwd: tmp,
    encoding: 'utf8',
    timeout: 60_000,
  });
  assert.equal(missing.status, 2, missing.stderr);
  assert.match(missing.stderr, /nightly: --history .*no-such-folder: no such folder/);
  assert.equal(currentVersion(join(tmp, 'a2')), null, 'nothing built');
  rmSync(tmp, { recursive: true, force: true });
});

test("a night whose inputs equal the published build's builds nothing; a changed log day or --rebuild builds", async () => {
  const { parseConfig } = await import('../../lib/cli.ts');
  const { runNightly } = await import('../../build/nightly.ts');
  const { NIGHTLY_SPECS } = await import('../../build/nightly-config.ts');
  const { silentProgress } = await import('../../build/progress.ts');
  const { cpSync, utimesSync } = await import('node:fs');
  const tmp = mkdtempSync(join(tmpdir(), 'contrail-nightly-same-'));
  const artifacts = join(tmp, 'artifacts');
  const log = join(tmp, 'log');
  const base = ['--ref', join(ROOT, 'test/fixtures/ref-small'), '--log', log, '--artifacts', artifacts, '--bundles', '', '--no-accuracy'];
  const run = (extra: string[], nowMs: number) => {
    const lines: string[] = [];
    const c = parseConfig(NIGHTLY_SPECS, [...base, ...extra], {}).config;
    return runNightly(c, silentProgress, (l) => void lines.push(l), nowMs).then((r) => ({ r, lines }));
  };
  const first = await run([], Date.UTC(2026, 10, 25, 3));
  assert.ok(first.r.written > 0 && !first.r.unchanged, 'first.r.written > 0 && !first.r.unchanged');
  // the next night, the same log (read from the traces again) and the same code and data: nothing built
  const same = await run(['--skip-log'], Date.UTC(2026, 10, 26, 3));
  assert.equal(same.r.unchanged, true);
  assert.equal(same.r.buildId, first.r.buildId);
  assert.equal(currentVersion(artifacts)!.id, first.r.buildId);
  assert.match(same.lines.join('\n'), new RegExp(`inputs unchanged since build ${first.r.buildId}`));
  // --rebuild builds anyway, and writes nothing new
  const forced = await run(['--skip-log', '--rebuild'], Date.UTC(2026, 10, 27, 3));
  assert.ok(!forced.r.unchanged && forced.r.buildId !== first.r.buildId, '!forced.r.unchanged && forced.r.buildId !== first.r.buildId');
  assert.equal(forced.r.written, 0);
  // one log day's file replaced by other bytes: a build
  const day = first.r.archiveThrough!;
  const file = join(log, `day=${day}`, 'legs.parquet');
  cpSync(file, `${file}.copy`);
  writeFileSync(file, readFileSync(`${file}.copy`).subarray(0)); // same bytes, new mtime: hashed again, still unchanged
  utimesSync(file, new Date(), new Date(Date.now() + 10_000));
  assert.equal((await run(['--skip-log'], Date.UTC(2026, 10, 28, 3))).r.unchanged, true);
  // the day without its first leg: other bytes, a build
  const { DuckDBInstance } = await import('@duckdb/node-api');
  const db = await (await DuckDBInstance.create(':memory:')).connect();
  await db.run(`COPY (SELECT * FROM read_parquet('${file}.copy') OFFSET 1) TO '${file}' (FORMAT parquet)`);
  db.closeSync();
  const changed = await run(['--skip-log'], Date.UTC(2026, 10, 29, 3));
  assert.ok(!changed.r.unchanged && changed.r.written > 0, '!changed.r.unchanged && changed.r.written > 0');
  rmSync(`${file}.copy`);
  rmSync(tmp, { recursive: true, force: true });
});
