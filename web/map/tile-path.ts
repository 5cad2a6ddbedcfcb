// one ring (or line) of the offline basemap's arcs traced into a tile's path (vector-basemap.ts),
// in tile pixels. an arc whose box misses the tile's (padded) box is traced as its chord, first point
// to last: the chord lies inside the arc's box, so the arc and its chord make a loop that never
// reaches the tile and every point of the tile keeps its winding number (the fill is the same), and
// the chord's stroke falls outside the tile. a tile at zoom 5 then walks the few arcs near it, not
// the 100,000 points of every continent it touches (docs/perf-log/map.md "First paint"); the same
// holds for each chunk of CHUNK points of an arc that reaches the tile (a coast that is one arc).
import { CHUNK } from './topo.ts';

/** the part of CanvasPath a tile's trace uses (Path2D on the page; a recorder in the tests) */
export interface PathSink {
  moveTo(x: number, y: number): void;
  lineTo(x: number, y: number): void;
  closePath(): void;
}

export interface TileFrame {
  /** world pixels per Mercator unit at the tile's zoom */
  scale: number;
  /** the tile's corner in world pixels */
  ox: number;
  oy: number;
  /** the tile's box with its margin, Mercator units */
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** the arcs as topo.ts decodes them: points, boxes, and the boxes of their chunks of CHUNK points */
export interface TileArcs {
  arcs: readonly Float32Array[];
  arcBox: Float64Array;
  chunkStart: Int32Array;
  chunkBox: Float64Array;
}

/**
 * Trace `refs` (arc i, or ~i for arc i reversed) into `path`, dropping points under half a pixel
 * from the last one kept and tracing a chunk of an arc (or a whole arc) that misses the tile as its
 * chord; `close` closes a ring. Returns the number of points walked (the tests and the bench read it).
 */
export function traceArcs(path: PathSink, d: TileArcs, refs: readonly number[], f: TileFrame, close = true): number {
  const { scale, ox, oy } = f;
  let lx = Number.NaN;
  let ly = Number.NaN;
  let first = true;
  let walked = 0;
  const misses = (b: Float64Array, at: number) => b[at]! > f.x1 || b[at + 2]! < f.x0 || b[at + 1]! > f.y1 || b[at + 3]! < f.y0;
  for (const ref of refs) {
    const i = ref < 0 ? ~ref : ref;
    const a = d.arcs[i]!;
    const n = a.length / 2;
    /** point j of the arc (in its own order); `last`: the arc's end, always kept */
    const put = (j: number, last: boolean) => {
      walked++;
      const x = a[2 * j]! * scale - ox;
      const y = a[2 * j + 1]! * scale - oy;
      if (first) {
        path.moveTo(x, y);
        first = false;
      } else if (!last && Math.abs(x - lx) + Math.abs(y - ly) < 0.5) return;
      else path.lineTo(x, y);
      lx = x;
      ly = y;
    };
    const from = ref < 0 ? n - 1 : 0;
    const to = ref < 0 ? 0 : n - 1;
    put(from, n === 1);
    if (n === 1) continue;
    if (misses(d.arcBox, 4 * i)) {
      put(to, true);
      continue;
    }
    const c0 = d.chunkStart[i]!;
    const nc = d.chunkStart[i + 1]! - c0;
    const step = ref < 0 ? -1 : 1;
    for (let q = 0; q < nc; q++) {
      const c = ref < 0 ? nc - 1 - q : q;
      // the chunk's points in the ring's order, its first already put (the arc's start or the last chunk's end)
      const lo = c * CHUNK;
      const hi = Math.min((c + 1) * CHUNK, n - 1);
      const [s, e] = ref < 0 ? [hi, lo] : [lo, hi];
      if (misses(d.chunkBox, 4 * (c0 + c))) put(e, e === to);
      else for (let j = s + step; j !== e + step; j += step) put(j, j === to);
    }
  }
  if (close) path.closePath();
  return walked;
}
