import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { backwardImports, importCircles, importGraph, relativeImports, sourceFiles, wrongWayImports } from './layout.ts';

const ROOT = join(import.meta.dirname, '..', '..');

test('no import goes the wrong way between top-level folders (lib <- schemas <- artifacts <- {build, server} <- sim)', () => {
  const wrong = wrongWayImports(sourceFiles(ROOT));
  assert.deepEqual(
    wrong.map((w) => `${w.file} imports ${w.specifier} (${w.from} -> ${w.to})`),
    [],
  );
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
  assert.deepEqual(
    wrongWayImports(files).map((w) => `${w.from}->${w.to}`),
    ['lib->schemas', 'build->server', 'server->sim', 'test->bench', 'test->docs', 'bench->docs'],
  );
});

test('no file imports itself again through a chain of imports (import type included)', () => {
  const circles = importCircles(importGraph(sourceFiles(ROOT)));
  assert.deepEqual(
    circles.map((c) => c.join(' -> ')),
    [],
  );
});

test('a snapshot travels one way in server/: feed/ <- parts/ <- ingest/ <- live/ (feed/ and ingest/ never import live/)', () => {
  const back = backwardImports(sourceFiles(ROOT));
  assert.deepEqual(
    back.map((w) => `${w.file} imports ${w.specifier} (${w.from} -> ${w.to})`),
    [],
  );
});

/** a made-up graph: each file's imports by name */
const graphOf = (edges: Record<string, string[]>) => new Map(Object.entries(edges));

test('the circle finder finds a 2-circle, a 3-circle and a self-import, each as one closed path, and nothing in a DAG', () => {
  assert.deepEqual(importCircles(graphOf({ a: ['b'], b: ['a'] })), [['a', 'b', 'a']]);
  assert.deepEqual(importCircles(graphOf({ c: ['a'], a: ['b'], b: ['c'] })), [['a', 'b', 'c', 'a']]);
  assert.deepEqual(importCircles(graphOf({ a: ['a', 'b'], b: [] })), [['a', 'a']]);
  // a diamond with a tail: two paths to d, none back
  assert.deepEqual(importCircles(graphOf({ a: ['b', 'c'], b: ['d'], c: ['d'], d: ['e'], e: [] })), []);
  // two circles apart, a DAG hanging off one, and an edge to a file outside the graph
  const two = importCircles(graphOf({ x: ['y', 'p'], y: ['z', 'x'], z: [], p: ['q'], q: ['r', 'outside'], r: ['p'] }));
  assert.deepEqual(two, [
    ['p', 'q', 'r', 'p'],
    ['x', 'y', 'x'],
  ]);
  // one component with two circles through its first file: the shortest is shown
  assert.deepEqual(importCircles(graphOf({ a: ['b', 'c'], b: ['c'], c: ['a'] })), [['a', 'c', 'a']]);
});

test('the circle finder walks a long chain without running out of stack', () => {
  const n = 50_000;
  const chain = graphOf(Object.fromEntries(Array.from({ length: n }, (_, i) => [`f${i}`, [`f${(i + 1) % n}`]])));
  const [circle] = importCircles(chain);
  assert.equal(circle?.length, n + 1);
  chain.set(`f${n - 1}`, []);
  assert.deepEqual(importCircles(chain), []);
});

test('the import graph resolves relative specifiers between the files given, type-only imports included', () => {
  const files = new Map([
    ['server/feed/record.ts', `import type { SnapshotParts } from '../live/prepare.ts';`],
    ['server/live/prepare.ts', `import type { FeedSnapshot } from '../feed/record.ts';\nimport { wireOf } from '../feed/wire.ts';`],
    ['server/feed/wire.ts', `import { WIRE_FIELDS } from './record.ts';\nimport { geo } from '../../lib/geo.ts';`],
    ['server/app.ts', `export { x } from './feed/wire.ts';\nconst m = await import('./app.ts');`],
  ]);
  const graph = importGraph(files);
  assert.deepEqual(Object.fromEntries(graph), {
    'server/feed/record.ts': ['server/live/prepare.ts'],
    'server/live/prepare.ts': ['server/feed/record.ts', 'server/feed/wire.ts'],
    'server/feed/wire.ts': ['server/feed/record.ts'],
    'server/app.ts': ['server/feed/wire.ts', 'server/app.ts'],
  });
  assert.deepEqual(importCircles(graph), [
    ['server/app.ts', 'server/app.ts'],
    ['server/feed/record.ts', 'server/live/prepare.ts', 'server/feed/record.ts'],
  ]);
});

test('the snapshot-path checker flags feed/ or ingest/ reading live/ and any other step back; forward imports pass', () => {
  const files = new Map([
    ['server/feed/record.ts', `import type { SnapshotParts } from '../live/prepare.ts';`],
    ['server/ingest/followers.ts', `import { RecordView } from '../live/columns.ts';\nimport type { FeedSnapshot } from '../feed/record.ts';`],
    ['server/parts/prepare.ts', `import { wireOf } from '../feed/wire.ts';\nimport type { Arrival } from '../ingest/arrival.ts';`],
    ['server/feed/cap.ts', `import { x } from '../parts/prepare.ts';`],
    ['server/live/state.ts', `import type { SnapshotParts } from '../parts/prepare.ts';\nimport type { Arrival } from '../ingest/arrival.ts';`],
    ['server/serve/serve-worker.ts', `import { LiveState } from '../live/state.ts';`],
    ['server/ingest/source.ts', `import { Longest } from '../loop-stall.ts';`],
  ]);
  assert.deepEqual(
    backwardImports(files).map((w) => `${w.file}: ${w.from} -> ${w.to}`),
    [
      'server/feed/record.ts: server/feed -> server/live',
      'server/ingest/followers.ts: server/ingest -> server/live',
      'server/parts/prepare.ts: server/parts -> server/ingest',
      'server/feed/cap.ts: server/feed -> server/parts',
    ],
  );
});
