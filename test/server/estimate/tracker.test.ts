// every state move of spec section 3 for the estimate list, with the clock pinned by snapshot times.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bearingDeg, destinationPoint, distanceKm, distanceNm } from '../../../lib/geo.ts';
import { AIRWAY_GS, airwayFlow, dogLeg } from '../../helpers/airway.ts';
import type { AircraftRecord, FeedSnapshot } from '../../../server/feed/record.ts';
import { FLY, makePlan, positionAt } from '../../../lib/estimate/fly.ts';
import { learnPaths, pathSet } from '../../../lib/estimate/paths.ts';
import { Tracker } from '../../../server/estimate/tracker.ts';
import type { Destination } from '../../../artifacts/meta.ts';

const T = 1_790_000_000;
const JFK: Destination = { code: 'JFK', lat: 40.6398, lon: -73.7789 };
// a westbound transatlantic flight, 480 kt at 37,000 ft
const BAW: AircraftRecord = {
  hex: '400abc',
  flight: 'BAW117',
  t: 'B772',
  r: 'G-VIIA',
  category: 'A5',
  lat: 52,
  lon: -20,
  alt_baro: 37000,
  gs: 480,
  track: 265,
  baro_rate: 0,
  seen: 0,
  seen_pos: 0,
};

const snap = (now: number, aircraft: AircraftRecord[]): FeedSnapshot => ({ now, aircraft });
const routes = (table: Record<string, Destination>) => (cs: string) => table[cs] ?? null;
const close = (a: number, b: number, tol: number, what: string) => assert.ok(Math.abs(a - b) <= tol, `${what}: ${a} vs ${b}`);

/** feed the aircraft once at T, then snapshots without it every 10 s up to `until` */
function heardOnceAt(tracker: Tracker, rec: AircraftRecord, until: number) {
  tracker.ingest(snap(T, [rec]));
  for (let t = T + 10; t <= until; t += 10) tracker.ingest(snap(t, []));
}

test('an aircraft last heard cruising is not listed before 90 s and is listed from 90 s', () => {
  const tr = new Tracker({ destinationOf: routes({ BAW117: JFK }) });
  tr.ingest(snap(T, [BAW]));
  // readsb keeps the record while it ages: that is not "heard again"
  tr.ingest(snap(T + 30, [{ ...BAW, seen: 30, seen_pos: 30 }]));
  assert.deepEqual(tr.list(T + 89.9), []);
  const [e] = tr.list(T + 90);
  assert.ok(e, 'e');
  assert.equal(e.hex, '400abc');
  assert.equal(e.estimated, true);
  assert.deepEqual(e.last_seen, { at: T, lat: 52, lon: -20 });
  assert.equal(e.destination, 'JFK');
  assert.deepEqual([e.flight, e.t, e.r, e.category, e.alt_baro, e.gs], ['BAW117', 'B772', 'G-VIIA', 'A5', 37000, 480]);
});

test('last heard and last position come from seen and seen_pos, not from the snapshot time', () => {
  const tr = new Tracker({ destinationOf: () => null });
  tr.ingest(snap(T + 20, [{ ...BAW, seen: 20, seen_pos: 25 }]));
  assert.deepEqual(tr.list(T + 89), [], 'heard at T: not before T + 90');
  const [e] = tr.list(T + 90);
  assert.equal(e!.last_seen.at, T - 5, 'flown from the time of the last position');
  const want = destinationPoint(52, -20, 265, (480 * 95) / 3600);
  close(e!.lat, want.lat, 1e-4, 'lat');
});

test('the track is held for 10 minutes, then the estimate turns toward the destination (the method of lib/estimate/fly.ts)', () => {
  const tr = new Tracker({ destinationOf: routes({ BAW117: JFK }) });
  heardOnceAt(tr, BAW, T + 60);
  const at5 = tr.list(T + 300)[0]!;
  const held = destinationPoint(52, -20, 265, 40);
  close(at5.lat, held.lat, 1e-4, 'lat at 5 min');
  close(at5.lon, held.lon, 1e-4, 'lon at 5 min');
  const plan = makePlan({ t: T, lat: 52, lon: -20, track: 265, gs: 480, alt: 37000 }, JFK);
  const want = positionAt(plan, T + 1800);
  const at30 = tr.list(T + 1800)[0]!;
  close(at30.lat, want.lat, 1e-4, 'lat at 30 min');
  close(at30.lon, want.lon, 1e-4, 'lon at 30 min');
  close(at30.track, want.track, 0.06, 'track at 30 min');
  // turned toward the destination, gently (it is 2,000 nm away): off the held track, and nearer to it
  const straight = destinationPoint(52, -20, 265, 240);
  const off = distanceNm(at30.lat, at30.lon, straight.lat, straight.lon);
  assert.ok(off > 0.5 && off < 5, `${off.toFixed(2)} nm off the held track at 30 min`);
  assert.ok(
    distanceNm(at30.lat, at30.lon, JFK.lat, JFK.lon) < distanceNm(straight.lat, straight.lon, JFK.lat, JFK.lon),
    'nearer the destination than the held track',
  );
  assert.equal(at30.eta, Math.round(T + 600 + (plan.legNm / 480) * 3600));
  assert.equal(at30.eta, Math.round(plan.eta!));
});

test('an aircraft heard again leaves the list, and comes back 90 s after it goes quiet again', () => {
  const tr = new Tracker({ destinationOf: routes({ BAW117: JFK }) });
  heardOnceAt(tr, BAW, T + 120);
  assert.equal(tr.list(T + 120).length, 1);
  tr.ingest(snap(T + 130, [{ ...BAW, lon: -21, seen: 0.2, seen_pos: 0.2 }]));
  assert.deepEqual(tr.list(T + 130), [], 'heard again: normal live data applies');
  assert.deepEqual(tr.list(T + 219), []);
  const [e] = tr.list(T + 220);
  assert.ok(Math.abs(e!.last_seen.at - (T + 129.8)) < 1e-6, 'flown from the new last position');
  assert.equal(e!.last_seen.lon, -21);
});

test('an aircraft heard again while not cruising leaves the list for good and is forgotten', () => {
  const tr = new Tracker({ destinationOf: routes({ BAW117: JFK }) });
  heardOnceAt(tr, BAW, T + 120);
  tr.ingest(snap(T + 130, [{ ...BAW, alt_baro: 30000, baro_rate: -1800, seen: 0 }]));
  assert.equal(tr.size, 0);
  assert.deepEqual(tr.list(T + 600), []);
});

test('the estimate leaves the list when it nears its destination (top of descent)', () => {
  // destination 200 nm ahead: 80 nm held, 120 nm to go after the turn, descent begins 111 nm out
  const ahead = destinationPoint(52, -20, 265, 200);
  const tr = new Tracker({ destinationOf: routes({ BAW117: { code: 'KEF', ...ahead } }) });
  heardOnceAt(tr, BAW, T + 60);
  const leaveAt =
    T + 600 + ((distanceNm(destinationPoint(52, -20, 265, 80).lat, destinationPoint(52, -20, 265, 80).lon, ahead.lat, ahead.lon) - 111) / 480) * 3600;
  assert.equal(tr.list(leaveAt - 1).length, 1);
  assert.deepEqual(tr.list(leaveAt), []);
  const last = tr.list(leaveAt - 1)[0]!;
  close(distanceNm(last.lat, last.lon, ahead.lat, ahead.lon), 111, 0.2, 'left about 111 nm out');
});

test('the estimate leaves the list when its flight time runs out: 2 h with a destination, 30 min without', () => {
  const withDest = new Tracker({ destinationOf: routes({ BAW117: JFK }) });
  heardOnceAt(withDest, BAW, T + 60);
  assert.equal(withDest.list(T + FLY.hardCapS - 1).length, 1);
  assert.deepEqual(withDest.list(T + FLY.hardCapS), []);

  const noDest = new Tracker({ destinationOf: routes({}) });
  heardOnceAt(noDest, BAW, T + 60);
  const e = noDest.list(T + FLY.noDestinationS - 1)[0]!;
  assert.equal(e.destination, undefined, 'no route known: no destination');
  assert.equal(e.eta, undefined, 'and no eta');
  const held = destinationPoint(52, -20, 265, (480 * (FLY.noDestinationS - 1)) / 3600);
  close(e.lat, held.lat, 1e-4, 'holds its track');
  assert.deepEqual(noDest.list(T + FLY.noDestinationS), []);

  const { flight: _f, ...noCallsign } = BAW;
  const anonymous = new Tracker({ destinationOf: routes({ BAW117: JFK }) });
  heardOnceAt(anonymous, noCallsign, T + 60);
  assert.equal(anonymous.list(T + 600)[0]!.destination, undefined, 'without a callsign there is no route');
});

test('climbing, descending, low, slow, on-ground and malformed aircraft are never listed', () => {
  const tr = new Tracker({ destinationOf: routes({ BAW117: JFK }) });
  const { gs: _gs, ...noGs } = BAW;
  const { track: _track, ...noTrack } = BAW;
  const { lat: _lat, lon: _lon, ...noPos } = BAW;
  const bad: AircraftRecord[] = [
    { ...BAW, hex: 'a00001', baro_rate: 2200 },
    { ...BAW, hex: 'a00002', baro_rate: -1500 },
    { ...BAW, hex: 'a00003', alt_baro: 4500 },
    { ...BAW, hex: 'a00004', alt_baro: 'ground', gs: 12 },
    { ...BAW, hex: 'a00005', gs: 110 },
    { ...noGs, hex: 'a00006' },
    { ...noTrack, hex: 'a00007' },
    { ...noPos, hex: 'a00008' },
    { ...BAW, hex: 'a00009', gs: Number.NaN },
    { ...BAW, hex: 'a0000a', emergency: 'general' },
    null as unknown as AircraftRecord,
    { hex: 42 } as unknown as AircraftRecord,
  ];
  tr.ingest(snap(T, bad));
  for (let t = T + 10; t <= T + 600; t += 10) tr.ingest(snap(t, []));
  assert.deepEqual(tr.list(T + 100), []);
  assert.deepEqual(tr.list(T + 600), []);
  assert.equal(tr.size, 0, 'nothing remembered');
});

test('malformed and out-of-order snapshots are ignored; list() without a time uses the newest snapshot', () => {
  const tr = new Tracker({ destinationOf: routes({ BAW117: JFK }) });
  assert.deepEqual(tr.list(), [], 'nothing before the first snapshot');
  assert.equal(tr.lastSnapshotS, null);
  tr.ingest(snap(T, [BAW]));
  tr.ingest({ now: Number.NaN, aircraft: [] });
  tr.ingest({ now: T + 5 } as unknown as FeedSnapshot);
  tr.ingest(null as unknown as FeedSnapshot);
  assert.equal(tr.lastSnapshotS, T);
  tr.ingest(snap(T + 100, []));
  tr.ingest(snap(T + 50, [{ ...BAW, seen: 0 }]));
  assert.equal(tr.lastSnapshotS, T + 100, 'an older snapshot does not move time back');
  assert.equal(tr.list().length, 1, 'the older snapshot did not count as hearing the aircraft');
});

test('memory is bounded: expired estimates are swept and the entry count is capped', () => {
  const tr = new Tracker({ destinationOf: routes({}), maxEntries: 50 });
  const many = Array.from({ length: 80 }, (_, i) => ({ ...BAW, hex: (0xa10000 + i).toString(16) }));
  tr.ingest(snap(T, many.slice(0, 50)));
  assert.equal(tr.size, 50, 'up to the bound, all kept');
  // ten of the first heard again, thirty new: over the bound, the ones heard longest ago go (down to 99 % of it)
  tr.ingest(snap(T + 10, [...many.slice(0, 10), ...many.slice(50)]));
  assert.equal(tr.size, 49, 'capped');
  const kept = new Set(tr.list(T + 100).map((e) => e.hex));
  for (const a of [...many.slice(0, 10), ...many.slice(50)]) assert.ok(kept.has(a.hex), `${a.hex}, heard last, is kept`);
  tr.list(T + 600);
  tr.ingest(snap(T + FLY.noDestinationS + 60, []));
  assert.equal(tr.size, 0, 'expired entries are forgotten');
});

test('a route destination behind the aircraft is named without an eta, and the estimate holds its track', () => {
  const LHR: Destination = { code: 'LHR', lat: 51.47, lon: -0.4543 }; // behind a westbound flight at 20 W
  const tr = new Tracker({ destinationOf: routes({ BAW117: LHR }) });
  heardOnceAt(tr, BAW, T + 60);
  const e = tr.list(T + 1200)[0]!;
  assert.equal(e.destination, 'LHR');
  assert.equal(e.eta, undefined);
  const held = destinationPoint(52, -20, 265, 160);
  close(e.lat, held.lat, 1e-4, 'lat at 20 min');
  close(e.lon, held.lon, 1e-4, 'lon at 20 min');
  assert.deepEqual(tr.list(T + FLY.noDestinationS), [], 'and ends after 30 minutes, as without a destination');
});

test('with the served traffic flow, an estimate past its hold turns where the traffic turned', () => {
  const { field } = airwayFlow(T);
  const truth = dogLeg(T);
  const last = truth[60]!; // heard eastbound at about 5.2 E, then lost
  const rec: AircraftRecord = { ...BAW, lat: last.lat, lon: last.lon, track: 90, gs: AIRWAY_GS, alt_baro: 36000 };
  const withFlow = new Tracker({ destinationOf: () => null, learnedOf: () => ({ flow: field }) });
  const without = new Tracker({ destinationOf: () => null });
  for (const tr of [withFlow, without]) tr.ingest(snap(last.t, [rec]));
  const at = truth[60 + 25 * 6]!; // 25 minutes later, past the turn north
  const km = (tr: Tracker) => {
    const e = tr.list(at.t)[0]!;
    return distanceKm(e.lat, e.lon, at.lat, at.lon);
  };
  assert.ok(km(withFlow) < km(without) / 4, `flow ${km(withFlow).toFixed(1)} km, held track ${km(without).toFixed(1)} km`);
});

test('with the served traffic paths, an estimate follows them, exactly as the accuracy replay computes it', () => {
  const tracks = Array.from({ length: 12 }, (_, i) => ({ points: dogLeg(T - 86_400 + i * 600, (i - 6) * 0.01).map((p) => ({ ...p, alt: 36000 })) }));
  const paths = pathSet(learnPaths('2026-09-20', tracks, () => null));
  const truth = dogLeg(T);
  const last = truth[60]!;
  const rec: AircraftRecord = { ...BAW, lat: last.lat, lon: last.lon, track: 90, gs: AIRWAY_GS, alt_baro: 36000 };
  const tr = new Tracker({ destinationOf: () => null, learnedOf: () => ({ paths }) });
  tr.ingest(snap(last.t, [rec]));
  const at = truth[60 + 25 * 6]!; // 25 minutes later, past the turn north
  const e = tr.list(at.t)[0]!;
  const want = positionAt(makePlan({ t: last.t, lat: last.lat, lon: last.lon, track: 90, gs: AIRWAY_GS, alt: 36000 }, null, { paths }), at.t);
  assert.deepEqual([e.lat, e.lon], [Math.round(want.lat * 1e4) / 1e4, Math.round(want.lon * 1e4) / 1e4]);
  assert.ok(distanceKm(e.lat, e.lon, at.lat, at.lon) < 25, `${distanceKm(e.lat, e.lon, at.lat, at.lon).toFixed(1)} km from the truth`);
});
