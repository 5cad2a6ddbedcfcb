import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { after, describe, it } from 'node:test';
import { ConfigError, parseConfig } from '../../../lib/cli.ts';
import { LOG_SPECS, selectionOf } from '../../../build/log/cli.ts';
import { defaultLogWorkers } from '../../../build/log/leg-pool.ts';
import { NIGHTLY_SPECS } from '../../../build/nightly-config.ts';
import { openLog } from '../../../build/log/read.ts';
import { midnightTree, putFile, tempDir, tracePath } from '../../helpers/history.ts';

const run = promisify(execFile);
const ROOT = join(import.meta.dirname, '..', '..', '..');
const CLI = join(ROOT, 'build', 'log', 'cli.ts');
const dirs: string[] = [];
after(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

const config = (argv: string[]) => parseConfig(LOG_SPECS, argv, {}).config;
const selection = (argv: string[]) => selectionOf(config(argv));

describe('log command flags', () => {
  it('defaults to every day of the bundled sample', () => {
    const c = config([]);
    // resolved from the installation, not the working directory (cron runs from anywhere)
    assert.equal(c.history, join(ROOT, 'data/sample/globe_history'));
    assert.deepEqual(selectionOf(c), { all: true });
  });

  it('selects the newest N days or an inclusive range', () => {
    assert.deepEqual(selection(['--days', '3']), { days: 3 });
    assert.deepEqual(selection(['--from', '2025-02-04', '--to', '2025-02-05']), { from: '2025-02-04', to: '2025-02-05' });
  });

  it('reads the environment under the flags', () => {
    const c = parseConfig(LOG_SPECS, ['--days', '2'], { CONTRAIL_LOG_DAYS: '5', CONTRAIL_LOG: '/x/log' }).config;
    assert.equal(c.days, 2);
    assert.equal(c.log, '/x/log');
  });

  it('reads the worker count from --workers or CONTRAIL_LOG_WORKERS (the nightly: --log-workers), one per core by default', () => {
    assert.equal(config([]).workers, defaultLogWorkers());
    assert.ok(defaultLogWorkers() >= 1 && defaultLogWorkers() <= 16, `${defaultLogWorkers()}`);
    assert.equal(config(['--workers', '0']).workers, 0);
    assert.equal(parseConfig(LOG_SPECS, [], { CONTRAIL_LOG_WORKERS: '3' }).config.workers, 3);
    assert.equal(parseConfig(NIGHTLY_SPECS, ['--log-workers', '5'], {}).config.logWorkers, 5);
    assert.equal(parseConfig(NIGHTLY_SPECS, [], { CONTRAIL_LOG_WORKERS: '3' }).config.logWorkers, 3);
    assert.throws(() => parseConfig(NIGHTLY_SPECS, ['--log-workers', '-2'], {}), /--log-workers: must be 0\.\.64/);
  });

  it('refuses malformed values with a message that names the flag', () => {
    const bad: [string[], RegExp][] = [
      [['--days', 'abc'], /--days: expected an integer/],
      [['--days', '-1'], /--days: must be 0 or more/],
      [['--from', '2025-02-30', '--to', '2025-03-01'], /--from: expected a date/],
      [['--from', '2025-02-04', '--to', '25-02-05'], /--to: expected a date/],
      [['--from', '2025-02-04'], /--from and --to go together/],
      [['--to', '2025-02-04'], /--from and --to go together/],
      [['--from', '2025-02-05', '--to', '2025-02-04'], /is after --to/],
      [['--days', '2', '--from', '2025-02-04', '--to', '2025-02-05'], /either --days or --from\/--to/],
      [['--carry-hours', '13'], /--carry-hours: must be between 0 and 12/],
      [['--carry-hours', 'NaN'], /expected a number/],
      [['--threads', '0'], /--threads: must be 1 or more/],
      [['--workers', '-1'], /--workers: must be 0\.\.64/],
      [['--workers', '65'], /--workers: must be 0\.\.64/],
      [['--workers', 'two'], /--workers: expected an integer/],
      [['--history', ''], /--history: must not be empty/],
      [['--log'], /needs a value/],
      [['--bogus', '1'], /unknown flag --bogus/],
    ];
    for (const [argv, msg] of bad)
      assert.throws(
        () => selection(argv),
        (e: unknown) => e instanceof ConfigError && msg.test(e.message),
        argv.join(' '),
      );
  });
});

describe('log command', () => {
  it('prints --help with every flag and exits 0', async () => {
    const { stdout } = await run(process.execPath, ['--import', 'tsx', CLI, '--help'], { cwd: ROOT });
    for (const flag of ['--history', '--log', '--days', '--from', '--to', '--ref', '--carry-hours', '--workers', '--help'])
      assert.ok(stdout.includes(flag), flag);
    assert.match(stdout, /CONTRAIL_LOG_WORKERS/);
  });

  it('exits 2 with the fix on a bad flag, writing nothing', async () => {
    await assert.rejects(run(process.execPath, ['--import', 'tsx', CLI, '--days', 'x'], { cwd: ROOT }), (e: { code?: number; stderr?: string }) => {
      assert.equal(e.code, 2);
      assert.match(e.stderr ?? '', /--days: expected an integer/);
      return true;
    });
  });

  it('builds a log from a history tree with the shipped OurAirports locator, printing plain progress lines off a terminal', async () => {
    const history = midnightTree(tempDir());
    const log = tempDir();
    dirs.push(history, log);
    const { stderr } = await run(process.execPath, ['--import', 'tsx', CLI, '--history', history, '--log', log, '--threads', '1'], { cwd: ROOT });
    assert.match(stderr, /legs 2025-02-05: started [\d.]+ s into the run \(1 expected\)/);
    assert.match(stderr, /log: 2 days, 2 files, 4 legs/);
    const l = await openLog(log, { threads: 1 });
    try {
      const rows = await l.rows('SELECT callsign, org, dst FROM legs ORDER BY first_ts');
      assert.deepEqual(rows, [
        { callsign: 'DAL1812', org: null, dst: 'KMSP' },
        { callsign: 'DAL2418', org: 'KMSP', dst: null },
        { callsign: 'DAL1615', org: null, dst: 'KMSP' },
        { callsign: 'DAL2927', org: 'KMSP', dst: 'KDEN' },
      ]);
    } finally {
      l.close();
    }
  });

  it("on 2 leg workers, names a truncated trace file on stderr, counts it and exits 0 with the good file's legs", async () => {
    const history = midnightTree(tempDir());
    const log = tempDir();
    dirs.push(history, log);
    const good = readFileSync(tracePath(history, '2025-02-05', 'ac671b'));
    const bad = putFile(tracePath(history, '2025-02-05', 'a0000b'), good.subarray(0, good.length >> 1));
    const { stderr } = await run(process.execPath, ['--import', 'tsx', CLI, '--history', history, '--log', log, '--threads', '1', '--workers', '2'], {
      cwd: ROOT,
    });
    assert.ok(stderr.includes(`log: skipped ${bad} (corrupt): gzip: `), stderr);
    assert.match(stderr, /log: 2 days, 3 files, 4 legs written .*; skipped: corrupt 1/);
  });
});
