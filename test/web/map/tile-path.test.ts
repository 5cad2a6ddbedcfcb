// a basemap tile's trace: an arc that misses the tile is walked as its chord, and the land the tile
// fills is the same as with every point traced (checked point by point against the whole ring)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mulberry32 } from '../../../lib/random.ts';
import { traceArcs, type PathSink, type TileArcs, type TileFrame } from '../../../web/map/tile-path.ts';
import { boxArcs } from '../../../web/map/topo.ts';

/** the rings a trace made, as vertex lists */
class Recorder implements PathSink {
  rings: [number, number][][] = [];
  moveTo(x: number, y: number): void {
    this.rings.push([[x, y]]);
  }
  lineTo(x: number, y: number): void {
    this.rings.at(-1)!.push([x, y]);
  }
  closePath(): void {}
}

/** even-odd inside test over closed rings */
function inside(rings: [number, number][][], x: number, y: number): boolean {
  let odd = false;
  for (const r of rings)
    for (let i = 0, j = r.length - 1; i < r.length; j = i++) {
      const [xi, yi] = r[i]!;
      const [xj, yj] = r[j]!;
      if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) odd = !odd;
    }
  return odd;
}

/** a seeded star-shaped coast round (0.5, 0.5) in Mercator units, cut into arcs of 20 to 1,000 points (of many chunks), with their boxes */
function coast(seed: number) {
  const rand = mulberry32(seed);
  const n = 4000;
  const pts: number[] = [];
  for (let k = 0; k < n; k++) {
    const t = (2 * Math.PI * k) / n;
    const r = 0.1 + 0.05 * Math.sin(7 * t) + 0.03 * rand();
    pts.push(0.5 + r * Math.cos(t), 0.5 + r * Math.sin(t));
  }
  const arcs: Float32Array[] = [];
  let k = 0;
  while (k < n) {
    const end = Math.min(n, k + 20 + Math.floor(rand() * 980));
    // each arc ends where the next starts (the last one at the ring's first point)
    const idx = [...Array(end - k + 1).keys()].map((d) => (k + d) % n);
    arcs.push(Float32Array.from(idx.flatMap((i) => [pts[2 * i]!, pts[2 * i + 1]!])));
    k = end;
  }
  return { d: { arcs, ...boxArcs(arcs) } satisfies TileArcs, arcs, points: n };
}

const frameOf = (z: number, tx: number, ty: number, padPx = 2): TileFrame => {
  const scale = 256 * 2 ** z;
  const pad = padPx / scale;
  return { scale, ox: tx * 256, oy: ty * 256, x0: tx / 2 ** z - pad, y0: ty / 2 ** z - pad, x1: (tx + 1) / 2 ** z + pad, y1: (ty + 1) / 2 ** z + pad };
};

test("a tile's fill is the whole ring's at every point of the tile, with the arcs that miss it walked as chords", () => {
  const { d, arcs, points } = coast(46);
  const refs = arcs.map((_, i) => i);
  const rand = mulberry32(7);
  let tiles = 0;
  // zoom 6: tiles along the coast, inside it and out at sea
  for (let ty = 24; ty < 40; ty += 3)
    for (let tx = 24; tx < 40; tx += 3) {
      const f = frameOf(6, tx, ty);
      const whole = new Recorder();
      traceArcs(whole, d, refs, { ...f, x0: -Infinity, y0: -Infinity, x1: Infinity, y1: Infinity });
      const clipped = new Recorder();
      const walked = traceArcs(clipped, d, refs, f);
      assert.ok(walked < points / 4, `tile ${tx},${ty}: ${walked} points walked of ${points}`);
      for (let s = 0; s < 200; s++) {
        const x = rand() * 256;
        const y = rand() * 256;
        assert.equal(inside(clipped.rings, x, y), inside(whole.rings, x, y), `tile ${tx},${ty} at ${x.toFixed(1)},${y.toFixed(1)}`);
      }
      tiles++;
    }
  assert.equal(tiles, 36);
});

test('a tile that holds the whole ring walks every point, and reversed arcs trace the ring backwards', () => {
  const { d, arcs } = coast(3);
  const all = arcs.reduce((s, a) => s + a.length / 2, 0);
  // zoom 10 (points tens of pixels apart, none dropped), the box the whole world
  const f = { ...frameOf(10, 500, 500), x0: -1, y0: -1, x1: 2, y1: 2 };
  const forward = new Recorder();
  assert.equal(
    traceArcs(
      forward,
      d,
      arcs.map((_, i) => i),
      f,
    ),
    all,
  );
  const backward = new Recorder();
  traceArcs(
    backward,
    d,
    arcs.map((_, i) => ~(arcs.length - 1 - i)),
    f,
  );
  // the same ring's vertices, the other way round (both start at the ring's first point)
  const fw = forward.rings[0]!.map(([x, y]) => `${x.toFixed(3)},${y.toFixed(3)}`);
  const bw = backward.rings[0]!.map(([x, y]) => `${x.toFixed(3)},${y.toFixed(3)}`);
  assert.deepEqual(new Set(bw), new Set(fw));
  assert.equal(bw[1], fw.at(-2));
});

test('an arc that misses the tile leaves only its end in the path', () => {
  const arcs = [Float32Array.from([0.1, 0.1, 0.2, 0.1, 0.3, 0.1, 0.4, 0.1]), Float32Array.from([0.4, 0.1, 0.9, 0.9])];
  const r = new Recorder();
  const d = { arcs, ...boxArcs(arcs) };
  assert.deepEqual(
    [...d.arcBox].map((x) => Math.round(x * 10)),
    [1, 1, 4, 1, 4, 1, 9, 9],
  );
  // zoom 1, tile (1, 1): [0.5, 1] x [0.5, 1]; arc 0 misses it, arc 1 reaches it
  const walked = traceArcs(r, d, [0, 1], frameOf(1, 1, 1));
  assert.equal(walked, 4);
  assert.deepEqual(
    r.rings[0]!.map(([x, y]) => [Math.round(x), Math.round(y)]),
    [
      [51 - 256, 51 - 256],
      [205 - 256, 51 - 256],
      [461 - 256, 461 - 256],
    ],
  );
});
