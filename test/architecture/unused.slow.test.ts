// nothing exported that nothing imports, no file nothing reaches, no dependency nothing uses:
// knip over the whole tree (knip.json names the entry points).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '..', '..');

test('knip finds no unused export, file or dependency', () => {
  const r = spawnSync(join(ROOT, 'node_modules', '.bin', 'knip'), ['--no-progress', '--no-config-hints'], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
  assert.equal(r.error, undefined, `knip did not run: ${r.error?.message}`);
  assert.equal(r.status, 0, `knip found unused code (remove it, or drop its \`export\` when only its own file uses it):\n${r.stdout}${r.stderr}`);
});
