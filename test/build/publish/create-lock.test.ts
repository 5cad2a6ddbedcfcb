// the lock the write workers share around creating files (build/publish/create-lock.ts): two
// threads never hold it at once, and a failure inside it frees it for the other.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { tsWorker } from '../../../lib/ts-worker.ts';
import { createLock, withCreateLock } from '../../../build/publish/create-lock.ts';

test('two threads taking the lock 50 times each are never inside it together', async () => {
  const lock = createLock();
  const shared = new Int32Array(new SharedArrayBuffer(8));
  const workers = [0, 1].map(() => tsWorker(new URL('../../helpers/create-lock-worker.ts', import.meta.url), { workerData: { lock, shared, rounds: 50 } }));
  await Promise.all(workers.map((w) => once(w, 'message')));
  await Promise.all(workers.map((w) => w.terminate()));
  assert.equal(shared[1], 1, 'at most one thread inside the lock at any time');
  assert.equal(shared[0], 0, 'every thread left the lock');
  assert.equal(lock[0], 0, 'the lock is free at the end');
});

test('a throw inside the lock frees it and reaches the caller', () => {
  const lock = createLock();
  assert.throws(
    () =>
      withCreateLock(lock, () => {
        throw new Error('ENOSPC');
      }),
    /ENOSPC/,
  );
  assert.equal(lock[0], 0, 'the lock is free after the throw');
  assert.equal(
    withCreateLock(lock, () => 7),
    7,
    'the lock can be taken again and returns the value',
  );
});
