// one ring (or line) of the offline basemap's arcs traced into a tile's path (vector-basemap.ts),
// in tile pixels. an arc whose box misses the tile's (padded) box is traced as its chord, first point
// to last: the chord lies inside the arc's box, so the arc and its chord make a loop that never
// reaches the tile and every point of the tile keeps its winding number (the fill is the same), and
// the chord's stroke falls outside the tile. a tile at zoom 5 then walks the few arcs near it, not
// the 100,000 points of every continent it touches (docs/perf-log/map.md "First paint").

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

/**
 * Trace `refs` (arc i, or ~i for arc i reversed) into `path`, dropping points under half a pixel
 * from the last one kept and tracing an arc that misses the tile as its chord; `close` closes a ring.
 * Returns the number of points walked (the tests and the bench read it).
 */
export function traceArcs(
  path: PathSink,
  arcs: readonly Float32Array[],
  arcBox: Float64Array,
  refs: readonly number[],
  f: TileFrame,
  close = true,
): number {
  const { scale, ox, oy } = f;
  let lx = Number.NaN;
  let ly = Number.NaN;
  let first = true;
  let walked = 0;
  for (const ref of refs) {
    const i = ref < 0 ? ~ref : ref;
    const a = arcs[i]!;
    const n = a.length / 2;
    const b = 4 * i;
    const misses = arcBox[b]! > f.x1 || arcBox[b + 2]! < f.x0 || arcBox[b + 1]! > f.y1 || arcBox[b + 3]! < f.y0;
    for (let k = 0; k < n; k++) {
      // a missing arc: its first and last points only (the first only where it starts the path)
      if (misses && k > 0 && k < n - 1) k = n - 1;
      walked++;
      const j = ref < 0 ? n - 1 - k : k;
      const x = a[2 * j]! * scale - ox;
      const y = a[2 * j + 1]! * scale - oy;
      if (first) {
        path.moveTo(x, y);
        first = false;
      } else if (Math.abs(x - lx) + Math.abs(y - ly) < 0.5 && k < n - 1) continue;
      else path.lineTo(x, y);
      lx = x;
      ly = y;
    }
  }
  if (close) path.closePath();
  return walked;
}
