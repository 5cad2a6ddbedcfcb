// what changed between two snapshots, per area cell, in one pass over the aircraft: an aircraft is
// upserted in a cell when it entered the cell or its record's bytes changed, and is gone from a cell
// when it left it (moved to another cell, lost its position, or left the snapshot). made once per
// snapshot for every cell at once; the stream then serialises only the cells someone subscribed to.
import { LEVELS, SKY, cellOf } from './cells.ts';

/** One snapshot as the diff reads it (server/live/snapshot.ts PreparedSnapshot is one). */
export interface SnapshotView {
  /** snapshot time, unix seconds */
  readonly now: number;
  /** aircraft in the snapshot */
  readonly total: number;
  hexOf(i: number): string;
  /** degrees; NaN when the aircraft has no position */
  latOf(i: number): number;
  lonOf(i: number): number;
  /** record i's 2.1 wire JSON bytes, as /v1/aircraft sends them */
  record(i: number): Buffer;
  /** `head`, the listed records joined by commas (one copy each), then `tail` */
  listBody(ids: readonly number[], head: string, tail: string): Buffer;
}

/** records handled between two yields when the work runs in slices (hub.ts acceptSliced) */
const SLICE = 2000;

/** Run a sliced computation to its end, here and now. */
export function runAll<T>(steps: Generator<void, T>): T {
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
  }
}

/** A snapshot with each aircraft's cell on every grid and a hex lookup, made once when it arrives. */
export class IndexedSnapshot {
  readonly byHex = new Map<string, number>();
  /** cells[level][i]: aircraft i's cell on grid `level`, or -2 without a position */
  readonly cells: Int32Array[];
  private members: Map<number, number[]> | null = null;

  /** Index a snapshot here and now (see indexing for the sliced way). */
  constructor(
    readonly view: SnapshotView,
    build = true,
  ) {
    this.cells = LEVELS.map(() => new Int32Array(view.total));
    if (build) this.fill(0, view.total);
  }

  /** Index a snapshot a slice of records at a time, yielding between slices. */
  static *indexing(view: SnapshotView, slice = SLICE): Generator<void, IndexedSnapshot> {
    const s = new IndexedSnapshot(view, false);
    for (let at = 0; at < view.total; at += slice) {
      s.fill(at, Math.min(view.total, at + slice));
      yield;
    }
    return s;
  }

  private fill(from: number, to: number): void {
    const view = this.view;
    for (let i = from; i < to; i++) {
      const hex = view.hexOf(i);
      // a repeated hex (a feed glitch) keeps its first record, so every hex is in one place only
      if (!this.byHex.has(hex)) this.byHex.set(hex, i);
      const lat = view.latOf(i);
      const lon = view.lonOf(i);
      const placed = Number.isFinite(lat) && Number.isFinite(lon);
      for (let level = 0; level < LEVELS.length; level++) this.cells[level]![i] = placed ? cellOf(level, lat, lon) : NO_CELL;
    }
  }

  /** Is record i the one this snapshot keeps for its hex? */
  kept(i: number): boolean {
    return this.byHex.get(this.view.hexOf(i)) === i;
  }

  /** The aircraft in a cell, feed order (the sky holds every aircraft, placed or not). */
  membersOf(cell: number): readonly number[] {
    if (!this.members) {
      // grouped once per snapshot, on first demand (a subscribe, or a full state after an outage)
      const m = new Map<number, number[]>([[SKY, []]]);
      for (let i = 0; i < this.view.total; i++) {
        if (!this.kept(i)) continue;
        m.get(SKY)!.push(i);
        for (const level of this.cells) {
          const c = level[i]!;
          if (c === NO_CELL) continue;
          let list = m.get(c);
          if (!list) m.set(c, (list = []));
          list.push(i);
        }
      }
      this.members = m;
    }
    return this.members.get(cell) ?? [];
  }
}

const NO_CELL = -2;

export interface CellChange {
  /** record indexes in the newer snapshot that entered the cell or changed */
  upsert: number[];
  /** hexes that left the cell */
  gone: string[];
}

/** Changes keyed by cell id (SKY included); cells without a change are absent. */
export type SnapshotDiff = Map<number, CellChange>;

function changeOf(d: SnapshotDiff, cell: number): CellChange {
  let c = d.get(cell);
  if (!c) d.set(cell, (c = { upsert: [], gone: [] }));
  return c;
}

/** The changes from `prev` to `cur` in every cell at once: one pass over both snapshots. */
export function diffSnapshots(prev: IndexedSnapshot, cur: IndexedSnapshot): SnapshotDiff {
  return runAll(diffing(prev, cur));
}

/** diffSnapshots a slice of records at a time, yielding between slices. */
export function* diffing(prev: IndexedSnapshot, cur: IndexedSnapshot, slice = SLICE): Generator<void, SnapshotDiff> {
  const d: SnapshotDiff = new Map();
  const still = new Uint8Array(prev.view.total);
  for (let i = 0; i < cur.view.total; i++) {
    if (i % slice === slice - 1) yield;
    if (!cur.kept(i)) continue;
    const hex = cur.view.hexOf(i);
    const p = prev.byHex.get(hex);
    if (p !== undefined) still[p] = 1;
    const same = p !== undefined && prev.view.record(p).equals(cur.view.record(i));
    if (!same) changeOf(d, SKY).upsert.push(i);
    for (let level = 0; level < LEVELS.length; level++) {
      const c = cur.cells[level]![i]!;
      const pc = p === undefined ? NO_CELL : prev.cells[level]![p]!;
      if (c === pc) {
        if (!same && c !== NO_CELL) changeOf(d, c).upsert.push(i);
        continue;
      }
      if (c !== NO_CELL) changeOf(d, c).upsert.push(i);
      if (pc !== NO_CELL) changeOf(d, pc).gone.push(hex);
    }
  }
  for (let p = 0; p < prev.view.total; p++) {
    if (p % slice === slice - 1) yield;
    if (still[p] || !prev.kept(p)) continue;
    const hex = prev.view.hexOf(p);
    changeOf(d, SKY).gone.push(hex);
    for (const level of prev.cells) if (level[p] !== NO_CELL) changeOf(d, level[p]!).gone.push(hex);
  }
  return d;
}
