import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { sourceFiles } from './layout.ts';
import { messageLessAsserts } from './asserts.ts';

const ROOT = join(import.meta.dirname, '..', '..');

test('every assert.ok in the tests has a message (a failing one without could hang its file: asserts.ts says why)', () => {
  const found: string[] = [];
  for (const [file, text] of sourceFiles(ROOT)) {
    if (!file.startsWith('test/')) continue;
    for (const at of messageLessAsserts(file, text)) found.push(`${file}:${at}`);
  }
  assert.deepEqual(found, []);
});

test('the checker finds assert.ok(x) and assert(x) without a message, and passes those with one', () => {
  const text = `assert.ok(a);\nassert(b);\nassert.ok(c, 'c');\nassert(d, 'd');\nassert.equal(e, 1);\nother.ok(f);`;
  assert.deepEqual(messageLessAsserts('x.ts', text), ['1:1', '2:1']);
});
