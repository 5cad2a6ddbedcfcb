// GET /v1/stream on the real server (every route of the real app on uWebSockets.js, a real readsb
// feed file, the clock pinned), with a real WebSocket client: the full state on subscribe agrees
// with /v1/aircraft, a feed change arrives as a diff, a box change by message, refusals before the
// upgrade in the section-7 shape, errors for malformed messages on a socket that stays open, the
// stale message and the whole state after the outage, the per-address cap and slow consumers.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { problems } from '../../../schemas/index.ts';
import { NOW_MS } from '../../helpers/publish-fixture.ts';
import { connect, open, WsClient, type Refused } from '../../helpers/ws-client.ts';
import { startApp, type RunningApp } from '../../reliability/app.ts';
import { WINDOW_S } from '../../../schemas/policy.ts';
import { ThreadLimits } from '../../../server/http/thread-limits.ts';
import { startServer } from '../../../server/http/uws.ts';
import { LiveState } from '../../../server/live/state.ts';
import { attachStream, type Stream } from '../../../server/stream/socket.ts';

const SAMPLE = JSON.parse(readFileSync(new URL('../../fixtures/feed/readsb_sample.json', import.meta.url), 'utf8')) as { now: number; aircraft: any[] };
let nowMs = NOW_MS;
let app: RunningApp;
const sockets: WsClient[] = [];
// every message any stream of this file received, checked against schemas/stream-message
const seen = { messages: 0, types: new Set<string>(), problems: [] as string[] };
const check = (m: any) => {
  seen.messages++;
  seen.types.add(m.type);
  for (const p of problems('stream-message', m)) seen.problems.push(`${JSON.stringify(m).slice(0, 120)}: ${p}`);
};

before(async () => {
  app = await startApp(() => nowMs, ['--stream-per-ip', '3']);
});
after(() => {
  for (const s of sockets) s.close();
  app?.stop();
});

const url = (query = '') => `${app.base}/v1/stream${query}`;
async function stream(query = ''): Promise<WsClient> {
  const s = await open(url(query), {}, { onMessage: check });
  sockets.push(s);
  return s;
}
function shut(s: WsClient): Promise<unknown> {
  s.close();
  sockets.splice(sockets.indexOf(s), 1);
  return s.closed;
}

/** the client rule of docs/api.md, "Push stream": hex -> {cell, record} */
function apply(held: Map<string, { cell: string; rec: any }>, m: any): void {
  if (m.type === 'subscribed') {
    const keep = new Set(m.cells.map((c: any) => c.cell));
    for (const [h, e] of held) if (!keep.has(e.cell)) held.delete(h);
  } else if (m.type === 'full') {
    for (const [h, e] of held) if (e.cell === m.cell) held.delete(h);
    for (const rec of m.aircraft) held.set(rec.hex, { cell: m.cell, rec });
  } else if (m.type === 'diff') {
    for (const h of m.gone) if (held.get(h)?.cell === m.cell) held.delete(h);
    for (const rec of m.upsert) held.set(rec.hex, { cell: m.cell, rec });
  }
}

const aircraftIn = async (bbox?: string) => (await (await fetch(`${app.base}/v1/aircraft${bbox ? `?bbox=${bbox}` : ''}`)).json()).aircraft as any[];

/** writes the feed with these raw readsb aircraft at `nowS` (the clock moved with it) and makes the server take it */
async function feed(aircraft: any[], nowS: number): Promise<void> {
  nowMs = nowS * 1000;
  writeFileSync(app.feed, JSON.stringify({ ...SAMPLE, now: nowS, aircraft }));
  await app.app.services.feed!.pollOnce();
  // the snapshot goes live once its gzip is made (off the event loop)
  for (let i = 0; i < 200 && app.app.services.live.ageS(nowMs)! > 0.5; i++) await new Promise((r) => setTimeout(r, 10));
}

test("subscribe: the full state of the box's cells, then end; it holds every aircraft /v1/aircraft lists for the box", async () => {
  const s = await stream('?bbox=5,45,15,55');
  const msgs = await s.untilEnd();
  assert.equal(msgs[0].type, 'subscribed');
  assert.deepEqual(msgs[0].bbox, [5, 45, 15, 55]);
  assert.equal(msgs.at(-1).type, 'end');
  assert.equal(msgs.at(-1).now, nowMs / 1000);
  const held = new Map();
  for (const m of msgs) apply(held, m);
  const inBox = await aircraftIn('5,45,15,55');
  assert.ok(inBox.length > 20, 'the sample has traffic over central Europe');
  for (const a of inBox) assert.deepEqual(held.get(a.hex)?.rec, a, `${a.hex} as /v1/aircraft sends it`);
  // the cells may hold more than the box (clients clip), never anything outside the cells
  for (const { cell, rec } of held.values()) {
    const box = msgs[0].cells.find((c: any) => c.cell === cell).box;
    assert.ok(rec.lon >= box[0] && rec.lat >= box[1] && rec.lon <= box[2] && rec.lat <= box[3], `${rec.hex} in ${cell}`);
  }
  for (const m of msgs.filter((x) => x.type === 'full')) for (const a of m.aircraft) assert.deepEqual(problems('aircraft-record', a), [], 'spec 2.1 records');
  await shut(s);
});

test('no box is the whole sky, aircraft without a position included; a box change by message moves the subscription', async () => {
  const s = await stream();
  const held = new Map();
  for (const m of await s.untilEnd()) apply(held, m);
  const all = await aircraftIn();
  assert.deepEqual([...held.keys()].sort(), all.map((a) => a.hex).sort());
  assert.ok(
    all.some((a) => a.lat === undefined),
    'the sample has aircraft without a position',
  );
  s.send(JSON.stringify({ bbox: [8, 47, 9, 47.9] }));
  const moved = await s.untilEnd();
  assert.equal(moved[0].type, 'subscribed');
  assert.deepEqual(
    moved[0].cells.map((c: any) => c.cell),
    ['2/8/46'],
  );
  for (const m of moved) apply(held, m);
  const zrh = await aircraftIn('8,47,9,47.9');
  for (const a of zrh) assert.ok(held.has(a.hex), a.hex);
  assert.ok(
    [...held.values()].every((e) => e.cell === '2/8/46'),
    'the whole sky was dropped',
  );
  // the same box as the query's text form, and back to the whole sky
  s.send('{"bbox":"8,47,9,47.9"}');
  assert.deepEqual(
    (await s.untilEnd()).map((m) => m.type),
    ['subscribed', 'end'],
    'the same cells: nothing to send again',
  );
  s.send('{"bbox":null}');
  assert.equal((await s.untilEnd()).find((m) => m.type === 'full').cell, 'sky');
  await shut(s);
});

test('a malformed bbox is refused before the upgrade: 422 in the section-7 shape, no-store, as /v1/aircraft refuses it', async () => {
  for (const q of ['?bbox=1,2,3', '?bbox=190,0,200,1', '?bbox=5,55,15,45', '?bbox=a,b,c,d', '?bbox=1,2,3,4&bbox=1,2,3,4', `?bbox=${'1'.repeat(90)}`]) {
    const r = (await connect(url(q))) as Refused;
    assert.ok(!(r instanceof WsClient), `${q} was upgraded`);
    const plain = await fetch(`${app.base}/v1/aircraft${q}`);
    assert.equal(r.status, 422, q);
    assert.equal(r.status, plain.status, `${q}: as /v1/aircraft`);
    assert.equal(r.headers['cache-control'], 'no-store');
    const body = JSON.parse(r.body);
    assert.deepEqual(problems('error', body), []);
    assert.deepEqual(body, await plain.json(), `${q}: the same detail as /v1/aircraft`);
  }
  // a plain GET (no Upgrade) is told what the route is
  const plain = await fetch(url('?bbox=5,45,15,55'));
  assert.equal(plain.status, 426);
  assert.equal(plain.headers.get('upgrade'), 'websocket');
  assert.equal(plain.headers.get('cache-control'), 'no-store');
  assert.match((await plain.json()).detail, /is a WebSocket/);
  assert.equal((await fetch(url('?bbox=1,2'))).status, 422, 'the bbox is checked first there too');
});

test('malformed client messages get an error message in the section-7 shape; the socket stays open and still works', async () => {
  const s = await stream('?bbox=8,47,9,47.9');
  await s.untilEnd();
  for (const bad of ['{"bbox":nope', '[1,2,3,4]', '{"bbox":[1,2,3]}', '{"bbox":[200,0,210,1]}', '{"bbox":[5,55,15,45]}']) {
    s.send(bad);
    const m = await s.next();
    assert.equal(m.type, 'error', bad);
    assert.equal(m.error, 'invalid_request', bad);
    assert.equal(typeof m.detail, 'string');
  }
  s.send(Buffer.from([1, 2, 3]), true);
  assert.match((await s.next()).detail, /binary messages/);
  s.send('{"bbox":[-74,40,-73,41]}');
  assert.equal((await s.next()).type, 'subscribed', 'a good message after the bad ones is served');
  await s.untilEnd();
  assert.ok(!app.logs.some((l) => l.startsWith('stream: ')), app.logs.join('\n'));
  await shut(s);
});

test('a feed change arrives as one diff per changed cell with the snapshot time, then end', async () => {
  const s = await stream('?bbox=5,45,15,55');
  const held = new Map();
  for (const m of await s.untilEnd()) apply(held, m);
  const t0 = nowMs / 1000;
  const inBox = SAMPLE.aircraft.filter((a) => a.lon >= 5 && a.lon <= 15 && a.lat >= 45 && a.lat <= 55);
  const [climbing, leaving] = inBox;
  const changed = SAMPLE.aircraft
    .filter((a) => a.hex !== leaving.hex)
    .map((a) => (a.hex === climbing.hex ? { ...a, alt_baro: 12345 } : a))
    .concat([{ hex: 'c0ffee', lat: 47.45, lon: 8.55, alt_baro: 'ground', seen: 0.1 }]);
  await feed(changed, t0 + 1);
  const msgs = await s.untilEnd();
  assert.ok(
    msgs.every((m) => m.type === 'diff' || m.type === 'end'),
    msgs.map((m) => m.type).join(),
  );
  assert.ok(
    msgs.every((m) => m.now === t0 + 1),
    'msgs.every((m) => m.now === t0 + 1)',
  );
  const upserted = msgs.flatMap((m) => m.upsert ?? []).map((a: any) => a.hex);
  assert.deepEqual(upserted.sort(), [climbing.hex, 'c0ffee'].sort(), 'only what changed, nothing unchanged');
  assert.deepEqual(
    msgs.flatMap((m) => m.gone ?? []),
    [leaving.hex],
  );
  for (const m of msgs) apply(held, m);
  for (const a of await aircraftIn('5,45,15,55')) assert.deepEqual(held.get(a.hex)?.rec, a, `${a.hex} after the diff`);
  assert.equal(held.get(climbing.hex).rec.alt_baro, 12345);
  assert.ok(!held.has(leaving.hex), '!held.has(leaving.hex)');
  await feed(SAMPLE.aircraft, t0 + 2);
  await shut(s);
});

test('stale: a connected client is told when the snapshot passes 60 s, a new one is told on subscribe, and the whole state follows the recovery', async () => {
  const s = await stream('?bbox=5,45,15,55');
  await s.untilEnd();
  const t0 = nowMs / 1000;
  nowMs += 61_000;
  const stale = await s.next((m) => m.type === 'stale', 5000);
  assert.equal(stale.error, 'stale_snapshot');
  assert.match(stale.detail, /61 s old/);
  assert.equal((await fetch(`${app.base}/v1/aircraft`)).status, 503, 'as the live routes say');
  const late = await stream('?bbox=5,45,15,55');
  assert.deepEqual(
    (await late.untilEnd()).map((m) => m.type),
    ['subscribed', 'stale'],
    'never an empty sky',
  );
  await feed(SAMPLE.aircraft, t0 + 62);
  for (const c of [s, late]) {
    const back = await c.untilEnd();
    assert.ok(
      back.some((m) => m.type === 'full' && m.aircraft.length > 0),
      'the whole state after the outage',
    );
    assert.equal(back.at(-1).type, 'end');
    assert.equal(back.at(-1).now, t0 + 62);
  }
  await Promise.all([shut(s), shut(late)]);
});

test('one address may hold --stream-per-ip streams; one more is refused with 429 before the upgrade', async () => {
  const held = [await stream(), await stream(), await stream()];
  const r = (await connect(url())) as Refused;
  assert.equal(r.status, 429);
  assert.equal(r.headers['cache-control'], 'no-store');
  assert.match(JSON.parse(r.body).detail, /3 streams are open from your address/);
  await shut(held[0]!);
  await new Promise((res) => setTimeout(res, 50));
  const again = await stream();
  assert.equal((await again.next()).type, 'subscribed', 'a closed stream frees its place');
  await Promise.all([again, ...held.slice(1)].map(shut));
});

test('a client that stops reading is closed with code 1008 and a reason once its unsent bytes pass --stream-max-buffer', async () => {
  let clock = NOW_MS;
  const slow = await startApp(() => clock, ['--stream-max-buffer', '65536']);
  try {
    // a busy sky, every record changing every snapshot: about 0.5 MB of diff a second
    const sky = (t: number) =>
      Array.from({ length: 4000 }, (_, i) => ({
        hex: (0x100000 + i).toString(16),
        lat: (i % 170) - 85,
        lon: ((i * 7) % 360) - 180,
        alt_baro: 1000 + t + i,
        gs: 400,
        seen: 0.1,
      }));
    const c = await open(`${slow.base}/v1/stream`);
    await c.untilEnd();
    c.pause();
    const t0 = clock / 1000;
    for (let k = 1; k <= 60 && !slow.logs.some((l) => l.includes('closed a slow client')); k++) {
      clock = (t0 + k) * 1000;
      writeFileSync(slow.feed, JSON.stringify({ now: t0 + k, aircraft: sky(k) }));
      await slow.app.services.feed!.pollOnce();
      await new Promise((r) => setTimeout(r, 30));
    }
    assert.ok(
      slow.logs.some((l) => /stream: closed a slow client \(\d+ bytes unsent, limit 65536\)/.test(l)),
      slow.logs.join('\n'),
    );
    assert.equal(slow.app.stream.clients, 0, 'the server let go of it');
    c.resume();
    const closed = await c.closed;
    assert.equal(closed.code, 1008);
    assert.match(closed.reason, /^too slow: \d+ KiB unsent \(limit 64\); reconnect, or take a smaller box$/);
  } finally {
    slow.stop();
  }
});

test('connections and box changes count against the stream bucket: past it a box change gets an error message and an upgrade a 429', async () => {
  const limited = await startApp(() => NOW_MS, ['--rate-limits']);
  try {
    const c = await open(`${limited.base}/v1/stream?bbox=8,47,9,47.9`, {}, { onMessage: check });
    await c.untilEnd();
    // the connection was 1 of 300; 299 box changes are served
    for (let i = 0; i < 299; i++) {
      c.send('{"bbox":[8,47,9,47.9]}');
      assert.equal((await c.next()).type, 'subscribed');
      await c.untilEnd();
    }
    c.send('{"bbox":[8,47,9,47.9]}');
    const m = await c.next();
    assert.deepEqual([m.type, m.error], ['error', 'rate_limited']);
    assert.match(m.detail, /more than 300 stream connections and box changes in 600 s; wait \d+ s/);
    const r = (await connect(`${limited.base}/v1/stream`)) as Refused;
    assert.equal(r.status, 429);
    assert.equal(r.headers['ratelimit-remaining'], '0');
    assert.ok(Number(r.headers['retry-after']) > 0, "Number(r.headers['retry-after']) > 0");
    assert.equal(JSON.parse(r.body).error, 'rate_limited');
    c.close();
    await c.closed;
  } finally {
    limited.stop();
  }
});

test('every message the streams above received matches schemas/stream-message (the contract in /openapi.json)', () => {
  assert.deepEqual(seen.problems.slice(0, 5), []);
  assert.deepEqual([...seen.types].sort(), ['diff', 'end', 'error', 'full', 'stale', 'subscribed']);
  assert.ok(seen.messages > 300, 'seen.messages > 300');
});

// a busy sky, every record changing every snapshot: about 0.5 MB of diff a second
const busySky = (t: number) =>
  Array.from({ length: 4000 }, (_, i) => ({
    hex: (0x100000 + i).toString(16),
    lat: (i % 170) - 85,
    lon: ((i * 7) % 360) - 180,
    alt_baro: 1000 + t + i,
    gs: 400,
    seen: 0.1,
  }));

test('past --stream-max-unsent for all clients together the slowest are closed at once; a client that reads is kept and the server answers on', async () => {
  let clock = NOW_MS;
  const b = await startApp(() => clock, ['--stream-max-unsent', String(1024 * 1024), '--stream-max-buffer', String(64 * 1024 * 1024), '--stream-per-ip', '20']);
  try {
    let ends = 0;
    const reader = await open(`${b.base}/v1/stream?bbox=8,47,9,48`, {}, { parse: false, onMessage: (m) => m.type === 'end' && ends++ });
    const paused: WsClient[] = [];
    for (let i = 0; i < 4; i++) {
      const c = await open(`${b.base}/v1/stream`);
      await c.untilEnd();
      c.pause();
      paused.push(c);
    }
    const t0 = clock / 1000;
    for (let k = 1; k <= 80 && b.app.stream.shed.closed === 0; k++) {
      clock = (t0 + k) * 1000;
      writeFileSync(b.feed, JSON.stringify({ now: t0 + k, aircraft: busySky(k) }));
      await b.app.services.feed!.pollOnce();
      await new Promise((r) => setTimeout(r, 30));
    }
    const line = b.logs.find((l) => l.includes('over the unsent budget'));
    assert.match(
      line ?? b.logs.join('\n'),
      /^stream: over the unsent budget \([\d.]+ MiB of 1\.0 MiB across threads\): closed the \d+ slowest of 5 clients here \([\d.]+ MiB\)$/,
    );
    const closed = b.app.stream.shed.closed;
    assert.ok(closed >= 1 && closed <= 4, `${closed} closed`);
    assert.equal(b.app.stream.clients, 5 - closed, 'the server let go of them at once');
    assert.ok(b.app.stream.unsent <= 1024 * 1024, `what stays unsent fits the budget: ${b.app.stream.unsent}`);
    // closed without a close frame (one would wait behind what they have not read)
    const gone = await Promise.race([
      Promise.any(
        paused.map(async (c) => {
          c.resume();
          return c.closed;
        }),
      ),
      new Promise((r) => setTimeout(() => r(null), 5000)),
    ]);
    assert.deepEqual(gone, { code: 1006, reason: 'connection closed without a close frame' });
    // the reader was not among them, and still gets each snapshot; the HTTP routes answer
    const before = ends;
    clock += 1000;
    writeFileSync(b.feed, JSON.stringify({ now: clock / 1000, aircraft: busySky(99) }));
    await b.app.services.feed!.pollOnce();
    for (let i = 0; i < 200 && ends === before; i++) await new Promise((r) => setTimeout(r, 10));
    assert.ok(ends > before, 'the reading client got the next snapshot');
    assert.equal((await fetch(`${b.base}/v1/now`)).status, 200);
    reader.close();
    for (const c of paused) c.destroy();
  } finally {
    b.stop();
  }
});

test('while what closed clients left unsent fills --stream-max-unsent, an upgrade gets 429 in the section-7 shape; once uWS lets go of it, upgrades open again', async () => {
  let clock = NOW_MS;
  // a client past 64 KiB is closed with its reason; uWS holds its unsent bytes ~16 s more, counted
  const b = await startApp(() => clock, ['--stream-max-unsent', String(96 * 1024), '--stream-max-buffer', String(64 * 1024), '--stream-per-ip', '20']);
  try {
    const c = await open(`${b.base}/v1/stream`);
    await c.untilEnd();
    c.pause();
    const t0 = clock / 1000;
    for (let k = 1; k <= 60 && !b.logs.some((l) => l.includes('closed a slow client')); k++) {
      clock = (t0 + k) * 1000;
      writeFileSync(b.feed, JSON.stringify({ now: t0 + k, aircraft: busySky(k) }));
      await b.app.services.feed!.pollOnce();
      await new Promise((r) => setTimeout(r, 30));
    }
    assert.ok(
      b.logs.some((l) => l.includes('closed a slow client')),
      b.logs.join('\n'),
    );
    // counted at the next count (after a publish, or the once-a-second tick)
    for (let i = 0; i < 30 && b.app.stream.unsent < 96 * 1024; i++) await new Promise((r) => setTimeout(r, 100));
    const r = (await connect(`${b.base}/v1/stream`)) as Refused;
    assert.equal(r.status, 429, JSON.stringify(r));
    assert.equal(r.headers['cache-control'], 'no-store');
    assert.equal(r.headers['retry-after'], '30');
    const body = JSON.parse(r.body);
    assert.deepEqual(problems('error', body), []);
    assert.equal(body.error, 'rate_limited');
    assert.match(
      body.detail,
      /^the server holds as much unsent stream data as it allows \(--stream-max-unsent, 0\.1 MiB, for all clients\); retry in 30 s, or poll \/v1\/aircraft$/,
    );
    assert.equal(b.app.stream.shed.refused, 1);
    assert.equal((await fetch(`${b.base}/v1/aircraft`)).status, 200, 'the HTTP routes answer meanwhile');
    // 16 s later uWS has let go of the closed socket: counted no more at the next tick
    clock += 17_000;
    for (let i = 0; i < 30 && b.app.stream.unsent > 0; i++) await new Promise((r) => setTimeout(r, 100));
    const again = await open(`${b.base}/v1/stream`);
    assert.equal((await again.next()).type, 'subscribed');
    again.close();
    c.destroy();
  } finally {
    b.stop();
  }
});

test('an address the shared open-stream table cannot count is refused with 429 in the section-7 shape and logged: the cap fails closed', async () => {
  // the table of the serving threads, its gauges full of other addresses' open streams
  const table = new ThreadLimits(ThreadLimits.allocate(NOW_MS, { gaugeSlots: 32 }), WINDOW_S);
  for (let i = 0; i < 31; i++) assert.equal(table.reserve(`192.0.2.${i}`, 8), 'opened');
  const logs: string[] = [];
  const held: { st?: Stream } = {};
  const running = await startServer([], {
    host: '127.0.0.1',
    port: 0,
    trustProxy: [],
    rateLimits: false,
    clock: () => NOW_MS,
    log: (l) => logs.push(l),
    sockets: (app, edge) => {
      held.st = attachStream(app, edge, { live: new LiveState(), perIp: 8, maxBufferBytes: 1 << 20, opens: table });
    },
  });
  const at = `http://127.0.0.1:${running.port}/v1/stream`;
  try {
    const tries = await Promise.all(Array.from({ length: 30 }, () => connect(at)));
    assert.ok(
      tries.every((t) => 'status' in t),
      `${tries.filter((t) => !('status' in t)).length} of 30 opened uncounted`,
    );
    for (const r of tries as Refused[]) {
      assert.equal(r.status, 429);
      assert.equal(r.headers['cache-control'], 'no-store');
      assert.equal(r.headers['retry-after'], '30');
      assert.deepEqual(JSON.parse(r.body), { error: 'rate_limited', detail: 'the server cannot count open streams for more addresses now; retry in 30 s' });
    }
    // logged once for the 30 refusals, and once when it ends
    assert.equal(logs.filter((l) => l.startsWith('stream: refusing upgrades: the open-stream table has no room')).length, 1, logs.join('\n'));
    // a stream closed elsewhere makes room: counted from the upgrade, given back on close
    table.close('192.0.2.3');
    const c = await open(at);
    assert.equal((await c.next()).type, 'subscribed');
    assert.equal(table.opened('127.0.0.1'), 1);
    assert.equal(logs.filter((l) => l === 'stream: the open-stream table counts new addresses again').length, 1, logs.join('\n'));
    c.close();
    await c.closed;
    for (let i = 0; i < 50 && table.opened('127.0.0.1') !== 0; i++) await new Promise((r) => setTimeout(r, 10));
    assert.equal(table.opened('127.0.0.1'), 0);
  } finally {
    held.st?.stop();
    running.closeAll();
  }
});
