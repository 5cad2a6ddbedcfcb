// the aircraft the map holds, kept by the push stream's client rule (docs/api.md, "Push stream"):
// hex -> {cell, record}; on `subscribed` drop the entries of cells no longer listed; on `full` drop
// the cell's entries, then add; on `diff` delete a `gone` hex only if it is held in that cell, then
// set each `upsert`. polling replaces the whole set.
import type { Aircraft } from './types.ts';

export class Sky {
  private readonly byHex = new Map<string, { cell: string; rec: Aircraft }>();
  private readonly byCell = new Map<string, Set<string>>();

  private put(cell: string, rec: Aircraft): void {
    const had = this.byHex.get(rec.hex);
    if (had && had.cell !== cell) this.byCell.get(had.cell)?.delete(rec.hex);
    this.byHex.set(rec.hex, { cell, rec });
    let set = this.byCell.get(cell);
    if (!set) this.byCell.set(cell, (set = new Set()));
    set.add(rec.hex);
  }

  private dropCell(cell: string): void {
    for (const hex of this.byCell.get(cell) ?? []) if (this.byHex.get(hex)?.cell === cell) this.byHex.delete(hex);
    this.byCell.delete(cell);
  }

  subscribed(cells: readonly string[]): void {
    const keep = new Set(cells);
    for (const cell of [...this.byCell.keys()]) if (!keep.has(cell)) this.dropCell(cell);
  }

  full(cell: string, aircraft: readonly Aircraft[]): void {
    this.dropCell(cell);
    for (const a of aircraft) this.put(cell, a);
  }

  diff(cell: string, upsert: readonly Aircraft[], gone: readonly string[]): void {
    for (const hex of gone) {
      if (this.byHex.get(hex)?.cell !== cell) continue;
      this.byHex.delete(hex);
      this.byCell.get(cell)?.delete(hex);
    }
    for (const a of upsert) this.put(cell, a);
  }

  /** polling: the answer is the whole set */
  replace(aircraft: readonly Aircraft[]): void {
    this.byHex.clear();
    this.byCell.clear();
    for (const a of aircraft) this.put('poll', a);
  }

  get size(): number {
    return this.byHex.size;
  }

  records(): Aircraft[] {
    return [...this.byHex.values()].map((e) => e.rec);
  }
}
