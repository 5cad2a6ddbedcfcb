// the nightly as cron runs it: what it says when a step after the commit fails must be true.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { currentVersion } from '../../artifacts/tree.ts';
import { spawnSync } from 'node:child_process';
import { ROOT } from '../helpers/processes.ts';

test('a bundle step that fails after the commit says the new build is live, never "unchanged"', () => {
  const tmp = mkdtempSync(join(tmpdir(), 'contrail-nightly-'));
  const blocker = join(tmp, 'not-a-dir');
  writeFileSync(blocker, 'a file where the bundles folder should go');
  const r = spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'build/nightly.ts'),
    '--ref', 'test/fixtures/ref-small', '--log', join(tmp, 'log'), '--artifacts', join(tmp, 'artifacts'),
    '--bundles', join(blocker, 'bundles'), '--no-accuracy',
  ], { cwd: ROOT, encoding: 'utf8', timeout: 120_000 });
  assert.equal(r.status, 1, r.stderr);
  const v = currentVersion(join(tmp, 'artifacts'));
  assert.ok(v, 'the build was committed before the bundles step');
  assert.match(r.stderr, new RegExp(`bundles: .*\\(build ${v.id} is published and served; only this later step failed: rerun the nightly\\)`));
  assert.doesNotMatch(r.stderr, /published tree is unchanged/);
});
