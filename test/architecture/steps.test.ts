// one room per nightly step (docs/ARCHITECTURE.md, "the nightly"): each folder of build/steps/ is
// one step of the pipeline, holding its declaration (step.ts) and the step (build.ts), and no file
// there shares a basename with the pure document builders in artifacts/, so neither is mistaken
// for the other.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { PIPELINE } from '../../build/steps/pipeline.ts';
const ROOT = join(import.meta.dirname, '..', '..');
const STEPS = join(ROOT, 'build/steps');
const folders = () =>
  readdirSync(STEPS, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
const tsFiles = (dir: string): string[] =>
  readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts'))
    .map((f) => join(dir, f));

test('each folder of build/steps/ is one step of the pipeline, with its declaration and code; each step but the reference airports is a folder', async () => {
  for (const kind of folders()) {
    for (const f of ['step.ts', 'build.ts']) assert.ok(existsSync(join(STEPS, kind, f)), `build/steps/${kind}/${f}`);
    const declared = Object.values(await import(join(STEPS, kind, 'step.ts'))).filter((v) => PIPELINE.includes(v as never));
    assert.deepEqual(
      declared.map((s) => (s as { name: string }).name),
      [kind],
      `build/steps/${kind}/step.ts declares the pipeline's step ${kind}`,
    );
  }
  assert.deepEqual(
    PIPELINE.map((s) => s.name)
      .filter((n) => n !== 'reference airports')
      .sort(),
    folders(),
  );
});

test('no file of build/steps/ shares a basename with one of artifacts/', () => {
  const documents = new Set(tsFiles(join(ROOT, 'artifacts')).map((f) => basename(f)));
  assert.ok(documents.has('airframe-doc.ts') && documents.size > 10, 'the document builders are read');
  assert.deepEqual(
    tsFiles(STEPS)
      .filter((f) => documents.has(basename(f)))
      .map((f) => f.slice(ROOT.length + 1)),
    [],
  );
});
