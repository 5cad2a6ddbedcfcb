// pure: which day's file holds a leg, and when a day's file can be written.
//
// a leg is in the partition of the UTC day of its first heard point (`day` = that date), whatever
// history folder it was read from. a leg that flies through midnight closes on a later day than it
// started, so a day's file is written only once no leg still open can add to it: when no leg
// carried past the newest day read started on that day. the days the run reads are written
// whole (replacing their file); a leg belonging to a day the run did not read (the day before the
// first, where a leg left open by an earlier build closes) is merged into that day's file.
import type { LegRow } from './legs.ts';

/** the partition of a leg: the UTC date of its first point */
export const legDay = (row: Pick<LegRow, 'first_ts'>): string => new Date(row.first_ts * 1000).toISOString().slice(0, 10);

export interface Partition {
  day: string;
  rows: LegRow[];
  /** true: this run read the day, its file is replaced whole; false: these rows are merged into it */
  whole: boolean;
}

export class Partitions {
  private readonly pending = new Map<string, LegRow[]>();
  private readonly read = new Set<string>();

  /** the run has read this day's folder: its file will be written even with no legs */
  readDay(day: string): void {
    this.read.add(day);
    if (!this.pending.has(day)) this.pending.set(day, []);
  }

  add(rows: Iterable<LegRow>): void {
    for (const r of rows) {
      const day = legDay(r);
      let list = this.pending.get(day);
      if (!list) this.pending.set(day, (list = []));
      list.push(r);
    }
  }

  /**
   * Takes out the partitions that are complete: up to `through` (the newest day read), except the
   * days an open leg started on (`open`: the carried legs as they stand). With `through` null,
   * every pending partition (the end of the run, when the open legs have been added as rows).
   */
  take(through: string | null, open: Iterable<Pick<LegRow, 'first_ts'>> = []): Partition[] {
    const held = new Set<string>();
    for (const r of open) held.add(legDay(r));
    const out: Partition[] = [];
    for (const day of [...this.pending.keys()].sort()) {
      if (through !== null && (day > through || held.has(day))) continue;
      out.push({ day, rows: this.pending.get(day)!, whole: this.read.has(day) });
      this.pending.delete(day);
    }
    return out;
  }
}
