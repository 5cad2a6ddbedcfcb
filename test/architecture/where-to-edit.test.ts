// docs/ARCHITECTURE.md "Where to edit" is kept true: ten common changes, each naming files that exist,
// and build/ (the nightly's source) is not ignored as output (issue 42 item 7).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '..', '..');
const doc = readFileSync(join(ROOT, 'docs/ARCHITECTURE.md'), 'utf8');

/** the table's rows under the heading: [change, files cell] */
function rows(): [string, string][] {
  const at = doc.indexOf('## Where to edit');
  assert.ok(at >= 0, 'docs/ARCHITECTURE.md has a "Where to edit" section');
  const section = doc.slice(at, doc.indexOf('\n## ', at + 1) === -1 ? undefined : doc.indexOf('\n## ', at + 1));
  return section
    .split('\n')
    .filter((l) => l.startsWith('| ') && !l.startsWith('| the change') && !/^\|[-| ]+\|$/.test(l))
    .map(
      (l) =>
        l
          .split('|')
          .slice(1, -1)
          .map((c) => c.trim()) as [string, string],
    );
}

/** backticked tokens that name a repository path: a folder/file, no placeholder, no command */
function pathsIn(cell: string): string[] {
  return [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1]!).filter((t) => /^[a-z]+\/[\w./-]*$/.test(t) && !t.includes('<'));
}

test('the where-to-edit table names ten changes, each with at least two files, all of which exist', () => {
  const table = rows();
  assert.equal(table.length, 10, table.map((r) => r[0]).join('; '));
  const missing: string[] = [];
  for (const [change, files] of table) {
    const paths = pathsIn(files);
    assert.ok(paths.length >= 2, `${change}: ${paths.length} files named`);
    for (const p of paths) if (!existsSync(join(ROOT, p))) missing.push(`${change}: ${p}`);
  }
  assert.deepEqual(missing, [], 'paths in the where-to-edit table that do not exist');
});

test('the path reader takes files and folders and skips commands and placeholders', () => {
  assert.deepEqual(pathsIn('`server/app.ts` (`routesOf`), `web/map/`, `build/steps/<kind>/`, `npm run docs`, `var/x`'), ['server/app.ts', 'web/map/', 'var/x']);
});

test('build/ is source: no ignore rule of the repository covers it', () => {
  const rules = readFileSync(join(ROOT, '.gitignore'), 'utf8')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'));
  assert.deepEqual(
    rules.filter((r) => /^\/?build\/?(\*.*)?$/.test(r) || r === '**/build' || r === 'build*'),
    [],
    'an ignore rule names build/',
  );
  assert.match(doc, /`build\/` is \*\*source\*\*/);
});
