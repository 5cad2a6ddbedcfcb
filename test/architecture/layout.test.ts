import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { relativeImports, sourceFiles, wrongWayImports } from './layout.ts';

const ROOT = join(import.meta.dirname, '..', '..');

test('no import goes the wrong way between top-level folders (lib <- schemas <- artifacts <- {build, server} <- sim)', () => {
  const wrong = wrongWayImports(sourceFiles(ROOT));
  assert.deepEqual(wrong.map((w) => `${w.file} imports ${w.specifier} (${w.from} -> ${w.to})`), []);
});

test('the checker sees static, type-only, re-export and dynamic imports', () => {
  const src = `import a from './a.ts';\nimport type { B } from '../b.ts';\nexport { c } from "./c.ts";\nconst d = await import('../../d.ts');\nimport './side.ts';`;
  assert.deepEqual(relativeImports(src), ['./a.ts', '../b.ts', './c.ts', '../../d.ts', './side.ts']);
});

const BENCH = 'bench';
const DOCS = 'docs';

test('the checker flags upward and sideways imports and allows downward ones; test/bench/ may import bench/, test/docs/ docs/', () => {
  const files = new Map([
    ['lib/geo.ts', `import { x } from '../schemas/index.ts';`],
    ['build/a/b.ts', `import { y } from '../../server/http/uws.ts';\nimport { z } from '../../artifacts/keys.ts';`],
    ['server/main.ts', `import { w } from '../lib/geo.ts';\nimport { v } from './app.ts';`],
    ['sim/demo.ts', `import { u } from '../build/nightly.ts';`],
    ['server/x.ts', `import { t } from '../sim/world.ts';`],
    // the folder's name spliced in, so the checker does not read these two lines of this file as imports of bench/
    ['test/bench/score.test.ts', `import { s } from '../../${BENCH}/accuracy/score.ts';`],
    ['test/server/x.test.ts', `import { r } from '../../${BENCH}/live.ts';`],
    // docs/gen may import build and server; only test/docs/ may import docs, and bench may not
    ['docs/gen/x.ts', `import { q } from '../../build/nightly.ts';\nimport { p } from '../../server/config.ts';`],
    ['test/docs/x.test.ts', `import { o } from '../../${DOCS}/gen/generate.ts';`],
    ['test/lib/x.test.ts', `import { n } from '../../${DOCS}/gen/generate.ts';`],
    ['bench/x.ts', `import { m } from '../${DOCS}/gen/generate.ts';`],
  ]);
  assert.deepEqual(wrongWayImports(files).map((w) => `${w.from}->${w.to}`), ['lib->schemas', 'build->server', 'server->sim', 'test->bench', 'test->docs', 'bench->docs']);
});
