// polling the feeder list: file and URL, problems logged once per kind, previous state kept, saves when due.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStations } from '../../../server/stations/open.ts';
import { ROSTER_FILE } from '../../../server/stations/roster-file.ts';
import { StationSource } from '../../../server/stations/source.ts';

const T0 = 1795435200;
const U1 = '5b0c3f2e-9a41-4d7e-8c55-0e6f1a2b3c4d';
const U2 = 'e2d1c0b9-a8f7-4e6d-9c5b-4a3928170615';
const list = (gen: number, uuids: string[]) =>
  JSON.stringify({ generated_at: gen, feeders: uuids.map((uuid, i) => ({ uuid, lat: 47 + i, lon: 8, connected: true })) });

function setup(t: { after: (fn: () => void) => void }, extra: { fetch?: typeof fetch; location?: string } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'contrail-source-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'feeders.json');
  let now = T0 * 1000;
  const logs: string[] = [];
  const st = openStations({
    state: join(dir, 'state'),
    location: extra.location ?? file,
    clock: () => now,
    log: (l) => logs.push(l),
    source: { fetch: extra.fetch, saveEveryMs: 60_000 },
  });
  // a new mtime per write, so the unchanged-file shortcut sees every rewrite
  let m = 1;
  const write = (text: string) => {
    writeFileSync(file, text);
    utimesSync(file, 1_000_000 + m, 1_000_000 + m++);
  };
  return { dir, file, logs, st, src: st.source!, write, at: (s: number) => (now = s * 1000) };
}

test('a file source applies a list, reports an unchanged file, and ignores a rewrite with the same generated_at', async (t) => {
  const s = setup(t);
  s.write(list(T0, [U1]));
  assert.equal(await s.src.poll(), 'applied');
  assert.equal(s.st.roster.stationCount(T0 * 1000), 1);
  assert.equal(await s.src.poll(), 'unchanged');
  s.write(list(T0, [U1, U2]));
  assert.equal(await s.src.poll(), 'unchanged');
  assert.equal(s.st.roster.size, 1);
  assert.match(s.logs.join('\n'), /new station st_[a-z2-7]{10}/);
});

test('unreadable and malformed lists keep the previous state, each problem logged once until it clears', async (t) => {
  const s = setup(t);
  s.write(list(T0, [U1]));
  await s.src.poll();
  s.logs.length = 0;
  rmSync(s.file);
  s.at(T0 + 10);
  assert.equal(await s.src.poll(), 'read_failed');
  assert.equal(await s.src.poll(), 'read_failed');
  assert.equal(s.st.roster.stationCount((T0 + 10) * 1000), 1, 'previous list still fresh');
  s.write('{not json');
  assert.equal(await s.src.poll(), 'rejected');
  assert.equal(await s.src.poll(), 'rejected', 'a rejected file is read again, not skipped as unchanged');
  s.at(T0 + 200);
  s.write(JSON.stringify({ generated_at: 'soon', feeders: [] }));
  assert.equal(await s.src.poll(), 'rejected');
  await s.src.poll();
  assert.equal(s.st.roster.stationCount((T0 + 200) * 1000), null, 'stale after 120 s without a good list');
  s.write(list(T0 + 195, [U1]));
  assert.equal(await s.src.poll(), 'applied');
  assert.deepEqual(s.logs, [
    'stations: feeder list unreadable (ENOENT); keeping the previous state',
    'stations: feeder list rejected (not_json): the feeder list is not JSON; keeping the previous state',
    'stations: no feeder list newer than 120 s: station presence unavailable (station_count null)',
    'stations: feeder list readable again',
    'stations: feeder list fresh again; station presence available',
  ]);
  assert.ok(!s.logs.join('\n').includes(s.dir), 'the location is never logged');
});

test('skipped entries are logged once per reason while they recur', async (t) => {
  const s = setup(t);
  const bad = (gen: number) =>
    JSON.stringify({
      generated_at: gen,
      feeders: [
        { uuid: 'nope', lat: 1, lon: 1, connected: true },
        { uuid: U1, lat: 1, lon: 1, connected: true, messages: -4 },
      ],
    });
  s.write(bad(T0));
  await s.src.poll();
  s.write(bad(T0 + 10));
  await s.src.poll();
  s.write(list(T0 + 20, [U1]));
  await s.src.poll();
  s.write(bad(T0 + 30));
  await s.src.poll();
  const lines = s.logs.filter((l) => !l.includes('new station'));
  assert.deepEqual(lines, [
    'stations: feeder list: 1 entry skipped (bad_uuid)',
    'stations: feeder list: 1 malformed optional field(s) read as absent',
    'stations: feeder list: 1 entry skipped (bad_uuid)',
    'stations: feeder list: 1 malformed optional field(s) read as absent',
  ]);
});

test('a URL source: 200 applies; an HTTP error, a failed fetch and an oversized body keep the state and log codes only', async (t) => {
  let answer: () => Promise<Response> = async () => new Response(list(T0, [U1]), { status: 200 });
  const calls: string[] = [];
  const fake = (async (url: string | URL | Request) => {
    calls.push(String(url));
    return answer();
  }) as typeof fetch;
  const s = setup(t, { fetch: fake, location: 'http://192.0.2.200:8080/feeders.json' });
  assert.equal(await s.src.poll(), 'applied');
  assert.equal(calls[0], 'http://192.0.2.200:8080/feeders.json');
  answer = async () => new Response('busy', { status: 503 });
  assert.equal(await s.src.poll(), 'read_failed');
  answer = async () => {
    throw Object.assign(new TypeError('fetch failed'), { cause: Object.assign(new Error('connect ECONNREFUSED 192.0.2.200:8080'), { code: 'ECONNREFUSED' }) });
  };
  assert.equal(await s.src.poll(), 'read_failed');
  assert.equal(s.st.roster.stationCount(T0 * 1000), 1);
  assert.deepEqual(
    s.logs.filter((l) => !l.includes('new station')),
    ['stations: feeder list unreadable (HTTP_503); keeping the previous state'],
  );
  const small = new StationSource({
    location: 'https://x.invalid/f',
    roster: s.st.roster,
    keys: s.st.keys,
    store: null,
    clock: () => T0 * 1000,
    log: (l) => s.logs.push(l),
    maxBytes: 10,
    fetch: (async () => new Response(list(T0 + 1, [U2]))) as typeof fetch,
  });
  assert.equal(await small.poll(), 'read_failed');
  assert.match(s.logs.at(-1)!, /unreadable \(TOO_BIG\)/);
  assert.ok(!s.logs.join('\n').includes('192.0.2.200'), "!s.logs.join('\\n').includes('192.0.2.200')");
  assert.throws(
    () => new StationSource({ location: 'ftp://x/y', roster: s.st.roster, keys: s.st.keys, store: null, clock: () => 0, log: () => {} }),
    /file path or an http\(s\) URL/,
  );
});

test('saves: a new station at once, routine last_seen moves at most every 60 s, and on stop', async (t) => {
  const s = setup(t);
  const saved = () => JSON.parse(readFileSync(join(s.dir, 'state', ROSTER_FILE), 'utf8')).stations[0].last_seen;
  s.write(list(T0, [U1]));
  await s.src.poll();
  assert.equal(saved(), T0, 'new station saved at once');
  s.at(T0 + 10);
  s.write(list(T0 + 10, [U1]));
  await s.src.poll();
  assert.equal(saved(), T0, 'routine change waits');
  s.at(T0 + 60);
  s.write(list(T0 + 60, [U1]));
  await s.src.poll();
  assert.equal(saved(), T0 + 60, '60 s after the last save');
  s.at(T0 + 70);
  s.write(list(T0 + 70, [U1]));
  await s.src.poll();
  assert.equal(saved(), T0 + 60);
  s.src.stop();
  assert.equal(saved(), T0 + 70, 'stop() flushes');
});

test('start() polls at once and on each interval; stop() clears the timer', async (t) => {
  t.mock.timers.enable({ apis: ['setTimeout'] });
  let n = 0;
  const fake = (async () => {
    n++;
    return new Response(list(T0 + n, [U1]));
  }) as typeof fetch;
  const s = setup(t, { fetch: fake, location: 'https://agg.example/feeders.json' });
  const flush = async () => {
    for (let i = 0; i < 20; i++) await new Promise<void>((r) => setImmediate(r));
  };
  s.src.start();
  await flush();
  assert.equal(n, 1);
  t.mock.timers.tick(9_999);
  await flush();
  assert.equal(n, 1);
  t.mock.timers.tick(1);
  await flush();
  assert.equal(n, 2);
  s.src.stop();
  t.mock.timers.tick(60_000);
  await flush();
  assert.equal(n, 2, 'no poll after stop');
});
