// the budget for unsent stream bytes over every serving thread (server/stream/budget.ts): each
// thread's slot, their sum, when upgrades stop, each thread's share when over, and who is closed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { slowestOver, StreamBudget } from '../../../server/stream/budget.ts';

const MiB = 1024 * 1024;

test("the threads' slots add up; the budget is full from its limit on, and never without one", () => {
  const memory = StreamBudget.allocate(2);
  const main = new StreamBudget(memory, 0, 10 * MiB);
  const worker = new StreamBudget(memory, 1, 10 * MiB);
  main.set(4 * MiB);
  worker.set(5 * MiB);
  assert.equal(main.total(), 9 * MiB);
  assert.equal(worker.total(), 9 * MiB, "each thread sees the other's");
  assert.equal(main.full(), false);
  worker.set(6 * MiB);
  assert.equal(main.full(), true, 'at the limit: no new stream');
  // a count rounds up to a KiB: one byte unsent is not nothing
  main.set(1);
  assert.equal(main.total(), 6 * MiB + 1024);
  const off = new StreamBudget(memory, 0, 0);
  off.set(100 * MiB);
  assert.equal(off.full(), false);
  assert.equal(off.keep(100 * MiB), null);
  assert.throws(() => new StreamBudget(memory, 2, MiB), /thread 2 has no slot \(2 threads\)/);
});

test('over the budget each thread keeps its share, in proportion to what it holds; within it, null', () => {
  const memory = StreamBudget.allocate(2);
  const main = new StreamBudget(memory, 0, 12 * MiB);
  const worker = new StreamBudget(memory, 1, 12 * MiB);
  main.set(6 * MiB);
  worker.set(6 * MiB);
  assert.equal(main.keep(6 * MiB), null, 'at the limit, not over it');
  worker.set(18 * MiB);
  // 24 MiB held for a 12 MiB budget: each keeps half of what it holds
  assert.equal(main.keep(6 * MiB), 3 * MiB);
  assert.equal(worker.keep(18 * MiB), 9 * MiB);
});

test('the slowest clients go first, as few as it takes', () => {
  assert.deepEqual(slowestOver([5, 1, 9, 3], 20), [], 'within: nobody');
  assert.deepEqual(slowestOver([5, 1, 9, 3], 9), [2], '18 -> 9: the one with 9 unsent');
  assert.deepEqual(slowestOver([5, 1, 9, 3], 4), [2, 0], '18 -> 4: 9 and 5 go');
  assert.deepEqual(slowestOver([5, 1, 9, 3], 3), [2, 0, 3], '18 -> 1: 9, 5 and 3 go');
  assert.deepEqual(slowestOver([5, 1, 9, 3], 0), [2, 0, 3, 1]);
  assert.deepEqual(slowestOver([4, 4, 4], 5), [0, 1], 'ties: the earlier first');
  assert.deepEqual(slowestOver([], 0), []);
});
