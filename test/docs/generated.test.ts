// the generated blocks of the docs (GENERATED_FILES in docs/gen/generate.ts) are what `npm run docs`
// makes from the code now: a config spec, an artifact kind, a schema or an operation changed without
// the docs fails here, with the command that fixes it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { COMMANDS, GENERATED_FILES, ROOT, generators, regenerate } from '../../docs/gen/generate.ts';
import { blockNames } from '../../docs/gen/blocks.ts';
import { sourceFiles } from '../architecture/layout.ts';

test('every generated block is up to date (npm run docs)', () => {
  for (const r of regenerate()) {
    if (r.next === r.current) continue;
    const at = r.current.split('\n').findIndex((l, i) => l !== r.next.split('\n')[i]);
    assert.fail(`${r.file} is out of date from line ${at + 1}: run \`npm run docs\` and commit the result`);
  }
});

test('every generator has its block in one of the files, once', () => {
  const names = GENERATED_FILES.flatMap((f) => blockNames(readFileSync(join(ROOT, f), 'utf8')));
  assert.deepEqual([...names].sort(), [...generators().keys()].sort());
});

test('every command with lib/cli.ts specs has its table: each file that declares specs is a source of one', () => {
  const sources = new Set(COMMANDS.flatMap((c) => c.sources));
  const declaring = [...sourceFiles(ROOT)]
    .filter(([file, text]) => !file.startsWith('test/') && !file.startsWith('bench/') && !file.startsWith('docs/') && /:\s*Specs<\w+>\s*=/.test(text))
    .map(([file]) => file);
  assert.ok(declaring.length >= 10, `found ${declaring.length} files declaring specs`);
  assert.deepEqual(
    declaring.filter((f) => !sources.has(f)),
    [],
    'add the command to COMMANDS in docs/gen/generate.ts and a block to docs/operating.md',
  );
});
