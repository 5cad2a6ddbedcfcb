// what a build was made from (build/publish/inputs.ts): equal inputs give equal digests, any
// changed byte changes them, a touched file is hashed again, and the log is not part of the
// static digest.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { changedFiles, fileUnchanged, readInputs, type InputSources } from '../../../build/publish/inputs.ts';

function fixture() {
  const dir = mkdtempSync(join(tmpdir(), 'contrail-inputs-'));
  mkdirSync(join(dir, 'code', 'sub'), { recursive: true });
  writeFileSync(join(dir, 'code', 'a.ts'), 'export const a = 1;\n');
  writeFileSync(join(dir, 'code', 'sub', 'b.ts'), 'export const b = 2;\n');
  writeFileSync(join(dir, 'log-1.parquet'), 'day one');
  const src: InputSources = {
    folders: { code: join(dir, 'code') },
    files: { review: join(dir, 'review.csv') },
    logFiles: { 'log:1': join(dir, 'log-1.parquet') },
    values: { window_days: 365 },
    logValues: { archive_through: '2025-12-31' },
  };
  return { dir, src };
}

test('the same inputs give the same digests; a changed code byte changes both; a changed log file only the full one', () => {
  const { dir, src } = fixture();
  const a = readInputs(src, null);
  assert.deepEqual(readInputs(src, a), a);
  assert.equal(a.files['review:']!.sha256, 'absent');
  writeFileSync(join(dir, 'log-1.parquet'), 'day one, again');
  const b = readInputs(src, a);
  assert.notEqual(b.digest, a.digest);
  assert.equal(b.static_digest, a.static_digest);
  writeFileSync(join(dir, 'code', 'sub', 'b.ts'), 'export const b = 3;\n');
  const c = readInputs(src, b);
  assert.notEqual(c.static_digest, b.static_digest);
  assert.notEqual(readInputs({ ...src, values: { window_days: 30 } }, c).static_digest, c.static_digest);
  assert.notEqual(readInputs({ ...src, logValues: { archive_through: '2026-01-01' } }, c).digest, c.digest);
  rmSync(dir, { recursive: true, force: true });
});

test('a file rewritten with the same size and mtime keeps its recorded hash; a touched one is read again', () => {
  const { dir, src } = fixture();
  const file = join(dir, 'code', 'a.ts');
  const when = new Date(Date.UTC(2026, 0, 1)); // whole seconds: utimes keeps them exactly
  utimesSync(file, when, when);
  const a = readInputs(src, null);
  // same size, same mtime, other bytes: trusted as unchanged (make's rule)
  writeFileSync(file, 'export const a = 9;\n');
  utimesSync(file, when, when);
  assert.equal(readInputs(src, a).files['code:a.ts']!.sha256, a.files['code:a.ts']!.sha256);
  // touched: hashed again, so the change is seen
  utimesSync(file, new Date(when.getTime() + 5000), new Date(when.getTime() + 5000));
  assert.notEqual(readInputs(src, a).files['code:a.ts']!.sha256, a.files['code:a.ts']!.sha256);
  // touched without a change: hashed again, the digest stays
  writeFileSync(file, 'export const a = 1;\n');
  utimesSync(file, new Date(when.getTime() + 9000), new Date(when.getTime() + 9000));
  assert.equal(readInputs(src, a).digest, a.digest);
  rmSync(dir, { recursive: true, force: true });
});

test('the files two builds differ by: added, dropped, changed in place; a recorded file still as it was', () => {
  const { dir, src } = fixture();
  writeFileSync(join(dir, 'log-2.parquet'), 'day two');
  const a = readInputs({ ...src, logFiles: { 'log:1': join(dir, 'log-1.parquet'), 'log:2': join(dir, 'log-2.parquet') } }, null);
  writeFileSync(join(dir, 'log-3.parquet'), 'day three');
  const b = readInputs({ ...src, logFiles: { 'log:2': join(dir, 'log-2.parquet'), 'log:3': join(dir, 'log-3.parquet') } }, a);
  assert.deepEqual(changedFiles(a, b), { added: ['log:3'], dropped: ['log:1'], changed: [] });
  assert.deepEqual(changedFiles(b, b), { added: [], dropped: [], changed: [] });
  assert.equal(fileUnchanged(join(dir, 'log-1.parquet'), a.files['log:1']!), true);
  writeFileSync(join(dir, 'log-2.parquet'), 'day two, late traces');
  utimesSync(join(dir, 'log-2.parquet'), new Date(), new Date(Date.now() + 5000));
  const c = readInputs({ ...src, logFiles: { 'log:2': join(dir, 'log-2.parquet'), 'log:3': join(dir, 'log-3.parquet') } }, b);
  assert.deepEqual(changedFiles(b, c), { added: [], dropped: [], changed: ['log:2'] });
  assert.equal(fileUnchanged(join(dir, 'log-2.parquet'), b.files['log:2']!), false);
  rmSync(join(dir, 'log-1.parquet'));
  assert.equal(fileUnchanged(join(dir, 'log-1.parquet'), a.files['log:1']!), false, 'a file gone is not as recorded');
  rmSync(dir, { recursive: true, force: true });
});
