// the basemap's topology decoded: arcs delta-decoded into Mercator units with their boxes, land
// polygons with theirs, and a border only where two countries share an arc; the status words
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeTopology, mercX, mercY, type Topology } from '../../../web/map/topo.ts';
import { statusText } from '../../../web/map/status.ts';

// two countries side by side: arc 0 is their shared edge, arcs 1 and 2 their outer coasts
const topo: Topology = {
  type: 'Topology',
  transform: { scale: [1, 1], translate: [0, 0] },
  arcs: [
    [
      [10, 0],
      [0, 10],
    ],
    [
      [10, 10],
      [-10, 0],
      [0, -10],
      [10, 0],
    ],
    [
      [10, 0],
      [10, 0],
      [0, 10],
      [-10, 0],
    ],
  ],
  objects: {
    land: { type: 'GeometryCollection', geometries: [{ type: 'Polygon', arcs: [[1, 2]] }] },
    countries: {
      type: 'GeometryCollection',
      geometries: [
        { type: 'Polygon', arcs: [[0, 1]] },
        { type: 'Polygon', arcs: [[~0, 2]] },
      ],
    },
  },
};

test('arcs in Mercator units with their boxes; land boxed; borders only where two countries meet', () => {
  const d = decodeTopology(topo);
  // arc 0: (10,0) -> (10,10) after the deltas
  assert.ok(Math.abs(d.arcs[0]![0]! - mercX(10)) < 1e-7 && Math.abs(d.arcs[0]![3]! - mercY(10)) < 1e-7, `arc 0 ${[...d.arcs[0]!]}`);
  assert.deepEqual(
    [...d.arcBox.slice(0, 4)].map((x) => Math.round(x * 1e6)),
    [mercX(10), mercY(10), mercX(10), mercY(0)].map((x) => Math.round(x * 1e6)),
  );
  assert.deepEqual(d.borders, [0]);
  assert.equal(d.land.length, 1);
  const [x0, y0, x1, y1] = d.land[0]!.box;
  assert.ok(
    Math.abs(x0! - mercX(0)) < 1e-7 && Math.abs(x1! - mercX(20)) < 1e-7 && Math.abs(y0! - mercY(10)) < 1e-7 && Math.abs(y1! - mercY(0)) < 1e-7,
    `land box ${[...d.land[0]!.box]}`,
  );
});

test("the status line counts what is drawn in the view and says the network's count apart", () => {
  const s = { inView: 12, network: 12000, estimatesInView: 1, filtered: false, via: 'live via the push stream', at: '03:00:00Z', stale: false };
  assert.equal(statusText(s), '12 aircraft in view · 12,000 in the network · 1 estimated in view · live via the push stream · 03:00:00Z');
  assert.equal(
    statusText({ ...s, network: null, filtered: true, stale: true, at: null }),
    '12 aircraft in view (filtered) · 1 estimated in view · live via the push stream · STALE',
  );
});
