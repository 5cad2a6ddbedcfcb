// the rate limits every serving thread shares (server/http/thread-limits.ts): the same answers as
// the in-memory RateLimiter on one thread, exact budgets across threads, bounded memory.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ThreadLimits } from '../../../server/http/thread-limits.ts';
import { RateLimiter } from '../../../server/http/ratelimit.ts';
import { tsWorker } from '../../../lib/ts-worker.ts';

const T0 = Date.UTC(2026, 10, 25, 12, 0, 0);
const WINDOW = 600;

test('one thread: the same decisions as RateLimiter, window by window', () => {
  const shared = new ThreadLimits(ThreadLimits.allocate(T0), WINDOW);
  const mem = new RateLimiter(WINDOW);
  const steps = [0, 1000, 2000, 3000, 4000, 300_000, 599_000, 600_000, 601_000, 602_000, 1_300_000];
  for (const dt of steps) {
    for (const client of ['198.51.100.1', '2001:db8::/64']) {
      const a = shared.hit('point', client, 3, T0 + dt);
      const b = mem.hit('point', client, 3, T0 + dt);
      assert.deepEqual({ ...a }, { ...b }, `at +${dt} ms for ${client}`);
    }
  }
  // buckets are apart: a spent point budget leaves the aircraft one whole
  assert.equal(shared.hit('aircraft', '198.51.100.1', 3, T0 + 1_300_500).remaining, 2);
});

test('two threads hammering one client: exactly the limit is allowed', async () => {
  const memory = ThreadLimits.allocate(T0);
  const job = { memory, windowS: WINDOW, nowMs: T0 + 5000, clients: ['198.51.100.7'], hits: 20_000, limit: 15_000, opens: 50, maxOpen: 40 };
  const run = () =>
    new Promise<{ allowed: number; opened: number }>((resolve, reject) => {
      const w = tsWorker(new URL('../../helpers/limits-worker.ts', import.meta.url));
      w.once('message', (m) => {
        resolve(m);
        void w.terminate();
      });
      w.once('error', reject);
      w.postMessage(job);
    });
  const [a, b] = await Promise.all([run(), run()]);
  assert.equal(a.allowed + b.allowed, 15_000, `allowed ${a.allowed} + ${b.allowed}`);
  assert.equal(a.opened + b.opened, 40, `streams opened ${a.opened} + ${b.opened}`);
  const here = new ThreadLimits(memory, WINDOW);
  assert.equal(here.hit('point', '198.51.100.7', 15_000, T0 + 6000).allowed, false);
  assert.equal(here.opened('203.0.113.9'), 40);
});

test('open streams: counted to the maximum, freed on close, the slot reused at zero', () => {
  const t = new ThreadLimits(ThreadLimits.allocate(T0, { slots: 32, overflowSlots: 1, gaugeSlots: 32 }), WINDOW);
  assert.equal(t.open('a', 2), true);
  assert.equal(t.open('a', 2), true);
  assert.equal(t.open('a', 2), false);
  t.close('a');
  assert.equal(t.opened('a'), 1);
  assert.equal(t.open('a', 2), true);
  t.close('a');
  t.close('a');
  t.close('a'); // one close too many never goes below zero
  assert.equal(t.opened('a'), 0);
  // 31 other clients fit in the 31 usable slots only because a's slot, back at zero, is free again
  let opened = 0;
  for (let i = 0; i < 31; i++) if (t.open(`client-${i}`, 1)) opened++;
  assert.equal(opened, 31);
});

test('a client the gauges cannot count is refused (fail closed), never let through uncounted; a closed stream makes room', () => {
  const t = new ThreadLimits(ThreadLimits.allocate(T0, { slots: 32, overflowSlots: 1, gaugeSlots: 32 }), WINDOW);
  for (let i = 0; i < 31; i++) assert.equal(t.reserve(`holder-${i}`, 8), 'opened');
  // every usable slot holds an open stream of another client
  const tries = Array.from({ length: 30 }, () => t.reserve('203.0.113.5', 8));
  assert.deepEqual(tries, Array(30).fill('uncounted'));
  assert.equal(t.open('203.0.113.5', 8), false);
  assert.equal(t.opened('203.0.113.5'), -1, 'not countable, and said so');
  t.close('holder-7');
  assert.deepEqual(
    Array.from({ length: 9 }, () => t.reserve('203.0.113.5', 8)),
    [...Array(8).fill('opened'), 'at_cap'],
  );
});

test('a flood of addresses through the rate limits leaves the open-stream cap whole (its gauges are a region of their own)', () => {
  const t = new ThreadLimits(ThreadLimits.allocate(T0, { slots: 32, overflowSlots: 4, gaugeSlots: 32 }), WINDOW);
  for (let i = 0; i < 20_000; i++) t.hit(i % 2 ? 'stream' : 'aircraft', `flood-${i}`, 300, T0 + i);
  assert.ok(t.overflowHits > 19_000, 'the windows are full: newcomers share the overflow windows');
  // 30 upgrades from one address where the cap is 8: 8 open
  const tries = Array.from({ length: 30 }, () => t.reserve('198.51.100.30', 8));
  assert.equal(tries.filter((r) => r === 'opened').length, 8);
  assert.deepEqual(tries.slice(8), Array(22).fill('at_cap'));
  assert.equal(t.opened('198.51.100.30'), 8);
});

test('a full table: newcomers share overflow windows, a spent budget is never handed back', () => {
  const t = new ThreadLimits(ThreadLimits.allocate(T0, { slots: 32, overflowSlots: 4 }), WINDOW);
  // the first client spends its budget
  for (let i = 0; i < 2; i++) t.hit('point', 'spender', 2, T0);
  assert.equal(t.hit('point', 'spender', 2, T0).allowed, false);
  // a flood of new addresses within the window
  for (let i = 0; i < 200; i++) t.hit('point', `flood-${i}`, 2, T0 + 1000);
  assert.ok(t.overflowHits > 0, 'newcomers went to the overflow windows');
  assert.equal(t.hit('point', 'spender', 2, T0 + 2000).allowed, false, 'still limited: its window was not pushed out');
  // once the windows end, their slots take new clients again
  assert.equal(t.hit('point', 'later', 2, T0 + WINDOW * 1000 + 1000).allowed, true);
  assert.equal(t.hit('point', 'spender', 2, T0 + WINDOW * 1000 + 1000).remaining, 1);
});

test('a malformed table shape is refused', () => {
  assert.throws(() => ThreadLimits.allocate(T0, { slots: 100 }), /power of two/);
  assert.throws(() => ThreadLimits.allocate(T0, { slots: 16 }), /power of two >= 32/);
  assert.throws(() => ThreadLimits.allocate(T0, { overflowSlots: 0 }), /overflowSlots/);
  assert.throws(() => ThreadLimits.allocate(T0, { gaugeSlots: 48 }), /gaugeSlots must be a power of two >= 32/);
});
