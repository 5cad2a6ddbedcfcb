// the trace store and the estimator take each snapshot in slices, between requests: they end in
// the same state as taking it whole, whether the snapshot came as records or as prepared parts
// (read through the columns' view), snapshots are taken in arrival order, and a follower that
// throws neither stops the others nor the next snapshot.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { Followers, type Follower } from '../../../server/ingest/followers.ts';
import { parseFeed } from '../../../server/feed/parse.ts';
import type { AircraftRecord, FeedSnapshot } from '../../../server/feed/record.ts';
import { prepareParts, type SnapshotParts } from '../../../server/parts/prepare.ts';
import { RecordView } from '../../../server/parts/columns.ts';
import { SearchIndex } from '../../../server/parts/search-index.ts';
import { TraceStore } from '../../../server/trace/trace-store.ts';
import { Tracker } from '../../../server/estimate/tracker.ts';

const BIG = gunzipSync(readFileSync(new URL('../../../bench/data/readsb_aircraft_12k.json.gz', import.meta.url)));
const base = parseFeed(BIG);
assert.ok(base.ok, 'base.ok');
const T0 = base.snapshot.now;

/** the 12k snapshot moved on `k` seconds: every aircraft heard again a little further on */
function moved(k: number): FeedSnapshot {
  return {
    now: T0 + k,
    aircraft: base.ok ? base.snapshot.aircraft.map((a) => (a.lat === undefined ? a : { ...a, lat: a.lat + k * 0.01, lon: a.lon! + k * 0.01 })) : [],
  };
}

/** the same snapshot as the ingest thread hands it over: parts only, no records */
const asPrepared = (s: FeedSnapshot): SnapshotParts => prepareParts(s);

/** run queued slices at once, in order (the server uses setImmediate) */
function inline() {
  const q: (() => void)[] = [];
  const defer = (f: () => void) => void q.push(f);
  const drain = () => {
    while (q.length) q.shift()!();
  };
  return { defer, drain, next: () => q.shift()!(), slices: () => q.length };
}

test('the columns view reads back every record field the followers use', () => {
  const snap = moved(0);
  // text beyond ASCII too (a simulator's records may carry it; the feed's are printable ASCII)
  snap.aircraft[1] = { ...snap.aircraft[1]!, flight: 'ÄB1', r: 'D-ÉFGH' };
  const p = prepareParts(snap);
  const search = new SearchIndex(p.search);
  const view = new RecordView(p.columns, p.posLat, p.posLon, (i) => search.hexOf(i));
  const keys = ['hex', 'flight', 't', 'r', 'lat', 'lon', 'alt_baro', 'gs', 'track', 'category', 'seen', 'seen_pos', 'baro_rate', 'emergency'] as const;
  snap.aircraft.forEach((a, i) => {
    const v = view.at(i);
    for (const k of keys) assert.equal(v[k], a[k], `record ${i} (${a.hex}) field ${k}`);
  });
});

test('taken in slices, as records or as prepared parts, the followers end as if they took it whole', () => {
  const whole = { traces: new TraceStore({ minutes: 30 }), tracker: new Tracker({ destinationOf: () => null, appearAfterS: 1 }) };
  const runs = [false, true].map((prepared) => {
    const traces = new TraceStore({ minutes: 30 });
    const tracker = new Tracker({ destinationOf: () => null, appearAfterS: 1 });
    const q = inline();
    const f = new Followers([traces, tracker], { chunk: 777, budgetMs: 0, defer: q.defer, log: (l) => assert.fail(l) });
    for (let k = 0; k < 3; k++) f.push(prepared ? asPrepared(moved(k)) : moved(k));
    assert.ok(f.pending > 0, 'slices wait for their turn');
    q.drain();
    assert.equal(f.pending, 0);
    return { traces, tracker };
  });
  for (let k = 0; k < 3; k++) {
    whole.traces.update(moved(k));
    whole.tracker.ingest(moved(k));
  }
  const hexes = base.ok ? base.snapshot.aircraft.map((a) => a.hex) : [];
  for (const r of runs) {
    assert.equal(r.traces.size, whole.traces.size);
    for (const hex of hexes.slice(0, 500)) assert.deepEqual(r.traces.get(hex, T0 + 2), whole.traces.get(hex, T0 + 2), hex);
    assert.equal(r.tracker.size, whole.tracker.size);
    assert.equal(r.tracker.lastSnapshotS, T0 + 2);
    assert.deepEqual(r.tracker.list(T0 + 200), whole.tracker.list(T0 + 200));
  }
  assert.ok(whole.tracker.list(T0 + 200).length > 1000, 'the comparison covers a real number of estimates');
});

test('the estimator shows a snapshot only when all its slices are in', () => {
  const tracker = new Tracker({ destinationOf: () => null });
  const q = inline();
  const f = new Followers([tracker], { chunk: 1000, budgetMs: 0, defer: q.defer, log: () => {} });
  f.push(moved(0));
  assert.equal(tracker.lastSnapshotS, null, 'nothing taken on arrival: the first slice waits for the next turn of the loop');
  q.defer(() => {}); // a marker: what runs before it is the first slice
  q.next();
  assert.equal(tracker.lastSnapshotS, null, 'one slice in: the snapshot is not the newest yet');
  q.drain();
  assert.equal(tracker.lastSnapshotS, T0);
});

test('a follower that throws is logged and neither stops the others nor the next snapshot', () => {
  const logs: string[] = [];
  const seen: number[] = [];
  const broken: Follower = {
    begin: () => true,
    takeOne: () => {
      throw new Error('boom');
    },
    end: () => {},
  };
  const counter: Follower = { begin: () => true, takeOne: (_r: AircraftRecord, now: number) => void seen.push(now), end: () => {} };
  const q = inline();
  const f = new Followers([broken, counter], { chunk: 2, budgetMs: 0, defer: q.defer, log: (l) => logs.push(l) });
  const small = (now: number): FeedSnapshot => ({ now, aircraft: [{ hex: 'aaaaaa' }, { hex: 'bbbbbb' }, { hex: 'cccccc' }] });
  f.push(small(T0));
  f.push(small(T0 + 1));
  q.drain();
  assert.deepEqual(seen, [T0, T0, T0, T0 + 1, T0 + 1, T0 + 1], 'every record of both snapshots, in order');
  assert.ok(
    logs.length > 0 && logs.every((l) => /a follower threw: Error: boom/.test(l)),
    'logs.length > 0 && logs.every((l) => /a follower threw: Error: boom/.test(l))',
  );
});

test('a snapshot older than the newest taken is skipped by the estimator, not applied', () => {
  const tracker = new Tracker({ destinationOf: () => null });
  const q = inline();
  const f = new Followers([tracker], { defer: q.defer, log: () => {} });
  f.push(moved(5));
  f.push(moved(1));
  q.drain();
  assert.equal(tracker.lastSnapshotS, T0 + 5);
});

test('a slice is bounded in time, not in records: it yields once its budget has passed, and the snapshot is still taken whole', () => {
  const seen: number[] = [];
  // each record costs 1 ms: a 3 ms budget takes a few records per slice, not the whole snapshot
  const slow: Follower = {
    begin: () => true,
    takeOne: (r: AircraftRecord) => {
      const until = performance.now() + 1;
      while (performance.now() < until);
      seen.push(Number.parseInt(r.hex, 16));
    },
    end: () => {},
  };
  const q = inline();
  const f = new Followers([slow], { chunk: 1, budgetMs: 3, defer: q.defer, log: (l) => assert.fail(l) });
  const aircraft = Array.from({ length: 40 }, (_, i) => ({ hex: i.toString(16).padStart(6, '0') }));
  f.push({ now: T0, aircraft });
  q.next(); // the deferred start: the first slice
  // at least one record a slice; a preempted clock only makes a slice take fewer
  assert.ok(seen.length >= 1 && seen.length <= 5, `one slice took ${seen.length} of 40 records`);
  q.drain();
  assert.deepEqual(
    seen,
    aircraft.map((_, i) => i),
    'every record, in order',
  );
});
