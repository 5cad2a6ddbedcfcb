import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BlockError, blockNames, cell, fillBlocks, table } from '../../../docs/gen/blocks.ts';

const gens = new Map([
  ['a', () => 'A now'],
  ['b', () => 'B now\n\n'],
]);

test('a block is remade by its generator and everything outside it is kept as written', () => {
  const text = 'intro\n<!-- generated: a -->\nA before\n<!-- end generated -->\nmiddle\n<!-- generated: b -->\n<!-- end generated -->\nend\n';
  assert.deepEqual(blockNames(text), ['a', 'b']);
  assert.equal(
    fillBlocks(text, gens),
    'intro\n<!-- generated: a -->\n\nA now\n\n<!-- end generated -->\nmiddle\n<!-- generated: b -->\n\nB now\n\n<!-- end generated -->\nend\n',
  );
  // made twice, the same: an up-to-date file compares equal to its regeneration
  const once = fillBlocks(text, gens);
  assert.equal(fillBlocks(once, gens), once);
  assert.notEqual(once, text, 'a stale block is seen');
});

test('an unknown generator or a block without its end marker is an error that says which', () => {
  assert.throws(
    () => fillBlocks('<!-- generated: c -->\nx\n<!-- end generated -->\n', gens),
    (e: Error) => e instanceof BlockError && /no generator named "c"/.test(e.message),
  );
  assert.throws(
    () => blockNames('<!-- generated: a -->\nx\n'),
    (e: Error) => e instanceof BlockError && /"a" has no <!-- end generated -->/.test(e.message),
  );
});

test('table cells stay on one line, keep their pipes, and show a <placeholder> as text, not as a tag', () => {
  assert.equal(cell('a | b\nc'), 'a \\| b c');
  assert.equal(cell('at <version>/manifest.json, `<key>.gz` as typed'), 'at &lt;version>/manifest.json, `<key>.gz` as typed');
  assert.equal(table(['x', 'y'], [['1', 'p|q']]), '| x | y |\n|---|---|\n| 1 | p\\|q |');
});
