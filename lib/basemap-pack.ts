// the offline basemap packed for the browser (docs/api.md "The map's offline basemap"): the same
// TopoJSON arcs (quantized, delta-coded), land polygons and country borders, as zigzag varints in
// one byte stream, so the page reads it in one pass over bytes instead of JSON.parse-ing 3.7 MB
// (350 ms of a busy core, before a tile could draw) and it is smaller gzipped (674 KB, against
// 916 KB for the JSON). written by `npm run map:basemap` (build/map/basemap.ts), read by web/map/topo.ts.
//   'CTB1', float64 LE scale x, scale y, translate x, translate y (the TopoJSON transform), then varints:
//   arcs n, per arc: points k, then k (dx, dy); land polygons n, per polygon: rings r, per ring:
//   refs m, then m arc refs (~i: arc i reversed); borders n, then n arc indices, each after the last

export const PACK_MAGIC = 'CTB1';
const HEAD = 4 + 4 * 8;

export interface PackTopology {
  transform: { scale: [number, number]; translate: [number, number] };
  arcs: [number, number][][];
  objects: {
    land: { geometries: { type: string; arcs?: unknown }[] };
    countries: { geometries: { type: string; arcs?: unknown }[] };
  };
}

export interface Unpacked {
  scale: [number, number];
  translate: [number, number];
  /** arc i's deltas are deltas[2 * start[i] .. 2 * start[i + 1]) */
  start: Int32Array;
  deltas: Int32Array;
  /** land polygons: rings of arc refs */
  land: number[][][];
  /** arcs shared by two different countries */
  borders: number[];
}

/** a geometry's polygons as rings of arc refs (lines and points have none) */
export const polygonsOf = (g: { type: string; arcs?: unknown }): number[][][] =>
  g.type === 'Polygon' ? [g.arcs as number[][]] : g.type === 'MultiPolygon' ? (g.arcs as number[][][]) : [];

/** arcs used by two different countries: the borders (an arc used by one country is its coast) */
export function sharedArcs(arcCount: number, countries: readonly { type: string; arcs?: unknown }[]): number[] {
  const owner = new Int32Array(arcCount).fill(-1);
  const shared = new Uint8Array(arcCount);
  countries.forEach((g, c) => {
    for (const rings of polygonsOf(g))
      for (const ring of rings)
        for (const ref of ring) {
          const i = ref < 0 ? ~ref : ref;
          if (owner[i] === -1) owner[i] = c;
          else if (owner[i] !== c) shared[i] = 1;
        }
  });
  const out: number[] = [];
  for (let i = 0; i < arcCount; i++) if (shared[i]) out.push(i);
  return out;
}

/** Pack a topology's arcs, land and borders (the countries' names are not needed: places.json has the labels). */
export function packTopology(t: PackTopology): Uint8Array {
  const out: number[] = [];
  const put = (v: number) => {
    if (!Number.isInteger(v) || Math.abs(v) > 2 ** 30) throw new Error(`basemap pack: ${v} is not an integer a varint can hold`);
    let z = ((v << 1) ^ (v >> 31)) >>> 0;
    while (z >= 0x80) {
      out.push((z & 0x7f) | 0x80);
      z >>>= 7;
    }
    out.push(z);
  };
  put(t.arcs.length);
  for (const arc of t.arcs) {
    put(arc.length);
    for (const [dx, dy] of arc) put(dx), put(dy);
  }
  const polys = t.objects.land.geometries.flatMap(polygonsOf);
  put(polys.length);
  for (const rings of polys) {
    put(rings.length);
    for (const ring of rings) {
      put(ring.length);
      for (const ref of ring) put(ref);
    }
  }
  const borders = sharedArcs(t.arcs.length, t.objects.countries.geometries);
  put(borders.length);
  borders.forEach((b, i) => put(b - (i ? borders[i - 1]! : 0)));
  const bytes = new Uint8Array(HEAD + out.length);
  for (let i = 0; i < 4; i++) bytes[i] = PACK_MAGIC.charCodeAt(i);
  const head = new DataView(bytes.buffer);
  [t.transform.scale[0], t.transform.scale[1], t.transform.translate[0], t.transform.translate[1]].forEach((x, i) => head.setFloat64(4 + 8 * i, x, true));
  bytes.set(out, HEAD);
  return bytes;
}

/** Read a packed basemap; throws on bytes that are not one (a truncated or foreign file). */
export function unpackBasemap(bytes: Uint8Array): Unpacked {
  const magic = String.fromCharCode(...bytes.subarray(0, 4));
  if (bytes.length < HEAD || magic !== PACK_MAGIC)
    throw new Error(`basemap pack: not a packed basemap (starts ${JSON.stringify(magic)}, ${bytes.length} bytes)`);
  const head = new DataView(bytes.buffer, bytes.byteOffset, HEAD);
  const f = (i: number) => head.getFloat64(4 + 8 * i, true);
  let p = HEAD;
  // int32 arithmetic: packTopology writes nothing past 2^30, so a zigzag value stays under 2^31 (5 bytes)
  const get = (): number => {
    let z = 0;
    for (let shift = 0; ; shift += 7) {
      if (p >= bytes.length || shift > 28) throw new Error(`basemap pack: ${p >= bytes.length ? 'truncated' : 'a varint too long'} at byte ${p}`);
      const b = bytes[p++]!;
      z |= (b & 0x7f) << shift;
      if (!(b & 0x80)) return (z >>> 1) ^ -(z & 1);
    }
  };
  const nArcs = get();
  const start = new Int32Array(nArcs + 1);
  // grown as arcs come: the point count is only known arc by arc
  let deltas = new Int32Array(1 << 20);
  let n = 0;
  for (let i = 0; i < nArcs; i++) {
    const k = get();
    if (2 * (n + k) > deltas.length) {
      const more = new Int32Array(Math.max(deltas.length * 2, 2 * (n + k)));
      more.set(deltas);
      deltas = more;
    }
    for (let j = 0; j < 2 * k; j++) deltas[2 * n + j] = get();
    n += k;
    start[i + 1] = n;
  }
  const land: number[][][] = [];
  for (let i = get(); i > 0; i--) {
    const rings: number[][] = [];
    for (let r = get(); r > 0; r--) {
      const ring: number[] = [];
      for (let m = get(); m > 0; m--) ring.push(get());
      rings.push(ring);
    }
    land.push(rings);
  }
  const borders: number[] = [];
  for (let i = get(), last = 0; i > 0; i--) borders.push((last += get()));
  if (p !== bytes.length) throw new Error(`basemap pack: ${bytes.length - p} bytes after the end`);
  return { scale: [f(0), f(1)], translate: [f(2), f(3)], start, deltas: deltas.subarray(0, 2 * n), land, borders };
}
