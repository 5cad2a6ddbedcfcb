// readsb's clients.json joined with its receivers.json (fixtures written by hand after readsb's
// json_out.c and receiver.c, see test/fixtures/readsb/README.md): stations with readsb's estimated
// position, rows that cannot be stations skipped and counted, malformed files rejected with a reason.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { StationKeys } from '../../../server/stations/ids.ts';
import { isReadsbClients, parseReadsbClients } from '../../../server/stations/readsb.ts';

const FX = new URL('../../fixtures/readsb/', import.meta.url);
const clientsText = readFileSync(new URL('clients.json', FX), 'utf8');
const receiversText = readFileSync(new URL('receivers.json', FX), 'utf8');
const keys = new StationKeys(Buffer.alloc(32, 7));
const U1 = '5b0c3f2e-9a41-4d7e-8c55-0e6f1a2b3c4d';
const U4 = '9c8b7a69-5847-4362-a514-131211100f0e';
const NOW = 1795435200.123;

const parse = (clients: unknown, receivers = receiversText) => parseReadsbClients(clients, receivers, keys);

test("the two readsb files join by the first 64 bits of the UUID into connected stations at readsb's estimated centre", () => {
  const r = parse(JSON.parse(clientsText));
  assert.ok(r.ok, 'r.ok');
  assert.equal(r.list.generatedAt, NOW, 'the list is as fresh as clients.json says');
  assert.equal(r.list.feeders.length, 2);
  const [a, b] = r.list.feeders;
  assert.deepEqual(
    { ...a, key: null },
    {
      key: null,
      lat: 47.45,
      lon: 8.56,
      positionSource: 'estimated',
      connected: true,
      software: null,
      // 412.500 messages/s over 3600 s; the positions column is readsb's own count
      messages: 1_485_000,
      positions: 137_700,
      aircraft: null,
      connectedSince: 1795431600,
    },
  );
  assert.deepEqual(a!.key, keys.key(U1));
  assert.deepEqual([b!.key, b!.lat, b!.lon], [keys.key(U4), -33.95, 151.18]);
  assert.deepEqual(r.list.skipped, { bad_extent: 1, no_position: 1, no_uuid: 1 });
});

test('no address from the host:port column and no UUID is in what the parser returns', () => {
  const r = parse(JSON.parse(clientsText));
  assert.ok(r.ok, 'r.ok');
  const out = JSON.stringify(r.list, (_k, v) => (Buffer.isBuffer(v) || (v && v.type === 'Buffer') ? '<key>' : v));
  for (const secret of ['192.0.2.10', '2001:db8::17', '51234', U1, U1.replaceAll('-', ''), '5b0c3f2e']) assert.ok(!out.includes(secret), secret);
});

test("auto-detection tells readsb's clients.json from Contrail's feeder list", () => {
  assert.equal(isReadsbClients(JSON.parse(clientsText)), true);
  assert.equal(isReadsbClients({ generated_at: 1, feeders: [] }), false);
  assert.equal(isReadsbClients({ clients: [], feeders: [] }), false, 'ambiguous: read as our own list');
  assert.equal(isReadsbClients([]), false);
  assert.equal(isReadsbClients(null), false);
});

test('malformed client rows are skipped and counted by reason, the rest is used', () => {
  const good = JSON.parse(clientsText).clients[0];
  const r = parse({
    now: NOW,
    clients: [
      good,
      'row',
      [U1],
      null,
      [42, ...good.slice(1)],
      ['not-a-uuid', ...good.slice(1)],
      ['00000000-0000-0000-0000-000000000000', ...good.slice(1)],
      [...good],
      [U1, good[1], 'x', 'y', 'z', 0, 0, 0, -5],
    ],
  });
  assert.ok(r.ok, 'r.ok');
  assert.equal(r.list.feeders.length, 1);
  assert.deepEqual(r.list.skipped, { not_row: 3, bad_uuid: 3, duplicate_uuid: 2 });
  // a malformed figure is read as absent, the station kept
  const odd = parse({ now: NOW, clients: [[U1, good[1], 'x', 'y', 'z', 0, 0, 0, -5]] });
  assert.ok(odd.ok, 'odd.ok');
  assert.deepEqual([odd.list.feeders[0]!.messages, odd.list.feeders[0]!.positions, odd.list.feeders[0]!.connectedSince], [null, null, null]);
});

test('malformed receiver rows leave their clients without a position (counted), never a crash', () => {
  const rows = [
    ['5b0c3f2e-9a41-4d7e', 1, 0, 46, 48, 6, 10, 0, 'north', 8],
    ['5b0c3f2e-9a41-4d7e-8c55'],
    'x',
    null,
    ['9c8b7a69-5847-4362', 1, 0, 0, 0, 0, 0, 0, 95, 151],
  ];
  const r = parse(JSON.parse(clientsText), JSON.stringify({ now: NOW, receivers: rows }));
  assert.ok(r.ok, 'r.ok');
  assert.equal(r.list.feeders.length, 0);
  // 5b0c3f2e's centre is not a number, 9c8b7a69's latitude is out of range, the other two have no row
  assert.deepEqual(r.list.skipped, { no_position: 4, no_uuid: 1 });
  const empty = parse(JSON.parse(clientsText), '{"now": 1, "receivers": []}');
  assert.ok(empty.ok, 'empty.ok');
  assert.equal(empty.list.feeders.length, 0);
});

test("files that are not readsb's shape are rejected whole with a reason", () => {
  const clients = JSON.parse(clientsText);
  for (const [doc, receivers, reason] of [
    [[], receiversText, 'not_object'],
    [{ clients: clients.clients }, receiversText, 'bad_generated_at'],
    [{ now: NOW * 1000, clients: clients.clients }, receiversText, 'bad_generated_at'],
    [{ now: NOW, clients: {} }, receiversText, 'bad_feeders'],
    [{ now: NOW, clients: new Array(200_001).fill(0) }, receiversText, 'too_many_feeders'],
    [clients, '{ "now" : 1, "receivers" : [', 'bad_receivers'],
    [clients, '{"now": 1, "receivers": {}}', 'bad_receivers'],
    [clients, '[]', 'bad_receivers'],
  ] as [unknown, string, string][]) {
    const r = parse(doc, receivers);
    assert.equal(r.ok, false, reason);
    if (!r.ok) {
      assert.equal(r.reason, reason);
      assert.match(r.detail, /clients\.json|receivers\.json|clients in one list/);
    }
  }
});
