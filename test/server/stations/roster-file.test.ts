// persistence in --state: atomic whole-file writes, a restart keeps the roster, broken files never crash the start.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { StationKeys } from '../../../server/stations/ids.ts';
import { openStations } from '../../../server/stations/open.ts';
import { parseFeederList } from '../../../server/stations/parse.ts';
import { Roster } from '../../../server/stations/roster.ts';
import { createOnce, ROSTER_FILE, SECRET_FILE, StationStore } from '../../../server/stations/roster-file.ts';

const T0 = 1795435200;
const U1 = '5b0c3f2e-9a41-4d7e-8c55-0e6f1a2b3c4d';
const U2 = 'e2d1c0b9-a8f7-4e6d-9c5b-4a3928170615';

function tempDir(t: { after: (fn: () => void) => void }): string {
  const d = mkdtempSync(join(tmpdir(), 'contrail-stations-'));
  t.after(() => rmSync(d, { recursive: true, force: true }));
  return d;
}

function filled(keys: StationKeys): Roster {
  const r = new Roster();
  const p = parseFeederList(
    JSON.stringify({
      generated_at: T0,
      feeders: [
        { uuid: U1, lat: 47.4581, lon: 8.5555, connected: true },
        { uuid: U2, lat: 50.0379, lon: 8.5622, connected: true },
      ],
    }),
    keys,
  );
  assert.ok(p.ok, 'p.ok');
  r.apply(p.list, T0 * 1000, (k) => keys.publicId(k));
  return r;
}

test('a restart keeps the roster: a new store instance reads the state dir back', (t) => {
  const dir = tempDir(t);
  const a = openStations({ state: dir, location: '', clock: () => T0 * 1000, log: () => {} });
  const r = filled(a.keys);
  a.store.save(r.saved(), a.keys);
  assert.deepEqual(readdirSync(dir).sort(), [SECRET_FILE, ROSTER_FILE].sort(), 'no temporary file left behind');
  const logs: string[] = [];
  const b = openStations({ state: dir, location: '', clock: () => (T0 + 60) * 1000, log: (l) => logs.push(l) });
  assert.deepEqual(logs, []);
  assert.equal(b.source, null);
  assert.deepEqual(b.roster.publicList((T0 + 60) * 1000), r.publicList((T0 + 600) * 1000), 'same stations, offline until a list arrives');
  assert.equal(b.roster.stationCount((T0 + 60) * 1000), null);
  assert.deepEqual(b.keys.key(U1), a.keys.key(U1), 'the secret is reused, so UUIDs still match');
});

test('the secret file is created once, private (0600), and a broken one stops the start with the fix', (t) => {
  const dir = tempDir(t);
  const s = new StationStore(join(dir, 'nested', 'state'));
  const one = s.loadSecret();
  assert.equal(one.length, 32);
  assert.deepEqual(s.loadSecret(), one);
  assert.equal(statSync(join(dir, 'nested', 'state', SECRET_FILE)).mode & 0o777, 0o600);
  for (const bad of ['', 'zz', 'ab'.repeat(16), 'abc'.repeat(23), 'g'.repeat(64)]) {
    writeFileSync(join(dir, 'nested', 'state', SECRET_FILE), bad);
    assert.throws(() => s.loadSecret(), /delete it to make a new one/, JSON.stringify(bad));
  }
});

test('a corrupt or foreign roster file is moved aside and the roster starts empty', (t) => {
  const dir = tempDir(t);
  const store = new StationStore(dir);
  const keys = new StationKeys(store.loadSecret());
  const file = join(dir, ROSTER_FILE);
  const cases: [string, RegExp][] = [
    ['{"version":1,', /not JSON/],
    ['[]', /not a version-1 roster/],
    ['{"version":2,"stations":[]}', /not a version-1 roster/],
    ['{"version":1,"stations":{}}', /not a version-1 roster/],
    [JSON.stringify({ version: 1, fingerprint: new StationKeys(Buffer.alloc(32, 1)).fingerprint(), stations: [] }), /another station-secret/],
  ];
  for (const [text, why] of cases) {
    writeFileSync(file, text);
    const l = store.load(keys);
    assert.deepEqual(l.stations, []);
    assert.match(l.problem ?? '', why);
    assert.equal(readFileSync(file + '.corrupt', 'utf8'), text, 'kept for a person to inspect');
    rmSync(file + '.corrupt');
  }
  assert.deepEqual(store.load(keys), { stations: [], skipped: 0, problem: null }, 'no file: empty, no problem');
});

test('malformed saved rows are left out one by one', (t) => {
  const dir = tempDir(t);
  const store = new StationStore(dir);
  const keys = new StationKeys(store.loadSecret());
  const good = filled(keys).saved();
  const g = good[0]!;
  store.save(
    [
      ...good,
      { ...g, key: 'xyz' },
      { ...g, key: g.key.toUpperCase() },
      { ...g, id: 'st_aaaaaaaaaa' },
      { ...g, id: 'ST_' + g.id.slice(3) },
      { ...g, coarse_lat: 91 },
      { ...g, coarse_lon: -181 },
      { ...g, coarse_lat: Number.NaN },
      { ...g, first_seen: 0 },
      { ...g, last_seen: g.first_seen - 1 },
      { ...g, last_seen: g.last_seen * 1000 },
      null as never,
      'x' as never,
      { ...g, position_source: 'guessed' as never },
    ],
    keys,
  );
  const l = store.load(keys);
  assert.equal(l.problem, null);
  assert.equal(l.skipped, 13);
  assert.deepEqual(l.stations, good);
});

test("a roster saved before position_source existed loads with the feeders' own (reported) positions", (t) => {
  const dir = tempDir(t);
  const store = new StationStore(dir);
  const keys = new StationKeys(store.loadSecret());
  const good = filled(keys).saved();
  store.save(
    good.map(({ position_source: _, ...old }) => old as never),
    keys,
  );
  const l = store.load(keys);
  assert.equal(l.skipped, 0);
  assert.deepEqual(
    l.stations,
    good.map((s) => ({ ...s, position_source: 'reported' })),
  );
});

test('replicas sharing one --state agree on the secret: a secret another process wrote first is never replaced', (t) => {
  const dir = tempDir(t);
  const file = join(dir, SECRET_FILE);
  // the other replica won the race between the existence check and the write
  assert.equal(createOnce(file, `${'ab'.repeat(32)}\n`, 0o600), true);
  assert.equal(createOnce(file, `${'cd'.repeat(32)}\n`, 0o600), false);
  assert.equal(readFileSync(file, 'utf8'), `${'ab'.repeat(32)}\n`);
  assert.deepEqual(new StationStore(dir).loadSecret(), Buffer.from('ab'.repeat(32), 'hex'));
  assert.deepEqual(readdirSync(dir), [SECRET_FILE], 'no temporary file left behind');
});
