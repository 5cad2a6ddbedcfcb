// every bench answers --help without measuring anything (guide: every command has --help). a bench
// either reads the flag itself or imports bench/help.ts first, which prints its opening comment.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { openingComment } from '../../bench/help.ts';
import { ROOT, runScript } from '../helpers/processes.ts';

const BENCH = join(ROOT, 'bench');
// modules the benches share, not commands
const LIBRARIES = new Set([
  'alternate.ts',
  'flags.ts',
  'help.ts',
  'build-harness.ts',
  'keepalive.ts',
  'remove-later.ts',
  'peak-memory.ts',
  'routed-log.ts',
  's3rver.ts',
]);

test('every bench handles --help, itself or through bench/help.ts', () => {
  const commands = readdirSync(BENCH).filter((f) => f.endsWith('.ts') && !LIBRARIES.has(f));
  assert.ok(commands.length >= 20, `${commands.length} benches`);
  const without = commands.filter((f) => {
    const src = readFileSync(join(BENCH, f), 'utf8');
    return !src.includes("import './help.ts';") && !/'--help'|"--help"|help:/.test(src);
  });
  assert.deepEqual(without, []);
});

test('a bench without flags of its own prints its opening comment for --help and exits 0 without running', () => {
  // ratelimit would start servers and measure; --help must return at once
  const { stdout } = runScript('bench/ratelimit.ts', ['--help']);
  assert.equal(stdout.trim(), openingComment(readFileSync(join(BENCH, 'ratelimit.ts'), 'utf8')).trim());
  assert.ok(stdout.length > 40, stdout);
});

test('openingComment takes the leading // lines only, without their slashes', () => {
  assert.equal(openingComment('// one\n//two\n// three\nimport x;\n// not this'), 'one\ntwo\nthree');
  assert.equal(openingComment('import x;\n// later'), '');
});
