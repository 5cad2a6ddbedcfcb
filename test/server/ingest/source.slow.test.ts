// the feed adapter: file replaced by rename, truncated writes, URL polling, log-once, stop().
// polls are driven by hand (pollOnce) so nothing depends on timing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { FeedSource } from '../../../server/ingest/source.ts';
import { IngestThread } from '../../../server/ingest/ingest-thread.ts';
import { aircraftOf, type Arrival } from '../../../server/ingest/arrival.ts';

const SAMPLE = readFileSync(new URL('../../fixtures/feed/readsb_sample.json', import.meta.url), 'utf8');
const feedAt = (now: number, hexes: string[]) => JSON.stringify({ now, messages: 1, aircraft: hexes.map((hex) => ({ hex, lat: 50, lon: 8 })) });

// the server's clock, pinned a few seconds after the fixtures' `now`
const CLOCK_MS = 1795312405_000;

function harness(feed: string, timeoutMs = 5000, extra: { maxAircraft?: number; maxBytes?: number; thread?: IngestThread } = {}) {
  const logs: string[] = [];
  const got: Arrival[] = [];
  const src = new FeedSource({ feed, log: (l) => logs.push(l), timeoutMs, clock: () => CLOCK_MS, ...extra });
  src.onSnapshot((s) => got.push(s));
  return { src, logs, got };
}

function tempDir() {
  return mkdtempSync(join(tmpdir(), 'contrail-feed-'));
}

test('a file is read once, re-read only when it changes, and a rename-replaced file is picked up', async () => {
  const dir = tempDir();
  try {
    const file = join(dir, 'aircraft.json');
    writeFileSync(file, SAMPLE);
    const { src, got, logs } = harness(file);
    await src.pollOnce();
    await src.pollOnce();
    assert.equal(got.length, 1, 'an unchanged file is not re-read');
    assert.equal(aircraftOf(got[0]!).length, 183);
    assert.equal(logs.filter((l) => l.includes('first snapshot')).length, 1);
    // readsb's way: write a temporary file, rename it over the old one
    writeFileSync(join(dir, 'aircraft.json.tmp'), feedAt(1795312390, ['abcdef']));
    renameSync(join(dir, 'aircraft.json.tmp'), file);
    await src.pollOnce();
    assert.equal(got.length, 2);
    assert.equal(got[1]!.now, 1795312390);
    assert.deepEqual(src.current(), got[1]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('truncated writes never replace the good snapshot, are counted, logged once; the recovery is logged once', async () => {
  const dir = tempDir();
  try {
    const file = join(dir, 'aircraft.json');
    writeFileSync(file, SAMPLE);
    const { src, got, logs } = harness(file);
    await src.pollOnce();
    const good = src.current();
    for (const cut of [100, 2000, 5000]) {
      writeFileSync(file, SAMPLE.slice(0, cut));
      await src.pollOnce();
    }
    assert.equal(got.length, 1);
    assert.equal(src.current(), good);
    assert.equal(src.counters.invalid_json, 3);
    assert.equal(logs.filter((l) => l.includes('invalid_json')).length, 1, 'logged once per kind, not once per poll');
    writeFileSync(file, feedAt(1795312399, ['abcdef', '~123456']));
    await src.pollOnce();
    assert.equal(got.length, 2);
    assert.equal(logs.filter((l) => l.includes('recovered')).length, 1);
    assert.equal(logs.filter((l) => l.includes('non_icao_hex')).length, 1);
    // a new outage after the recovery is logged again, once
    writeFileSync(file, '{"now": 1}');
    await src.pollOnce();
    writeFileSync(file, '{"now": 2}');
    await src.pollOnce();
    assert.equal(logs.filter((l) => l.includes('missing_aircraft')).length, 1);
    assert.equal(src.counters.missing_aircraft, 2);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a missing file is a counted read_error, logged once, and a listener that throws harms nobody', async () => {
  const dir = tempDir();
  try {
    const file = join(dir, 'nope.json');
    const { src, got, logs } = harness(file);
    src.onSnapshot(() => {
      throw new Error('listener bug');
    });
    const after: Arrival[] = [];
    src.onSnapshot((s) => after.push(s));
    await src.pollOnce();
    await src.pollOnce();
    assert.equal(src.counters.read_error, 2);
    assert.equal(logs.filter((l) => l.includes('read_error')).length, 1);
    writeFileSync(file, SAMPLE);
    await src.pollOnce();
    writeFileSync(file, feedAt(1795312400, ['abcdef']));
    await src.pollOnce();
    assert.equal(got.length, 2);
    assert.equal(after.length, 2, 'listeners after the throwing one still run');
    assert.equal(src.counters.listener_error, 2);
    assert.equal(logs.filter((l) => l.includes('listener bug')).length, 1);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a URL is polled: HTTP errors and truncated bodies keep the last good snapshot', async () => {
  let body = SAMPLE;
  let status = 200;
  const server: Server = createServer((req, res) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/data/aircraft.json`;
  const { src, got, logs } = harness(url);
  try {
    await src.pollOnce();
    assert.equal(got.length, 1);
    status = 503;
    await src.pollOnce();
    await src.pollOnce();
    assert.equal(src.counters.http_status, 2);
    status = 200;
    body = SAMPLE.slice(0, 3000);
    await src.pollOnce();
    assert.equal(src.counters.invalid_json, 1);
    assert.equal(got.length, 1, 'nothing bad replaced the good snapshot');
    assert.equal(aircraftOf(src.current()!).length, 183);
    for (const kind of ['http_status', 'invalid_json']) assert.equal(logs.filter((l) => l.includes(kind)).length, 1, kind);
    body = feedAt(1795312401, ['abcdef']);
    await src.pollOnce();
    assert.equal(got.length, 2);
    assert.equal(got[1]!.now, 1795312401);
  } finally {
    src.stop();
    server.closeAllConnections();
    server.close();
  }
});

test('a URL that never answers is a counted timeout, logged once, and the poll returns', async () => {
  const server: Server = createServer(() => {});
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { src, logs, got } = harness(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`, 100);
  try {
    await src.pollOnce();
    await src.pollOnce();
    assert.equal(src.counters.timeout, 2);
    assert.equal(logs.filter((l) => l.includes('timeout')).length, 1);
    assert.equal(got.length, 0);
  } finally {
    src.stop();
    server.closeAllConnections();
    server.close();
  }
});

test('an unreachable URL is a counted fetch_failed, logged once', async () => {
  // a port that was just free: nothing listens there
  const probe = createServer();
  await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
  const port = (probe.address() as AddressInfo).port;
  await new Promise<void>((r) => probe.close(() => r()));
  const { src, logs } = harness(`http://127.0.0.1:${port}/aircraft.json`);
  await src.pollOnce();
  await src.pollOnce();
  assert.equal(src.counters.fetch_failed, 2);
  assert.equal(logs.filter((l) => l.includes('fetch_failed')).length, 1);
  assert.match(logs[0]!, /ECONNREFUSED/);
});

test('start() polls until stop(), and stop() leaves no timer behind', async () => {
  const dir = tempDir();
  try {
    const file = join(dir, 'aircraft.json');
    writeFileSync(file, SAMPLE);
    const timers = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
    const before = timers();
    const src = new FeedSource({ feed: file, log: () => {}, intervalMs: 5 });
    const first = new Promise<Arrival>((r) => src.onSnapshot(r));
    src.start();
    assert.equal(aircraftOf(await first).length, 183);
    // let the loop arm its next timer, then stop
    await new Promise((r) => setImmediate(r));
    src.stop();
    assert.equal(timers(), before);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a snapshot stamped in the future is refused with a logged reason; the previous one stays', async () => {
  const dir = tempDir();
  try {
    const file = join(dir, 'aircraft.json');
    writeFileSync(file, feedAt(CLOCK_MS / 1000 - 1, ['aaaaaa']));
    const { src, got, logs } = harness(file);
    await src.pollOnce();
    // an hour ahead: accepted, it would keep the live routes "fresh" for an hour after the feed stops
    writeFileSync(file, feedAt(CLOCK_MS / 1000 + 3600, ['bbbbbb']));
    await src.pollOnce();
    assert.equal(got.length, 1);
    assert.equal(aircraftOf(src.current()!)[0]!.hex, 'aaaaaa');
    assert.equal(src.counters.future_now, 1);
    assert.ok(
      logs.some((l) => /future_now: .*3600 s ahead of this server's clock \(limit 5 s\)/.test(l)),
      logs.join('\n'),
    );
    // within the tolerance: a decoder clock a little ahead is taken
    writeFileSync(file, feedAt(CLOCK_MS / 1000 + 4, ['cccccc']));
    await src.pollOnce();
    assert.equal(aircraftOf(src.current()!)[0]!.hex, 'cccccc');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a snapshot whose clock went an hour back is refused, counted each time and logged once; the previous one stays', async () => {
  const dir = tempDir();
  try {
    const file = join(dir, 'aircraft.json');
    writeFileSync(file, feedAt(CLOCK_MS / 1000 - 1, ['aaaaaa']));
    const { src, got, logs } = harness(file);
    await src.pollOnce();
    // an hour back, then on from there: taken, it would replace the newest sky with a stale one
    for (let k = 0; k < 4; k++) {
      writeFileSync(file, feedAt(CLOCK_MS / 1000 - 3601 + k, [`bbbbb${k}`]));
      await src.pollOnce();
    }
    assert.equal(got.length, 1);
    assert.equal(aircraftOf(src.current()!)[0]!.hex, 'aaaaaa');
    assert.equal(src.counters.backwards_now, 4);
    const lines = logs.filter((l) => l.includes('backwards_now'));
    assert.equal(lines.length, 1, logs.join('\n'));
    assert.match(lines[0]!, /backwards_now: .*"now" went back 3600 s from the snapshot already taken; .*3601 s behind this server's clock/);
    // the feed recovers: logged once, taken at once
    writeFileSync(file, feedAt(CLOCK_MS / 1000, ['cccccc']));
    await src.pollOnce();
    assert.equal(aircraftOf(src.current()!)[0]!.hex, 'cccccc');
    assert.equal(logs.filter((l) => l.includes('recovered')).length, 1);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("a decoder clock set back a few seconds (it ran ahead) is taken as reset after three snapshots that agree with this server's clock, logged", async () => {
  const dir = tempDir();
  try {
    const file = join(dir, 'aircraft.json');
    writeFileSync(file, feedAt(CLOCK_MS / 1000 + 4, ['aaaaaa']));
    const { src, got, logs } = harness(file);
    await src.pollOnce();
    for (let k = 1; k <= 3; k++) {
      writeFileSync(file, feedAt(CLOCK_MS / 1000 + k - 3, [`bbbbb${k}`]));
      await src.pollOnce();
    }
    assert.deepEqual(
      got.map((g) => aircraftOf(g)[0]!.hex),
      ['aaaaaa', 'bbbbb3'],
    );
    assert.equal(src.counters.backwards_now, 2);
    assert.ok(
      logs.some((l) => /the decoder's clock went back 4 s and agrees with this server's: taken as reset/.test(l)),
      logs.join('\n'),
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('past the aircraft cap the most recently heard are kept, counted and logged once', async () => {
  const dir = tempDir();
  try {
    const file = join(dir, 'aircraft.json');
    const aircraft = Array.from({ length: 10 }, (_, i) => ({ hex: `00000${i}`, lat: 50, lon: 8, seen: 10 - i }));
    writeFileSync(file, JSON.stringify({ now: CLOCK_MS / 1000, aircraft }));
    const { src, got, logs } = harness(file, 5000, { maxAircraft: 4 });
    await src.pollOnce();
    assert.deepEqual(
      aircraftOf(got[0]!).map((a) => a.hex),
      ['000006', '000007', '000008', '000009'],
    );
    assert.equal(src.counters.too_many_aircraft, 6);
    assert.equal(logs.filter((l) => l.includes('too_many_aircraft')).length, 1);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a chunked HTTP feed without Content-Length is cut off at the byte cap, not buffered whole', async () => {
  let sent = 0;
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    // an endless body: only the cap can stop the reader
    const push = () => {
      while (res.write(chunk)) {
        sent += chunk.length;
        if (sent > 64 * 1024 * 1024) return res.end();
      }
      res.once('drain', push);
    };
    push();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  try {
    const { src, got, logs } = harness(`http://127.0.0.1:${(server.address() as AddressInfo).port}/aircraft.json`, 10_000, { maxBytes: 1024 * 1024 });
    await src.pollOnce();
    assert.equal(got.length, 0);
    assert.equal(src.counters.too_large, 1);
    assert.ok(
      logs.some((l) => l.includes('sent over 1048576 bytes; stopped reading')),
      logs.join('\n'),
    );
    assert.ok(sent < 16 * 1024 * 1024, `the server could push only ${sent} bytes before the reader hung up`);
  } finally {
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
  }
});

test('bytes from a bad feed are escaped before they reach the log', async () => {
  const dir = tempDir();
  try {
    const file = join(dir, 'aircraft.json');
    writeFileSync(file, Buffer.from('\u001b[2J\nforged: line\u0000{'));
    const { src, logs } = harness(file);
    await src.pollOnce();
    assert.equal(logs.length, 1);
    assert.ok(!/[\u0000-\u001f]/.test(logs[0]!), JSON.stringify(logs[0]));
    assert.ok(!logs[0]!.includes('\n'), "!logs[0]!.includes('\\n')");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('with an ingest thread the file is read there: a read that fails is counted, logged once and tried again at the next poll', {
  timeout: 30_000,
}, async () => {
  const dir = tempDir();
  const thread = new IngestThread();
  try {
    const file = join(dir, 'aircraft.json');
    // a folder where the file should be: stat succeeds, the read on the ingest thread fails (EISDIR)
    mkdirSync(file);
    const { src, got, logs } = harness(file, 5000, { thread });
    await src.pollOnce();
    await src.pollOnce();
    assert.equal(src.counters.read_error, 2, 'the unchanged path is read again, not skipped as already seen');
    assert.deepEqual(
      logs.filter((l) => l.includes('read_error')),
      [`feed: read_error: cannot read ${file}: EISDIR (logged once until the feed recovers)`],
    );
    rmSync(file, { recursive: true });
    writeFileSync(file, SAMPLE);
    await src.pollOnce();
    assert.equal(got.length, 1);
    assert.ok('parts' in got[0]!, 'prepared on the ingest thread');
    await src.pollOnce();
    assert.equal(got.length, 1, 'an unchanged file is not read again');
    assert.ok(
      logs.some((l) => l.includes('first snapshot with 183 aircraft')),
      "logs.some((l) => l.includes('first snapshot with 183 aircraft'))",
    );
  } finally {
    thread.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});
