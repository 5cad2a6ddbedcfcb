// releaseReadChunks (build/steps/duck.ts): the airframes step calls it between batches so that
// DuckDB chunks already read, whose native memory V8 does not see, are freed now and not whenever
// V8 next collects. what must hold: it runs a full collection (an object nothing refers to any more
// is gone after it), in a process started without --expose-gc, and it can be called again; and
// collectOnHeapGrowth, the schedules' gate on it, runs it only once V8's heap has grown enough.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { collectOnHeapGrowth, releaseReadChunks } from '../../../build/steps/duck.ts';

/** a WeakRef to an object nothing else refers to, made in a job of its own */
function unreachable(): WeakRef<object> {
  return new WeakRef({ payload: new Array(1000).fill(0) });
}

test('it collects what nothing refers to, without --expose-gc on the command line, call after call', async () => {
  assert.equal(typeof (globalThis as { gc?: unknown }).gc, 'undefined', 'this test process has no gc() of its own');
  for (let i = 0; i < 2; i++) {
    const ref = unreachable();
    // a WeakRef keeps its target alive until the job that made it (or last called deref) ends
    await new Promise((r) => setImmediate(r));
    releaseReadChunks();
    assert.equal(ref.deref(), undefined, `call ${i + 1}: the unreachable object was collected`);
  }
});

test('collectOnHeapGrowth collects only once the heap has grown by the given bytes since the last collection', () => {
  const MB = 2 ** 20;
  // the committed heap the loop sees at each look: it begins at 800 MB
  const sizes = [800, 900, 1300, 1400, 1000, 1200, 1600, 1700];
  let collections = 0;
  const collect = collectOnHeapGrowth(
    512 * MB,
    () => sizes.shift()! * MB,
    () => collections++,
  );
  collect(); // 900: +100
  assert.equal(collections, 0, 'no collection before the heap grew by 512 MB');
  collect(); // 1300: +500, still under
  collect(); // 1400: +600: collected, and the heap after it (1000) is the new base
  assert.equal(collections, 1);
  collect(); // 1200: +200 over the new base
  collect(); // 1600: +600: collected again
  assert.equal(collections, 2);
  assert.equal(sizes.length, 0, 'the heap is looked at after each collection');
});
