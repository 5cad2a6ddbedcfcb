// the fast tier in one process (make check): every test file not named *.slow.test.ts imported in
// turn, so node and tsx start once instead of once per file, about 1 s of a 2-core machine each
// (docs/ARCHITECTURE.md "Tests"). make test runs it too (fast-tier.ts), beside one process per slow file.
import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';

const ROOT = join(import.meta.dirname, '..', '..');

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return e.name === 'fixtures' ? [] : testFiles(p);
    return e.name.endsWith('.test.ts') && !e.name.endsWith('.slow.test.ts') ? [p] : [];
  });
}

const only = process.argv.slice(2);
const files = testFiles(join(ROOT, 'test'))
  .map((p) => relative(ROOT, p))
  .filter((f) => !only.length || only.some((o) => f.startsWith(o)))
  .sort();
for (const f of files) await import(pathToFileURL(join(ROOT, f)).href);
