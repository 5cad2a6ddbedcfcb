// roster transitions with a pinned clock: first seen, offline when left out or stale, back online, dropped after retention.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { StationKeys } from '../../../server/stations/ids.ts';
import { parseFeederList, type FeederList } from '../../../server/stations/parse.ts';
import { coarse, isoSeconds, Roster } from '../../../server/stations/roster.ts';

const keys = new StationKeys(Buffer.alloc(32, 7));
const id = (k: Buffer) => keys.publicId(k);
const U1 = '5b0c3f2e-9a41-4d7e-8c55-0e6f1a2b3c4d';
const U2 = 'e2d1c0b9-a8f7-4e6d-9c5b-4a3928170615';
const T0 = 1795435200; // 2026-11-23T12:00:00Z
const ms = (s: number) => s * 1000;

function mk(gen: number, feeders: Record<string, unknown>[]): FeederList {
  const r = parseFeederList(JSON.stringify({ generated_at: gen, feeders }), keys);
  assert.ok(r.ok, 'r.ok');
  return r.list;
}
const f1 = (o: Record<string, unknown> = {}) => ({ uuid: U1, lat: 47.4581, lon: 8.5555, connected: true, ...o });
const f2 = (o: Record<string, unknown> = {}) => ({ uuid: U2, lat: -33.96, lon: -0.04, connected: true, ...o });

test('no list yet: presence unavailable, station_count null (never 0)', () => {
  const r = new Roster();
  assert.equal(r.stationCount(ms(T0)), null);
  assert.deepEqual(r.publicList(ms(T0)), []);
});

test('first seen: a connected feeder joins with rounded position, ISO times with offset, online', () => {
  const r = new Roster();
  const res = r.apply(mk(T0, [f1(), f2()]), ms(T0 + 2), id);
  assert.ok(res.applied && res.urgent, 'res.applied && res.urgent');
  assert.equal(res.added.length, 2);
  assert.equal(r.stationCount(ms(T0 + 2)), 2);
  const e = r.publicList(ms(T0 + 2)).find((x) => x.id === id(keys.key(U1)))!;
  assert.deepEqual(e, {
    id: id(keys.key(U1)),
    coarse_lat: 47.5,
    coarse_lon: 8.6,
    position_source: 'reported',
    first_seen: '2026-11-23T12:00:00Z',
    last_seen: '2026-11-23T12:00:00Z',
    online: true,
  });
  const s = r.publicList(ms(T0 + 2)).find((x) => x.id === id(keys.key(U2)))!;
  assert.deepEqual([s.coarse_lat, s.coarse_lon], [-34, 0]);
  assert.ok(Object.is(s.coarse_lon, 0), 'no negative zero');
  const ids = r.publicList(ms(T0)).map((x) => x.id);
  assert.deepEqual(ids, [...ids].sort(), 'sorted by id');
});

test('a feeder that leaves the list goes offline at once; count is 0, not null; last_seen stays', () => {
  const r = new Roster();
  r.apply(mk(T0, [f1(), f2()]), ms(T0), id);
  const res = r.apply(mk(T0 + 10, [f2()]), ms(T0 + 10), id);
  assert.ok(res.applied && !res.urgent && res.added.length === 0, 'res.applied && !res.urgent && res.added.length === 0');
  const e = r.publicList(ms(T0 + 10)).find((x) => x.id === id(keys.key(U1)))!;
  assert.equal(e.online, false);
  assert.equal(e.last_seen, isoSeconds(T0));
  assert.equal(r.stationCount(ms(T0 + 10)), 1);
  r.apply(mk(T0 + 20, []), ms(T0 + 20), id);
  assert.equal(r.stationCount(ms(T0 + 20)), 0);
});

test('listed as disconnected: an existing station goes offline, an unknown feeder is not added', () => {
  const r = new Roster();
  r.apply(mk(T0, [f1()]), ms(T0), id);
  const res = r.apply(mk(T0 + 10, [f1({ connected: false }), f2({ connected: false })]), ms(T0 + 10), id);
  assert.ok(res.applied, 'res.applied');
  assert.equal(r.size, 1);
  assert.equal(r.publicList(ms(T0 + 10))[0]!.online, false);
  assert.equal(r.stationCount(ms(T0 + 10)), 0);
});

test('a list older than 120 s makes presence unavailable: everyone offline, count null; a fresh list brings them back', () => {
  const r = new Roster();
  r.apply(mk(T0, [f1()]), ms(T0), id);
  assert.equal(r.stationCount(ms(T0 + 120)), 1, 'exactly 120 s is still fresh');
  assert.equal(r.stationCount(ms(T0 + 121)), null);
  assert.equal(r.publicList(ms(T0 + 121))[0]!.online, false);
  assert.equal(r.presenceAvailable(ms(T0 + 121)), false);
  r.apply(mk(T0 + 300, [f1()]), ms(T0 + 301), id);
  assert.equal(r.stationCount(ms(T0 + 301)), 1);
  const e = r.publicList(ms(T0 + 301))[0]!;
  assert.equal(e.online, true);
  assert.equal(e.first_seen, isoSeconds(T0));
  assert.equal(e.last_seen, isoSeconds(T0 + 300));
});

test('freshness counts from generated_at, not from when the list was read', () => {
  const r = new Roster();
  r.apply(mk(T0, [f1()]), ms(T0 + 200), id);
  assert.equal(r.stationCount(ms(T0 + 200)), null, 'a list written 200 s ago is already stale when read');
});

test('the same list again, or an older one, is not applied', () => {
  const r = new Roster();
  r.apply(mk(T0, [f1()]), ms(T0), id);
  assert.deepEqual(r.apply(mk(T0, []), ms(T0 + 5), id), { applied: false, reason: 'same_list' });
  assert.deepEqual(r.apply(mk(T0 - 5, []), ms(T0 + 5), id), { applied: false, reason: 'older_than_current' });
  assert.equal(r.stationCount(ms(T0 + 5)), 1);
});

test('a list stamped in the future counts from its arrival: it goes stale 120 s after being read', () => {
  const r = new Roster();
  r.apply(mk(T0 + 3600, [f1()]), ms(T0), id);
  assert.equal(r.publicList(ms(T0))[0]!.first_seen, isoSeconds(T0));
  assert.equal(r.stationCount(ms(T0 + 120)), 1);
  assert.equal(r.stationCount(ms(T0 + 121)), null);
});

test('stations not seen for 30 days leave the roster; 30 days exactly stays', () => {
  const r = new Roster();
  r.apply(mk(T0, [f1(), f2()]), ms(T0), id);
  r.apply(mk(T0 + 86_400, [f2()]), ms(T0 + 86_400), id);
  assert.equal(r.prune(ms(T0 + 30 * 86_400)), 0);
  assert.equal(r.size, 2);
  const v = r.version;
  assert.equal(r.prune(ms(T0 + 30 * 86_400 + 1)), 1);
  assert.ok(r.version > v, 'a drop is a visible change');
  assert.deepEqual(
    r.publicList(ms(T0 + 30 * 86_400 + 1)).map((e) => e.id),
    [id(keys.key(U2))],
  );
  const res = r.apply(mk(T0 + 31 * 86_400 + 5, [f1()]), ms(T0 + 31 * 86_400 + 5), id);
  assert.ok(res.applied && res.added.length === 1 && res.dropped === 1 && res.urgent, 'comes back as new; U2 dropped');
  assert.equal(r.publicList(ms(T0 + 31 * 86_400 + 5))[0]!.first_seen, isoSeconds(T0 + 31 * 86_400 + 5));
});

test('restore: saved stations come back offline with their times; past-retention rows are left out', () => {
  const a = new Roster();
  a.apply(mk(T0, [f1(), f2()]), ms(T0), id);
  a.apply(mk(T0 + 40 * 86_400, [f2()]), ms(T0 + 40 * 86_400), id);
  const saved = new Roster();
  saved.restore([...a.saved(), ...a.saved()], ms(T0 + 40 * 86_400 + 10));
  assert.equal(saved.size, 1, 'duplicates ignored, U1 too old');
  assert.equal(saved.stationCount(ms(T0 + 40 * 86_400 + 10)), null);
  assert.deepEqual(saved.publicList(ms(T0 + 40 * 86_400 + 10)), a.publicList(ms(T0 + 40 * 86_400 + 500)));
});

test('private status: exact position, counters, rates between lists of the same connection', () => {
  const r = new Roster();
  const k = keys.key(U1);
  r.apply(mk(T0, [f1({ messages: 1000, positions: 100, aircraft: 5, software: 'readsb 3.14', connected_since: T0 - 100 })]), ms(T0), id);
  let s = r.status(k, ms(T0))!;
  assert.equal(s.message_rate, null, 'one report: no rate yet');
  assert.deepEqual([s.lat, s.lon, s.software, s.connected_since, s.reported_at], [47.4581, 8.5555, 'readsb 3.14', isoSeconds(T0 - 100), isoSeconds(T0)]);
  r.apply(mk(T0 + 10, [f1({ messages: 1255, positions: 133, aircraft: 6, connected_since: T0 - 100 })]), ms(T0 + 10), id);
  s = r.status(k, ms(T0 + 10))!;
  assert.deepEqual(
    [s.messages, s.positions, s.aircraft, s.message_rate, s.position_rate, s.rate_window_s, s.online, s.presence_available],
    [1255, 133, 6, 25.5, 3.3, 10, true, true],
  );
  r.apply(mk(T0 + 20, [f1({ messages: 50, positions: 5, connected_since: T0 - 100 })]), ms(T0 + 20), id);
  assert.equal(r.status(k, ms(T0 + 20))!.message_rate, null, 'a counter going backwards gives no rate');
  r.apply(mk(T0 + 30, [f1({ messages: 60, positions: 6, connected_since: T0 + 25 })]), ms(T0 + 30), id);
  assert.equal(r.status(k, ms(T0 + 30))!.message_rate, null, 'a new connection gives no rate');
  assert.equal(r.status(keys.key(U2), ms(T0 + 30)), null);
  assert.equal(r.status(k, ms(T0 + 500))!.online, false);
  assert.equal(r.status(k, ms(T0 + 500))!.presence_available, false);
});

test('coarse rounding is to 0.1 degree', () => {
  assert.deepEqual([coarse(47.45), coarse(47.449), coarse(-0.04), coarse(-179.96), coarse(179.96)], [47.5, 47.4, 0, -180, 180]);
});
