// an estimate planned before the routes table is loaded, or under a table a newer build replaces
// (issue 43 item 6; the rule at the top of server/estimate/tracker.ts). the clock is pinned by
// snapshot times; the routes table is a variable the test swaps, as a build landing swaps it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { destinationPoint, distanceKm } from '../../../lib/geo.ts';
import { emptyFlow, learnFlow, type FlowPoint } from '../../../lib/estimate/flow.ts';
import { FLY, makePlan, positionAt, type Learned } from '../../../lib/estimate/fly.ts';
import { Tracker } from '../../../server/estimate/tracker.ts';
import type { AircraftRecord } from '../../../server/feed/record.ts';
import type { Destination } from '../../../artifacts/meta.ts';

const T = 1_790_000_000;
const JFK: Destination = { code: 'JFK', lat: 40.6398, lon: -73.7789 };
const BOS: Destination = { code: 'BOS', lat: 42.3643, lon: -71.0052 };
// a westbound transatlantic flight, 480 kt at 37,000 ft, as the demo's AFL292 was: heard once, then silent
const BAW: AircraftRecord = {
  hex: '400abc',
  flight: 'BAW117',
  t: 'B772',
  lat: 52,
  lon: -20,
  alt_baro: 37000,
  gs: 480,
  track: 265,
  baro_rate: 0,
  seen: 0,
  seen_pos: 0,
};
const START = { t: T, lat: 52, lon: -20, track: 265, gs: 480, alt: 37000 };

/** A tracker over a routes table the test swaps: `load` is a build landing (null: none loaded). */
function served(learned: () => Learned = () => ({})) {
  let table: { id: string; routes: Record<string, Destination> } | null = null;
  const tracker = new Tracker({
    destinationOf: (cs) => table?.routes[cs] ?? null,
    routesVersion: () => table?.id ?? null,
    learnedOf: learned,
  });
  return { tracker, load: (id: string | null, routes: Record<string, Destination> = {}) => (table = id === null ? null : { id, routes }) };
}

/** snapshots every 10 s from `from` to `to` in which the aircraft is not heard */
function silent(tr: Tracker, from: number, to: number) {
  for (let t = from; t <= to; t += 10) tr.ingest({ now: t, aircraft: [] });
}

const round4 = (v: number) => Math.round(v * 1e4) / 1e4;

/** a traffic flow learned a day before from 12 flights down BAW's track that turn 40 deg right where its hold ends */
function turningFlow() {
  const field = emptyFlow();
  const flights = Array.from({ length: 12 }, (_, i) => {
    const pts: FlowPoint[] = [];
    let p = { lat: 52 + (i - 6) * 0.01, lon: -20 };
    for (let t = 0; t < 3600; t += 10) {
      const track = t < 600 ? 265 : 305;
      pts.push({ t: T - 86_400 + i * 600 + t, lat: p.lat, lon: p.lon, alt: 37000, gs: 480, track, rate: 0 });
      p = destinationPoint(p.lat, p.lon, track, (480 * 10) / 3600);
    }
    return pts;
  });
  learnFlow(field, flights);
  return field;
}

test('planned before any routes table: no destination, no eta; once the table loads it gains both, planned from its last-heard state', () => {
  const { tracker, load } = served();
  tracker.ingest({ now: T, aircraft: [BAW] });
  silent(tracker, T + 10, T + 120);
  const before = tracker.list(T + 120)[0]!;
  assert.equal(before.destination, undefined, 'no table: no destination');
  assert.equal(before.eta, undefined, 'and no eta');

  load('b1', { BAW117: JFK });
  silent(tracker, T + 130, T + 1800);
  const after = tracker.list(T + 1800)[0]!;
  const plan = makePlan(START, JFK);
  assert.equal(after.destination, 'JFK');
  assert.equal(after.eta, Math.round(plan.eta!));
  const want = positionAt(plan, T + 1800);
  assert.deepEqual([after.lat, after.lon], [round4(want.lat), round4(want.lon)], 'flown as planned with the destination');
  assert.deepEqual(after.last_seen, { at: T, lat: 52, lon: -20 }, 'from the same last-heard position');
});

test('silent longer than the 30 minutes without a route, its route arriving in time: it is kept, to its new plan', () => {
  // the table loads at 20 minutes: the estimate is still listed at 45, past the no-route lifetime
  const early = served();
  early.tracker.ingest({ now: T, aircraft: [BAW] });
  silent(early.tracker, T + 10, T + 600);
  assert.equal(early.tracker.list(T + 600)[0]!.destination, undefined);
  silent(early.tracker, T + 610, T + 1200);
  early.load('b1', { BAW117: JFK });
  silent(early.tracker, T + 1210, T + 2700);
  const e = early.tracker.list(T + 2700)[0];
  assert.ok(e, `listed at 45 minutes, past the ${FLY.noDestinationS / 60} minutes of an estimate without a route`);
  assert.equal(e.destination, 'JFK');

  // the table loads at 40 minutes: the estimate went unlisted at 30 (its flight time without a route
  // ran out), but its entry was kept, and it is listed again with its destination and eta
  const late = served();
  late.tracker.ingest({ now: T, aircraft: [BAW] });
  silent(late.tracker, T + 10, T + 1200);
  assert.equal(late.tracker.list(T + 1200).length, 1, 'listed without a destination');
  silent(late.tracker, T + 1210, T + 2400);
  assert.deepEqual(late.tracker.list(T + FLY.noDestinationS), [], 'unlisted at 30 minutes');
  assert.equal(late.tracker.size, 1, 'but remembered: no table was loaded yet');
  late.load('b1', { BAW117: JFK });
  silent(late.tracker, T + 2410, T + 2700);
  const l = late.tracker.list(T + 2700)[0];
  assert.ok(l, 'listed again once its route arrived');
  assert.equal(l.destination, 'JFK');
  assert.equal(l.eta, Math.round(makePlan(START, JFK).eta!));

  // and whether anyone asked before the table loaded changes nothing
  const unasked = served();
  unasked.tracker.ingest({ now: T, aircraft: [BAW] });
  silent(unasked.tracker, T + 10, T + 2400);
  unasked.load('b1', { BAW117: JFK });
  silent(unasked.tracker, T + 2410, T + 2700);
  assert.deepEqual(unasked.tracker.list(T + 2700), late.tracker.list(T + 2700));
});

test('with no table ever loaded the entry is kept to the 2 h cap, then forgotten', () => {
  const { tracker } = served();
  tracker.ingest({ now: T, aircraft: [BAW] });
  silent(tracker, T + 10, T + 120);
  assert.equal(tracker.list(T + 120).length, 1);
  silent(tracker, T + 130, T + FLY.hardCapS - 10);
  assert.equal(tracker.size, 1);
  assert.deepEqual(tracker.list(T + FLY.hardCapS - 10), []);
  silent(tracker, T + FLY.hardCapS, T + FLY.hardCapS + 60);
  assert.equal(tracker.size, 0, 'forgotten at the cap');
});

test('a table that names no route for the callsign leaves it without a destination, forgotten after 30 minutes', () => {
  const { tracker, load } = served();
  tracker.ingest({ now: T, aircraft: [BAW] });
  silent(tracker, T + 10, T + 120);
  tracker.list(T + 120);
  load('b1', { DAL1: JFK });
  silent(tracker, T + 130, T + 1200);
  assert.equal(tracker.list(T + 1200)[0]!.destination, undefined);
  silent(tracker, T + 1210, T + FLY.noDestinationS + 60);
  assert.equal(tracker.size, 0);
});

test('a newer table re-plans an estimate it sends elsewhere, and keeps the plan of one whose destination is unchanged or no longer named', () => {
  // the newer build also carries a traffic flow that would turn the estimate: a kept plan ignores it
  const field = turningFlow();
  const withFlow = positionAt(makePlan(START, JFK, { flow: field }), T + 1800);
  const without = positionAt(makePlan(START, JFK), T + 1800);
  assert.ok(distanceKm(withFlow.lat, withFlow.lon, without.lat, without.lon) > 20, 'the flow would move a new plan');
  let learned: Learned = {};
  const { tracker, load } = served(() => learned);
  const other: AircraftRecord = { ...BAW, hex: '400abd', flight: 'BAW119' };
  const third: AircraftRecord = { ...BAW, hex: '400abe', flight: 'BAW121' };
  load('b1', { BAW117: JFK, BAW119: JFK, BAW121: JFK });
  tracker.ingest({ now: T, aircraft: [BAW, other, third] });
  silent(tracker, T + 10, T + 120);
  assert.deepEqual(
    tracker.list(T + 120).map((e) => e.destination),
    ['JFK', 'JFK', 'JFK'],
  );

  learned = { flow: field };
  load('b2', { BAW117: JFK, BAW119: BOS });
  silent(tracker, T + 130, T + 1800);
  const [same, moved, dropped] = tracker.list(T + 1800);
  const jfk = positionAt(makePlan(START, JFK), T + 1800);
  assert.equal(same!.destination, 'JFK');
  assert.deepEqual([same!.lat, same!.lon], [round4(jfk.lat), round4(jfk.lon)], 'unchanged destination: the same plan, the same path');
  assert.equal(moved!.destination, 'BOS', 'sent elsewhere: planned again');
  assert.equal(moved!.eta, Math.round(makePlan(START, BOS, { flow: field }).eta!));
  assert.equal(dropped!.destination, 'JFK', 'no longer named: keeps the destination it is flying to');
  assert.deepEqual([dropped!.lat, dropped!.lon], [same!.lat, same!.lon]);

  // and when the served build goes away the plans stay as they are
  load(null);
  const gone = tracker.list(T + 1800);
  assert.deepEqual(
    gone.map((e) => e.destination),
    ['JFK', 'BOS', 'JFK'],
  );
});

test('an aircraft heard again after a re-plan starts afresh from its new last position', () => {
  const { tracker, load } = served();
  tracker.ingest({ now: T, aircraft: [BAW] });
  silent(tracker, T + 10, T + 120);
  tracker.list(T + 120);
  load('b1', { BAW117: JFK });
  const p = destinationPoint(52, -20, 265, 40);
  tracker.ingest({ now: T + 300, aircraft: [{ ...BAW, lat: p.lat, lon: p.lon }] });
  assert.deepEqual(tracker.list(T + 300), [], 'heard again: not listed');
  silent(tracker, T + 310, T + 400);
  const e = tracker.list(T + 400)[0]!;
  assert.equal(e.last_seen.at, T + 300);
  assert.equal(e.destination, 'JFK');
  assert.ok(distanceKm(e.lat, e.lon, p.lat, p.lon) < 30, 'flown from the new last position');
});
