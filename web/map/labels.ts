// labels that would overlap an already placed one are skipped: a coarse occupancy grid, first come
// first placed. cheap enough for every frame (a few hundred labels at most reach it).

const CELL_W = 24;
const CELL_H = 14;

export class LabelGrid {
  private readonly taken = new Set<number>();

  /** true (and the area marked taken) when a label of `width` px at (x, y) overlaps none placed */
  place(x: number, y: number, width: number): boolean {
    const x0 = Math.floor(x / CELL_W);
    const x1 = Math.floor((x + width) / CELL_W);
    const row = Math.floor(y / CELL_H);
    const key = (cx: number) => row * 100_003 + cx;
    for (let cx = x0; cx <= x1; cx++) if (this.taken.has(key(cx))) return false;
    for (let cx = x0; cx <= x1; cx++) this.taken.add(key(cx));
    return true;
  }
}
