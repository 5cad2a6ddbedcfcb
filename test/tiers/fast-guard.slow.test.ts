// the fast tier's guard (test/tiers/fast-guard.mjs) refuses what makes a test slow: a child process,
// a listening socket, a uWebSockets.js server; it lets the rest run (a worker thread, an app made
// but not listening). each case runs in a node of its own with the guard loaded as make check loads it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '..', '..');

/** `code` (an ES module) in a node with the guard: its exit status and stderr */
function underGuard(code: string): { status: number | null; stderr: string } {
  const r = spawnSync(process.execPath, ['--import', 'tsx', '--import', './test/tiers/fast-guard.mjs', '--input-type=module', '-e', code], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  return { status: r.status, stderr: r.stderr };
}

const RULE = /name this test file \*\.slow\.test\.ts/;

test('under the guard a child process, a listening socket and a uWebSockets.js server are refused, naming the slow tier', () => {
  for (const code of [
    "import { spawn } from 'node:child_process'; spawn('true');",
    "import { execFileSync } from 'node:child_process'; execFileSync('true');",
    "import cp from 'node:child_process'; cp.fork('x.js');",
    "import { createServer } from 'node:http'; createServer().listen(0);",
    "import { createServer } from 'node:net'; createServer().listen(0);",
    "const { loadNativeUws } = await import('./server/http/uws.ts'); loadNativeUws().App().listen('127.0.0.1', 0, () => {});",
  ]) {
    const r = underGuard(code);
    assert.notEqual(r.status, 0, code);
    assert.match(r.stderr, RULE, code);
  }
});

test('under the guard a worker thread runs and a uWebSockets.js app may be made without listening', () => {
  const r = underGuard(
    "import { Worker } from 'node:worker_threads'; const { loadNativeUws } = await import('./server/http/uws.ts'); loadNativeUws().App();" +
      "const w = new Worker('process.exit(0)', { eval: true }); w.on('exit', (c) => process.exit(c));",
  );
  assert.equal(r.status, 0, r.stderr);
});
