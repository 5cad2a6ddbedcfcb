// the push stream's area cells: fixed grids of whole-degree cells at a few sizes, and the whole sky.
// a client's box maps to the cells it touches at the finest grid where that takes at most
// MAX_CELLS cells; a bigger box takes the whole sky. diffs are made once per cell, so the
// cost of a snapshot grows with the cells subscribed, never with the clients.
import type { Bbox } from '../parts/spatial.ts';

/** cell sizes in degrees, finest first; each divides 180 (so columns and rows are whole) */
export const LEVELS = [2, 10] as const;
/**
 * cells one subscription may cover at most: 36 fine cells is about 12 x 6 degrees (a region),
 * 36 coarse ones about 60 x 60 degrees (a continent); beyond that the whole sky is cheaper to send
 * as one topic than as dozens of cells
 */
export const MAX_CELLS = 36;
/** the cell id of the whole sky (also holds the aircraft without a position, as /v1/aircraft does) */
export const SKY = -1;
// cell ids: level << 20 | row * columns + column (the 2-degree grid has 16,200 cells < 2^20)
const LEVEL_SHIFT = 20;

const columns = (deg: number) => 360 / deg;
const rows = (deg: number) => 180 / deg;

/** The column of a longitude on a grid; 180 itself falls in the last column. */
function columnOf(deg: number, lon: number): number {
  return Math.min(columns(deg) - 1, Math.max(0, Math.floor((lon + 180) / deg)));
}

function rowOf(deg: number, lat: number): number {
  return Math.min(rows(deg) - 1, Math.max(0, Math.floor((lat + 90) / deg)));
}

/** The cell holding a position on grid `level` (an index into LEVELS). */
export function cellOf(level: number, lat: number, lon: number): number {
  const deg = LEVELS[level]!;
  return (level << LEVEL_SHIFT) | (rowOf(deg, lat) * columns(deg) + columnOf(deg, lon));
}

/** The grid a cell id belongs to (an index into LEVELS); -1 for the sky. */
export function levelOf(cell: number): number {
  return cell === SKY ? -1 : cell >>> LEVEL_SHIFT;
}

/** The box a cell covers, [minLon, minLat, maxLon, maxLat]; null for the sky. */
export function cellBox(cell: number): [number, number, number, number] | null {
  if (cell === SKY) return null;
  const deg = LEVELS[levelOf(cell)]!;
  const at = cell & ((1 << LEVEL_SHIFT) - 1);
  const x = at % columns(deg);
  const y = Math.floor(at / columns(deg));
  return [x * deg - 180, y * deg - 90, (x + 1) * deg - 180, (y + 1) * deg - 90];
}

/** A cell's public name: `sky`, or `<size>/<west>/<south>` in degrees, e.g. `2/8/46` is 8..10 E, 46..48 N. */
export function cellName(cell: number): string {
  const b = cellBox(cell);
  return b ? `${LEVELS[levelOf(cell)]}/${b[0]}/${b[1]}` : 'sky';
}

/** The uWS topic of a cell. */
export const topicOf = (cell: number): string => `cell/${cellName(cell)}`;

/** Columns from the box's west edge to its east edge, eastward (across the antimeridian when west > east). */
function columnsOf(deg: number, b: Bbox): number[] {
  const n = columns(deg);
  const x0 = columnOf(deg, b.minLon);
  const x1 = columnOf(deg, b.maxLon);
  if (b.minLon <= b.maxLon) return range(x0, x1);
  // crosses the antimeridian: west edge to 180, then -180 to the east edge (the whole ring at most)
  const count = Math.min(n, n - x0 + x1 + 1);
  return Array.from({ length: count }, (_, k) => (x0 + k) % n);
}

const range = (a: number, b: number) => Array.from({ length: b - a + 1 }, (_, k) => a + k);

/**
 * The cells a subscription covers, ascending: null (no box) is the whole sky; a box takes the
 * finest grid where it touches at most MAX_CELLS cells, else the whole sky. every aircraft with a
 * position inside the box lies in one of the cells (the cells may hold more: clients clip).
 */
export function cellsFor(b: Bbox | null): number[] {
  if (!b) return [SKY];
  for (let level = 0; level < LEVELS.length; level++) {
    const deg = LEVELS[level]!;
    const xs = columnsOf(deg, b);
    const ys = range(rowOf(deg, b.minLat), rowOf(deg, b.maxLat));
    if (xs.length * ys.length > MAX_CELLS) continue;
    const out: number[] = [];
    for (const y of ys) for (const x of xs) out.push((level << LEVEL_SHIFT) | (y * columns(deg) + x));
    return out.sort((p, q) => p - q);
  }
  return [SKY];
}
