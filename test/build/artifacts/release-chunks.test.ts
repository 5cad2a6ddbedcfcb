// releaseReadChunks (build/artifacts/duck.ts): the airframes step calls it between batches so that
// DuckDB chunks already read, whose native memory V8 does not see, are freed now and not whenever
// V8 next collects. what must hold: it runs a full collection (an object nothing refers to any more
// is gone after it), in a process started without --expose-gc, and it can be called again.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { releaseReadChunks } from '../../../build/artifacts/duck.ts';

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
