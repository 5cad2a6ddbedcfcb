// issue 47: a published object damaged on disk is found by the next nightly and rewritten, never
// carried into the new version by a hard link. the real nightly on the shipped sample.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, statSync, utimesSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { createHash } from 'node:crypto';
import { currentVersion } from '../../artifacts/tree.ts';
import { fileOf } from '../../artifacts/keys.ts';
import { ROOT } from '../helpers/processes.ts';

test('a damaged published airframe is found and written anew by the next night (its mtime moved) and by --rebuild (mtime put back)', async () => {
  const { parseConfig } = await import('../../lib/cli.ts');
  const { runNightly } = await import('../../build/nightly.ts');
  const { NIGHTLY_SPECS } = await import('../../build/nightly-config.ts');
  const { silentProgress } = await import('../../build/progress.ts');
  const tmp = mkdtempSync(join(tmpdir(), 'contrail-nightly-verify-'));
  const artifacts = join(tmp, 'artifacts');
  const base = ['--ref', join(ROOT, 'test/fixtures/ref-small'), '--log', join(tmp, 'log'), '--artifacts', artifacts, '--bundles', '', '--no-accuracy'];
  const run = (extra: string[], nowMs: number) => {
    const lines: string[] = [];
    const c = parseConfig(NIGHTLY_SPECS, [...base, ...extra], {}).config;
    return runNightly(c, silentProgress, (l) => void lines.push(l), nowMs).then((r) => ({ r, lines: lines.join('\n') }));
  };
  /** overwrite bytes of the current version's `key` in place (same inode, same size); `mtime`: then set the file's mtime to it */
  const damage = (key: string, mtime?: Date) => {
    const file = join(currentVersion(artifacts)!.dir, fileOf(key));
    const fd = openSync(file, 'r+');
    writeSync(fd, Buffer.alloc(24, 0x5a), 0, 24, 12);
    closeSync(fd);
    if (mtime) utimesSync(file, mtime, mtime);
    return { file, bytes: readFileSync(file), ino: statSync(file).ino };
  };
  /** the current version's `key` holds what its manifest says */
  const intact = (key: string) => {
    const v = currentVersion(artifacts)!;
    const json = gunzipSync(readFileSync(join(v.dir, fileOf(key))));
    assert.equal(createHash('sha256').update(json).digest('hex'), v.manifest.objects[key]!.sha256, `${key} in build ${v.id}`);
    return statSync(join(v.dir, fileOf(key))).ino;
  };
  try {
    const first = await run([], Date.UTC(2026, 10, 25, 3));
    const key = Object.keys(currentVersion(artifacts)!.manifest.objects).find((k) => k.startsWith('v1/airframes/'))!;
    intact(key);
    assert.doesNotMatch(first.lines, /verify:/, 'the first build has nothing published to check');

    // the same inputs: a night that would build nothing finds the damage (the file's mtime is after its manifest's)
    const hit = damage(key);
    const night = await run(['--skip-log'], Date.UTC(2026, 10, 26, 3));
    assert.equal(night.r.unchanged, undefined, 'built, though the inputs are unchanged');
    assert.notEqual(night.r.buildId, first.r.buildId);
    assert.equal(night.r.repaired, 1);
    assert.match(
      night.lines,
      new RegExp(`verify: build ${first.r.buildId}: 1 of \\d+ objects do not match its manifest: ${key} \\(modified after its version was published; `),
    );
    assert.match(
      night.lines,
      new RegExp(`published build ${night.r.buildId}: \\d+ objects \\(\\d+ written, 1 of them damaged in build ${first.r.buildId} and rewritten, `),
    );
    assert.notEqual(intact(key), hit.ino, 'a new file under the key, not the damaged inode');
    assert.deepEqual(readFileSync(hit.file), hit.bytes, 'the damaged inode of the old version was not written into');

    // the same damage with the file's mtime set back: the nightly's cheap check cannot tell; --rebuild hashes every object
    const manifestMs = statSync(join(currentVersion(artifacts)!.dir, 'manifest.json')).mtimeMs;
    const hidden = damage(key, new Date(manifestMs - 1000));
    const rebuilt = await run(['--skip-log', '--rebuild'], Date.UTC(2026, 10, 27, 3));
    assert.match(rebuilt.lines, /verify: build \S+: \d+ objects checked \(every one hashed\)/);
    assert.equal(rebuilt.r.repaired, 1);
    assert.equal(rebuilt.r.written, 1, 'the damaged object is the only one written (issue 47: "0 written, all unchanged" before)');
    assert.notEqual(intact(key), hidden.ino);
    // and a night after that finds nothing
    const clean = await run(['--skip-log', '--verify'], Date.UTC(2026, 10, 28, 3));
    assert.equal(clean.r.unchanged, true);
    assert.match(clean.lines, /verify: build \S+: \d+ objects checked \(every one hashed\) in [\d.]+ s, 0 damaged/);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
});
