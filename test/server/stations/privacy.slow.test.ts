// spec 2.7 and 5: IPs are never stored and the service keeps only a hash of each UUID.
// feed lists full of distinctive IPs and UUIDs through the whole path (source, roster, store, routes),
// then search every file in --state and every logged line for them, in their common spellings.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve } from '../../helpers/http.ts';
import { stationRoutes } from '../../../server/handlers/stations.ts';
import { openStations } from '../../../server/stations/open.ts';

const T0 = 1795435200;
const UUIDS = [
  '7f3e9c21-5d8b-4a06-b1e4-c2a7d9f05e38',
  'a1b2c3d4-e5f6-4789-8abc-def012345678',
  '9e8d7c6b-5a49-4382-9716-f5e4d3c2b1a0',
  'c0ffee00-dead-4bee-8f00-0123456789ab',
];
const IPS = ['203.0.113.187', '198.51.100.231', '192.0.2.77', '2001:db8:cafe:17::beef', '100.64.12.34'];

function spellings(): string[] {
  const out: string[] = [];
  for (const u of UUIDS) out.push(u, u.toUpperCase(), u.replace(/-/g, ''), u.replace(/-/g, '').toUpperCase());
  for (const ip of IPS) out.push(ip, ip.toUpperCase());
  return out;
}

function allFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? allFiles(p) : [p];
  });
}

test('no IP and no UUID reaches the state directory, the logs or a public response', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'contrail-privacy-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const state = join(dir, 'state');
  const file = join(dir, 'feeders.json');
  let now = T0 * 1000;
  const logs: string[] = [];
  const log = (l: string) => logs.push(l);
  let m = 1;
  const write = (doc: unknown) => {
    writeFileSync(file, typeof doc === 'string' ? doc : JSON.stringify(doc));
    utimesSync(file, 1_000_000 + m, 1_000_000 + m++);
  };
  const feeders = (gen: number) => ({
    generated_at: gen,
    feeders: [
      {
        uuid: UUIDS[0],
        lat: 47.4581,
        lon: 8.5555,
        connected: true,
        ip: IPS[0],
        software: 'readsb 3.14',
        messages: gen,
        positions: 1,
        aircraft: 2,
        connected_since: T0 - 50,
      },
      { uuid: UUIDS[1]!.toUpperCase(), lat: 50.0379, lon: 8.5622, connected: true, ip: IPS[3], remote_addr: `${IPS[1]}:30005`, peer: { ip: IPS[2] } },
      { uuid: UUIDS[2]!.replace(/-/g, ''), lat: -33.94, lon: 151.17, connected: false, ip: IPS[4] },
      // malformed entries carrying secrets of their own
      { uuid: UUIDS[3], lat: 95, lon: 8, connected: true, ip: IPS[1] },
      { uuid: `${UUIDS[3]}x`, lat: 1, lon: 1, connected: true, ip: IPS[2] },
      { uuid: UUIDS[3], lat: 10, lon: 10, connected: 'true', software: `feeder at ${IPS[2]}` },
      { uuid: UUIDS[2], lat: 10, lon: 10, connected: true, software: `relay ${IPS[3]}`, connected_since: 'x' },
    ],
  });

  const st = openStations({ state, location: file, clock: () => now, log });
  write(feeders(T0));
  await st.source!.poll();
  now += 10_000;
  write(feeders(T0 + 10));
  await st.source!.poll();
  // a rejected file that carries UUIDs and IPs, then an unreadable one
  write(`{"generated_at": "${IPS[0]}", "feeders": [{"uuid": "${UUIDS[0]}"}]}`);
  await st.source!.poll();
  write(`${UUIDS[1]} ${IPS[1]} not json`);
  await st.source!.poll();
  rmSync(file);
  await st.source!.poll();
  now += 70_000;
  write(feeders(T0 + 80));
  await st.source!.poll();
  st.source!.stop();
  assert.equal(st.roster.size, 3, 'the valid stations are all there, so the search below looked at real data');

  // a restart reads the state back and serves it; the server's own log is searched too
  const again = openStations({ state, location: file, clock: () => now, log });
  const s = await serve(stationRoutes(again), { clock: () => now, log });
  const bodies: string[] = [];
  try {
    const roster = await s.get('/v1/stations', { schema: 'stations' });
    assert.equal(roster.json.stations.length, 3);
    bodies.push(roster.text);
    for (const u of UUIDS) {
      const r = await s.get(`/v1/stations/${u}`);
      assert.ok(r.status === 200 || r.status === 404, 'r.status === 200 || r.status === 404');
      if (r.status === 200) bodies.push(r.text);
    }
    await s.get(`/v1/stations/${IPS[0]}`);
  } finally {
    s.close();
  }

  const files = allFiles(state);
  assert.ok(files.length >= 2, 'secret and roster were written');
  const haystacks: [string, string][] = [
    ...files.map((f): [string, string] => [f, readFileSync(f).toString('latin1')]),
    ...files.map((f): [string, string] => [`${f} (as hex)`, readFileSync(f).toString('hex')]),
    ['logs', logs.join('\n')],
    ['responses', bodies.join('\n')],
  ];
  assert.ok(logs.length >= 5, `the run logged (${logs.length} lines), so the search below looked at real lines`);
  for (const [where, text] of haystacks) {
    for (const needle of spellings()) {
      if (where.endsWith('(as hex)')) continue;
      assert.ok(!text.toLowerCase().includes(needle.toLowerCase()), `${needle} found in ${where}`);
    }
  }
  // the raw bytes of a UUID (16 bytes, as hex) must not be in a file either
  for (const [where, text] of haystacks.filter(([w]) => w.endsWith('(as hex)'))) {
    for (const u of UUIDS) assert.ok(!text.includes(u.replace(/-/g, '')), `raw UUID bytes in ${where}`);
  }
});
