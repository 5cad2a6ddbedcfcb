// the stream hub over a recording publisher: full state on subscribe, one diff per subscribed cell
// per snapshot (never per client, never for a cell nobody watches), box changes, the stale message
// once per outage and the whole state after it; and a client that applies what it is sent holds
// exactly the aircraft of its cells.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { AircraftRecord } from '../../../server/feed/record.ts';
import { PreparedSnapshot } from '../../../server/live/snapshot.ts';
import type { Bbox } from '../../../server/parts/spatial.ts';
import { StreamHub, CONTROL_TOPIC, type Subscription } from '../../../server/stream/hub.ts';

const T0 = 1_795_312_400;
const view = (now: number, aircraft: AircraftRecord[]) => PreparedSnapshot.of({ now, aircraft }, { eagerGzip: false });
const box = (minLon: number, minLat: number, maxLon: number, maxLat: number): Bbox => ({ minLon, minLat, maxLon, maxLat });

function recorder() {
  const sent: { topic: string; msg: any }[] = [];
  return { sent, publish: (topic: string, m: Buffer) => void sent.push({ topic, msg: JSON.parse(m.toString()) }) };
}

/** the client of docs/api.md, "Push stream": hex -> {cell, record} */
class Client {
  held = new Map<string, { cell: string; rec: any }>();
  stale = false;
  apply(m: any): void {
    if (m.type === 'subscribed') {
      const keep = new Set(m.cells.map((c: any) => c.cell));
      for (const [h, e] of this.held) if (!keep.has(e.cell)) this.held.delete(h);
    } else if (m.type === 'full') {
      for (const [h, e] of this.held) if (e.cell === m.cell) this.held.delete(h);
      for (const rec of m.aircraft) this.held.set(rec.hex, { cell: m.cell, rec });
    } else if (m.type === 'diff') {
      for (const h of m.gone) if (this.held.get(h)?.cell === m.cell) this.held.delete(h);
      for (const rec of m.upsert) this.held.set(rec.hex, { cell: m.cell, rec });
    } else if (m.type === 'stale') this.stale = true;
    else if (m.type === 'end') this.stale = false;
  }
  hexes(): string[] {
    return [...this.held.keys()].sort();
  }
}

const ZRH: AircraftRecord[] = [
  { hex: '4b1814', flight: 'SWR100', lat: 47.46, lon: 8.55, alt_baro: 'ground' },
  { hex: '4b1815', flight: 'SWR200', lat: 47.3, lon: 8.9, alt_baro: 5000 },
  { hex: '3c6444', flight: 'DLH400', lat: 50.03, lon: 8.57, alt_baro: 12000 }, // Frankfurt: another 2-degree cell
  { hex: 'a00001', lat: 40.6, lon: -73.8, alt_baro: 2000 }, // New York
  { hex: 'a00002' }, // no position: the whole sky only
];

test("subscribe: the box's cells in full, then end; the whole sky holds the aircraft without a position too", () => {
  const rec = recorder();
  const hub = new StreamHub(rec);
  hub.accept(view(T0, ZRH), null);
  assert.equal(rec.sent.length, 0, 'nothing is published while nobody listens');
  const r = hub.subscribe(null, box(8, 47, 9, 47.9), null);
  assert.deepEqual(r.add, ['cell/2/8/46']);
  const msgs = r.messages.map((m) => JSON.parse(m.toString()));
  assert.deepEqual(
    msgs.map((m) => m.type),
    ['subscribed', 'full', 'end'],
  );
  assert.deepEqual(msgs[0].cells, [{ cell: '2/8/46', box: [8, 46, 10, 48] }]);
  assert.deepEqual(msgs[0].bbox, [8, 47, 9, 47.9]);
  assert.deepEqual(
    msgs[1].aircraft.map((a: any) => a.hex),
    ['4b1814', '4b1815'],
  );
  assert.deepEqual(msgs[1].aircraft[0], ZRH[0], 'the 2.1 record as /v1/aircraft sends it');
  assert.equal(msgs[2].now, T0);
  const sky = hub.subscribe(null, null, null).messages.map((m) => JSON.parse(m.toString()));
  assert.equal(sky[1].cell, 'sky');
  assert.deepEqual(
    sky[1].aircraft.map((a: any) => a.hex),
    ZRH.map((a) => a.hex),
  );
});

test('a new snapshot publishes one diff per subscribed cell that changed, whatever the number of clients, then end', () => {
  const rec = recorder();
  const hub = new StreamHub(rec);
  hub.accept(view(T0, ZRH), null);
  const clients = Array.from({ length: 50 }, () => new Client());
  for (const c of clients) for (const m of hub.subscribe(null, box(8, 47, 9, 47.9), null).messages) c.apply(JSON.parse(m.toString()));
  const fra = new Client();
  for (const m of hub.subscribe(null, box(8, 49.5, 9, 50.5), null).messages) fra.apply(JSON.parse(m.toString()));
  assert.equal(hub.subscribedCells, 3, 'Zurich 46..48 N, Frankfurt 48..52 N: the 50 Zurich clients share one cell');
  const next = [{ ...ZRH[0]!, alt_baro: 400 }, ZRH[2]!, { hex: '4b1816', lat: 47.1, lon: 8.1 }, ZRH[3]!];
  hub.accept(view(T0 + 1, next), null);
  assert.deepEqual(
    rec.sent.map((s) => s.topic),
    ['cell/2/8/46', CONTROL_TOPIC],
    'Frankfurt did not change: no message for it',
  );
  const diff = rec.sent[0]!.msg;
  assert.deepEqual({ type: diff.type, cell: diff.cell, now: diff.now, gone: diff.gone }, { type: 'diff', cell: '2/8/46', now: T0 + 1, gone: ['4b1815'] });
  assert.deepEqual(
    diff.upsert.map((a: any) => [a.hex, a.alt_baro]),
    [
      ['4b1814', 400],
      ['4b1816', undefined],
    ],
  );
  assert.deepEqual(rec.sent[1]!.msg, { type: 'end', now: T0 + 1 });
  assert.ok(hub.last.messages === 2 && hub.last.bytes > 100 && hub.last.ms >= 0, 'hub.last.messages === 2 && hub.last.bytes > 100 && hub.last.ms >= 0');
  for (const c of clients) c.apply(diff);
  assert.deepEqual(clients[0]!.hexes(), ['4b1814', '4b1816']);
});

test('a box change leaves the old cells, sends only the new cells in full, and the client then holds the new area', () => {
  const rec = recorder();
  const hub = new StreamHub(rec);
  hub.accept(view(T0, ZRH), null);
  const c = new Client();
  const first = hub.subscribe(null, box(8, 47, 9, 47.9), null);
  for (const m of first.messages) c.apply(JSON.parse(m.toString()));
  // now Zurich and Frankfurt: Zurich's cell is kept (no full state again), Frankfurt's added
  const wider = hub.subscribe(first.sub, box(8, 47, 9, 50.5), null);
  assert.deepEqual(wider.add.sort(), ['cell/2/8/48', 'cell/2/8/50']);
  assert.deepEqual(wider.remove, []);
  const msgs = wider.messages.map((m) => JSON.parse(m.toString()));
  // 2/8/48 holds nobody: no full message for it (the client holds nothing there to replace)
  assert.deepEqual(
    msgs.map((m) => `${m.type} ${m.cell ?? ''}`.trim()),
    ['subscribed', 'full 2/8/50', 'end'],
  );
  for (const m of msgs) c.apply(m);
  assert.deepEqual(c.hexes(), ['3c6444', '4b1814', '4b1815']);
  // to New York: everything before is left
  const ny = hub.subscribe(wider.sub, box(-74, 40, -73, 41), null);
  assert.deepEqual(ny.remove.sort(), ['cell/2/8/46', 'cell/2/8/48', 'cell/2/8/50']);
  for (const m of ny.messages) c.apply(JSON.parse(m.toString()));
  assert.deepEqual(c.hexes(), ['a00001']);
  hub.unsubscribe(ny.sub);
  assert.equal(hub.subscribedCells, 0);
  hub.accept(view(T0 + 1, []), null);
  assert.equal(rec.sent.length, 0, 'nobody left: nothing published');
});

test('stale: said once when it turns, said on subscribe, and the whole state goes out when the feed is back', () => {
  const rec = recorder();
  const hub = new StreamHub(rec);
  hub.accept(view(T0, ZRH), null);
  const c = new Client();
  let sub: Subscription | null = null;
  const r = hub.subscribe(sub, box(8, 47, 9, 47.9), null);
  sub = r.sub;
  for (const m of r.messages) c.apply(JSON.parse(m.toString()));
  hub.tick('the live snapshot is 61 s old');
  hub.tick('the live snapshot is 62 s old');
  assert.deepEqual(rec.sent, [{ topic: CONTROL_TOPIC, msg: { type: 'stale', error: 'stale_snapshot', detail: 'the live snapshot is 61 s old' } }]);
  c.apply(rec.sent[0]!.msg);
  assert.equal(c.stale, true);
  // a client arriving during the outage is told, not sent an empty sky
  const late = hub.subscribe(null, box(8, 47, 9, 47.9), 'the live snapshot is 63 s old').messages.map((m) => JSON.parse(m.toString()));
  assert.deepEqual(
    late.map((m) => m.type),
    ['subscribed', 'stale'],
  );
  assert.equal(late[1].error, 'stale_snapshot');
  // a snapshot that is already too old when it arrives changes nothing for the clients
  hub.accept(view(T0 - 100, ZRH.slice(1)), 'the live snapshot is 100 s old');
  assert.equal(rec.sent.length, 1);
  // the feed is back: every subscribed cell in full (whatever changed meanwhile), then end
  hub.accept(view(T0 + 90, ZRH.slice(1)), null);
  assert.deepEqual(
    rec.sent.slice(1).map((s) => `${s.topic} ${s.msg.type}`),
    ['cell/2/8/46 full', `${CONTROL_TOPIC} end`],
  );
  for (const s of rec.sent.slice(1)) c.apply(s.msg);
  assert.equal(c.stale, false);
  assert.deepEqual(c.hexes(), ['4b1815']);
  // and diffs again after that
  hub.accept(view(T0 + 91, ZRH), null);
  assert.equal(rec.sent.at(-2)!.msg.type, 'diff');
});

test('before the first snapshot a subscriber is told the feed is not there yet', () => {
  const hub = new StreamHub(recorder());
  const msgs = hub.subscribe(null, null, null).messages.map((m) => JSON.parse(m.toString()));
  assert.deepEqual(
    msgs.map((m) => m.type),
    ['subscribed', 'stale'],
  );
});

/** many aircraft spread over Europe (seeded), moved on by `k` steps; every 7th leaves at step 2 */
function crowd(k: number): AircraftRecord[] {
  let seed = 20261125;
  const rnd = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  return Array.from({ length: 5000 }, (_, i) => ({
    hex: (0x400000 + i).toString(16),
    lat: 40 + rnd() * 20 + k * 0.05,
    lon: -5 + rnd() * 30 + k * 0.05,
    alt_baro: 30000 + k,
  })).filter((_, i) => !(k >= 2 && i % 7 === 0));
}

/** run the sliced work by hand, one slice per call, counting slices */
function stepper() {
  const q: (() => void)[] = [];
  return {
    defer: (f: () => void) => void q.push(f),
    step: () => q.shift()?.(),
    drain: () => {
      let n = 0;
      while (q.length) {
        q.shift()!();
        n++;
      }
      return n;
    },
    get queued() {
      return q.length;
    },
  };
}

test('in slices, the hub publishes exactly what it publishes in one piece, and a client holds exactly its cells', () => {
  const whole = recorder();
  const sliced = recorder();
  const a = new StreamHub(whole);
  const b = new StreamHub(sliced);
  const s = stepper();
  a.accept(view(T0, crowd(0)), null);
  b.acceptSliced(view(T0, crowd(0)), null, s.defer);
  s.drain();
  const ca = new Client();
  const cb = new Client();
  for (const m of a.subscribe(null, box(0, 45, 10, 52), null).messages) ca.apply(JSON.parse(m.toString()));
  for (const m of b.subscribe(null, box(0, 45, 10, 52), null).messages) cb.apply(JSON.parse(m.toString()));
  a.subscribe(null, null, null);
  b.subscribe(null, null, null);
  for (let k = 1; k <= 3; k++) {
    a.accept(view(T0 + k, crowd(k)), null);
    b.acceptSliced(view(T0 + k, crowd(k)), null, s.defer);
    assert.ok(s.drain() > 3, 'the work went in several slices');
  }
  assert.deepEqual(sliced.sent, whole.sent);
  for (const m of sliced.sent) if (m.topic !== CONTROL_TOPIC && m.topic !== 'cell/sky') cb.apply(m.msg);
  for (const m of whole.sent) if (m.topic !== CONTROL_TOPIC && m.topic !== 'cell/sky') ca.apply(m.msg);
  const cells = b.subscribe(null, box(0, 45, 10, 52), null).sub.cells.length;
  const inCells = new Set(
    b
      .subscribe(null, box(0, 45, 10, 52), null)
      .messages.map((m) => JSON.parse(m.toString()))
      .filter((m) => m.type === 'full')
      .flatMap((m) => m.aircraft.map((x: AircraftRecord) => x.hex)),
  );
  assert.ok(cells > 10 && inCells.size > 500, 'the box covers many cells and aircraft');
  assert.deepEqual(cb.hexes(), [...inCells].sort(), 'the sliced client holds exactly the aircraft its cells hold now');
  assert.deepEqual(cb.hexes(), ca.hexes());
});

test('while a sliced snapshot is being diffed, clients (and a new subscriber) hold the previous one; a newer waiting snapshot replaces an older waiting one', () => {
  const rec = recorder();
  const hub = new StreamHub(rec);
  const s = stepper();
  hub.accept(view(T0, crowd(0)), null);
  hub.subscribe(null, null, null);
  hub.acceptSliced(view(T0 + 1, crowd(1)), null, s.defer);
  s.step();
  assert.equal(rec.sent.length, 0, 'nothing published mid-way');
  const late = hub.subscribe(null, box(0, 45, 2, 47), null).messages.map((m) => JSON.parse(m.toString()));
  assert.equal(late.at(-1).now, T0, 'a subscriber mid-way gets the snapshot the others hold');
  hub.acceptSliced(view(T0 + 2, crowd(2)), null, s.defer);
  hub.acceptSliced(view(T0 + 3, crowd(3)), null, s.defer);
  s.drain();
  const ends = rec.sent.filter((m) => m.topic === CONTROL_TOPIC).map((m) => m.msg.now);
  assert.deepEqual(ends, [T0 + 1, T0 + 3], 'T0+2 waited and was replaced by T0+3');
});

test('a publish that throws mid-way does not wedge the sliced hub: the next snapshot goes out whole', () => {
  let fail = true;
  const sent: string[] = [];
  const hub = new StreamHub({
    publish: (topic, m) => {
      if (fail) throw new Error('socket gone');
      sent.push(`${topic} ${JSON.parse(m.toString()).type}`);
    },
  });
  const s = stepper();
  hub.accept(view(T0, crowd(0)), null);
  hub.subscribe(null, null, null);
  hub.acceptSliced(view(T0 + 1, crowd(1)), null, s.defer);
  assert.throws(() => s.drain(), /socket gone/);
  fail = false;
  hub.acceptSliced(view(T0 + 2, crowd(2)), null, s.defer);
  s.drain();
  assert.deepEqual(sent, ['cell/sky full', `${CONTROL_TOPIC} end`]);
});
