// the offline basemap (/map/basemap-10m.bin, lib/basemap-pack.ts; or its TopoJSON) decoded once into what a tile draws:
// each arc's points in Web Mercator [0, 1] (Float32: a quarter pixel at zoom 14), with its box;
// land as polygons of arc references with their boxes; country borders as the arcs two countries
// share. done here rather than through topojson-client's GeoJSON, which would make an array per
// point (477,000 of them at 1:10m) for code that only ever wants flat coordinates.

import { polygonsOf, sharedArcs, unpackBasemap } from '../../lib/basemap-pack.ts';

type ArcRef = number;

interface TopoGeometry {
  type: string;
  arcs?: ArcRef[][] | ArcRef[][][];
  properties?: { name?: string };
}

export interface Topology {
  type: 'Topology';
  transform: { scale: [number, number]; translate: [number, number] };
  arcs: [number, number][][];
  objects: { land: { type: string; geometries: TopoGeometry[] }; countries: { type: string; geometries: TopoGeometry[] } };
}

interface LandPolygon {
  /** rings of arc references (~i: arc i reversed) */
  rings: ArcRef[][];
  /** [x0, y0, x1, y1] in Mercator units */
  box: Float64Array;
}

export interface Decoded {
  /** arc i's points, x0, y0, x1, y1, ... in Mercator units */
  arcs: Float32Array[];
  /** arc i's box: 4 values from 4 * i */
  arcBox: Float64Array;
  /** the boxes of arc i's runs of CHUNK points (the last point of one the first of the next), 4 values each, from 4 * chunkStart[i] */
  chunkStart: Int32Array;
  chunkBox: Float64Array;
  land: LandPolygon[];
  /** arcs shared by two different countries */
  borders: number[];
}

const MAX_LAT = 85.0511287798;
export const mercX = (lon: number) => (lon + 180) / 360;
export function mercY(lat: number): number {
  const l = (Math.max(-MAX_LAT, Math.min(MAX_LAT, lat)) * Math.PI) / 180;
  return 0.5 - Math.log(Math.tan(Math.PI / 4 + l / 2)) / (2 * Math.PI);
}

/** points per chunk of an arc: a tile walks only the chunks near it (tile-path.ts) */
export const CHUNK = 64;
/** chunks of an arc of n points */
const chunksOf = (n: number) => Math.max(1, Math.ceil((n - 1) / CHUNK));

/** arc i's deltas from deltas[2 * start[i]] to deltas[2 * start[i + 1]], projected */
function project(scale: [number, number], translate: [number, number], start: ArrayLike<number>, deltas: ArrayLike<number>): Float32Array[] {
  const [sx, sy] = scale;
  const [tx, ty] = translate;
  const arcs: Float32Array[] = [];
  for (let i = 0; i + 1 < start.length; i++) {
    const from = start[i]!;
    const n = start[i + 1]! - from;
    const out = new Float32Array(n * 2);
    let qx = 0;
    let qy = 0;
    for (let k = 0; k < n; k++) {
      // delta-encoded quantized positions (TopoJSON 2.1.1)
      qx += deltas[2 * (from + k)]!;
      qy += deltas[2 * (from + k) + 1]!;
      out[2 * k] = mercX(qx * sx + tx);
      out[2 * k + 1] = mercY(qy * sy + ty);
    }
    arcs.push(out);
  }
  return arcs;
}

/** Each arc's box, and the boxes of its chunks of CHUNK points (what a tile tests before walking them). */
export function boxArcs(arcs: readonly Float32Array[]): { arcBox: Float64Array; chunkStart: Int32Array; chunkBox: Float64Array } {
  const nArcs = arcs.length;
  const chunkStart = new Int32Array(nArcs + 1);
  for (let i = 0; i < nArcs; i++) chunkStart[i + 1] = chunkStart[i]! + chunksOf(arcs[i]!.length / 2);
  const arcBox = new Float64Array(nArcs * 4).fill(Number.NaN);
  const chunkBox = new Float64Array(4 * chunkStart[nArcs]!).fill(Number.NaN);
  for (let i = 0; i < nArcs; i++) {
    const a = arcs[i]!;
    const n = a.length / 2;
    const nc = chunksOf(n);
    for (let k = 0; k < n; k++) {
      const x = a[2 * k]!;
      const y = a[2 * k + 1]!;
      grow(arcBox, 4 * i, x, y);
      // chunk c runs from point c * CHUNK to (c + 1) * CHUNK: a point between two is in both
      const c = Math.min(Math.floor(k / CHUNK), nc - 1);
      grow(chunkBox, 4 * (chunkStart[i]! + c), x, y);
      if (k > 0 && k % CHUNK === 0 && c === k / CHUNK) grow(chunkBox, 4 * (chunkStart[i]! + c - 1), x, y);
    }
  }
  return { arcBox, chunkStart, chunkBox };
}

function grow(b: Float64Array, at: number, x: number, y: number): void {
  if (!(b[at]! <= x)) b[at] = x;
  if (!(b[at + 1]! <= y)) b[at + 1] = y;
  if (!(b[at + 2]! >= x)) b[at + 2] = x;
  if (!(b[at + 3]! >= y)) b[at + 3] = y;
}

/** land polygons with the boxes of their outer rings */
function boxed(arcBox: Float64Array, polys: ArcRef[][][]): LandPolygon[] {
  return polys.map((rings) => {
    const box = new Float64Array([Infinity, Infinity, -Infinity, -Infinity]);
    for (const ref of rings[0] ?? []) {
      const i = ref < 0 ? ~ref : ref;
      box[0] = Math.min(box[0]!, arcBox[4 * i]!);
      box[1] = Math.min(box[1]!, arcBox[4 * i + 1]!);
      box[2] = Math.max(box[2]!, arcBox[4 * i + 2]!);
      box[3] = Math.max(box[3]!, arcBox[4 * i + 3]!);
    }
    return { rings, box };
  });
}

/** Decode the packed basemap (lib/basemap-pack.ts): what the page reads. */
export function decodePacked(bytes: Uint8Array): Decoded {
  const u = unpackBasemap(bytes);
  const arcs = project(u.scale, u.translate, u.start, u.deltas);
  const { arcBox, chunkStart, chunkBox } = boxArcs(arcs);
  return { arcs, arcBox, chunkStart, chunkBox, land: boxed(arcBox, u.land), borders: u.borders };
}

/** Decode the TopoJSON itself (the packed file is checked against this). */
export function decodeTopology(t: Topology): Decoded {
  const start = [0];
  const deltas: number[] = [];
  for (const arc of t.arcs) {
    for (const [dx, dy] of arc) deltas.push(dx, dy);
    start.push(deltas.length / 2);
  }
  const arcs = project(t.transform.scale, t.transform.translate, start, deltas);
  const { arcBox, chunkStart, chunkBox } = boxArcs(arcs);
  return {
    arcs,
    arcBox,
    chunkStart,
    chunkBox,
    land: boxed(arcBox, t.objects.land.geometries.flatMap(polygonsOf)),
    borders: sharedArcs(t.arcs.length, t.objects.countries.geometries),
  };
}
