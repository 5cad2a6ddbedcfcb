// the packed offline basemap (lib/basemap-pack.ts): the real 1:10m topology packed and decoded is
// the TopoJSON decoded, arc for arc and point for point; bytes that are not a packed basemap are
// refused with a message, never read as a world
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { installed } from '../../lib/install.ts';
import { packTopology, PACK_MAGIC, unpackBasemap, type PackTopology } from '../../lib/basemap-pack.ts';
import { decodePacked, decodeTopology, type Topology } from '../../web/map/topo.ts';

const topo = JSON.parse(gunzipSync(readFileSync(installed('data/map/basemap-10m.json.gz'))).toString('utf8')) as Topology;

test('the committed basemap packed and decoded is its TopoJSON decoded: arcs, boxes, chunks, land and borders', () => {
  const bytes = packTopology(topo as unknown as PackTopology);
  const a = decodePacked(bytes);
  const b = decodeTopology(topo);
  assert.equal(a.arcs.length, topo.arcs.length);
  assert.equal(a.arcs.length, 4635);
  for (let i = 0; i < a.arcs.length; i++) assert.ok(Buffer.from(a.arcs[i]!.buffer).equals(Buffer.from(b.arcs[i]!.buffer)), `arc ${i}`);
  assert.deepEqual(a.arcBox, b.arcBox);
  assert.deepEqual(a.chunkStart, b.chunkStart);
  assert.deepEqual(a.chunkBox, b.chunkBox);
  assert.deepEqual(a.land, b.land);
  assert.deepEqual(a.borders, b.borders);
  assert.ok(a.borders.length > 300, `${a.borders.length} border arcs`);
  const u = unpackBasemap(bytes);
  assert.deepEqual(u.scale, topo.transform.scale);
  assert.deepEqual(u.translate, topo.transform.translate);
});

test('bytes that are not a packed basemap are refused: another magic, a truncated stream, bytes after the end, an empty file, an overlong varint', () => {
  const bytes = packTopology(topo as unknown as PackTopology);
  assert.throws(() => unpackBasemap(new Uint8Array(0)), /not a packed basemap/);
  assert.throws(() => unpackBasemap(new TextEncoder().encode('{"type":"Topology"}' + ' '.repeat(40))), /not a packed basemap \(starts "\{\\"ty"/);
  assert.throws(() => unpackBasemap(bytes.subarray(0, bytes.length - 3)), /truncated at byte/);
  assert.throws(() => unpackBasemap(bytes.subarray(0, 40)), /truncated at byte/);
  const longer = new Uint8Array(bytes.length + 2);
  longer.set(bytes);
  assert.throws(() => unpackBasemap(longer), /2 bytes after the end/);
  // a varint of more than 5 bytes (no packed value needs one) is refused, not wrapped round
  const long = new Uint8Array(36 + 7).fill(0xff);
  long.set(bytes.subarray(0, 36));
  assert.throws(() => unpackBasemap(long), /a varint too long at byte 41/);
  assert.equal(String.fromCharCode(...bytes.subarray(0, 4)), PACK_MAGIC);
});

test('a topology a varint cannot hold is refused when packed, not written wrong', () => {
  const bad = {
    transform: topo.transform,
    arcs: [[[0.5, 1]]],
    objects: { land: { geometries: [] }, countries: { geometries: [] } },
  } as unknown as PackTopology;
  assert.throws(() => packTopology(bad), /0.5 is not an integer/);
  const huge = { ...bad, arcs: [[[2 ** 31, 0]]] } as unknown as PackTopology;
  assert.throws(() => packTopology(huge), /is not an integer a varint can hold/);
});

test('negative deltas and reversed refs survive the round trip', () => {
  const t = {
    transform: { scale: [1, 1], translate: [0, 0] },
    arcs: [
      [
        [5, 5],
        [-3, 200],
        [-100000, -1],
      ],
      [[0, 0]],
    ],
    objects: { land: { geometries: [{ type: 'Polygon', arcs: [[0, ~1]] }, { type: 'Point' }] }, countries: { geometries: [] } },
  } as unknown as PackTopology;
  const u = unpackBasemap(packTopology(t));
  assert.deepEqual([...u.start], [0, 3, 4]);
  assert.deepEqual([...u.deltas], [5, 5, -3, 200, -100000, -1, 0, 0]);
  assert.deepEqual(u.land, [[[0, -2]]]);
  assert.deepEqual(u.borders, []);
});
