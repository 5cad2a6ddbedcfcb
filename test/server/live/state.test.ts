// the stale rule (spec 1 rule 5) measured from what the server can trust, and logged on both edges
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LiveState } from '../../../server/live/state.ts';

const T0 = 1_795_312_400;
const snap = (now: number) => ({ now, aircraft: [{ hex: 'abcdef', lat: 50, lon: 8 }] });

test('a decoder clock running ahead cannot make a snapshot look younger than the time it is held', () => {
  const live = new LiveState({ maxAgeS: 60, eagerGzip: false });
  // stamped 4 s ahead of this server (inside the feed's tolerance), received at T0
  live.accept(snap(T0 + 4), T0);
  assert.equal(live.current((T0 + 60) * 1000).now, T0 + 4, 'served as live up to 60 s after arrival');
  assert.throws(
    () => live.current((T0 + 61) * 1000),
    (e: any) => e.status === 503 && e.code === 'stale_snapshot',
  );
  // a clock behind ours is its own truth: older is older
  live.accept(snap(T0 - 30), T0);
  assert.throws(
    () => live.current((T0 + 31) * 1000),
    (e: any) => e.code === 'stale_snapshot',
  );
});

test('the moment the live routes turn stale and the moment they recover are logged, once each', () => {
  const live = new LiveState({ maxAgeS: 60, eagerGzip: false });
  const logs: string[] = [];
  const levels: string[] = [];
  const log = (l: string, level = 'info') => {
    logs.push(l);
    levels.push(level);
  };
  live.watch(T0 * 1000, log);
  assert.equal(logs.length, 0, 'nothing before the first snapshot');
  live.accept(snap(T0), T0);
  for (let t = T0; t <= T0 + 70; t++) live.watch(t * 1000, log);
  assert.equal(logs.length, 1);
  assert.match(logs[0]!, /^live: the snapshot is 61 s old \(limit 60 s\): the feed has stopped updating; live routes answer 503 stale_snapshot$/);
  live.accept(snap(T0 + 71), T0 + 71);
  live.watch((T0 + 71) * 1000, log);
  live.watch((T0 + 72) * 1000, log);
  assert.equal(logs.length, 2);
  assert.match(logs[1]!, /^live: fresh snapshot again/);
  // stale needs an operator: a warning; the recovery is news
  assert.deepEqual(levels, ['warn', 'info']);
});

test('snapshots go live whole with their gzip made, in order of arrival, even when the feed clock jumps back', async () => {
  const live = new LiveState({ maxAgeS: 60 });
  await live.acceptWhenReady(snap(T0), T0);
  assert.ok(live.current(T0 * 1000).gzipReady(), 'the gzip was made before the snapshot went live');
  // two arrive back to back; the later one (whose clock went back an hour) is the one served, and it is stale
  const a = live.acceptWhenReady(snap(T0 + 1), T0 + 1);
  const b = live.acceptWhenReady(snap(T0 - 3600), T0 + 2);
  await Promise.all([a, b]);
  assert.throws(
    () => live.current((T0 + 2) * 1000),
    (e: any) => e.code === 'stale_snapshot',
  );
});
