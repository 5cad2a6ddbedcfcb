// a version folder the build took over from the prune (publish.ts, recycle.ts), as the writer
// (writer.ts) writes into it: which names hold a file of the folder's own (dirty: the check's
// answer), where those files go when a name is written or linked over (its trash: moved, not
// removed, so their inodes are freed after the commit, not during the steps), and the spares.
import { mkdirSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { Dirty } from './recycle.ts';

/** the prefix of a taken-over folder's trash, beside it in versions/ (publish.ts removes what it finds) */
export const TRASH = '.trash-';

export class TakenOver {
  /** where the folder's own files go when a name is written or linked over */
  readonly trash: string;
  /** its objects whose files are not the previous version's (recycle.ts); null: it holds exactly the previous version's, or nothing */
  dirty: Dirty | null = null;
  /**
   * files of the folder moved to the trash off a name the build linked to the previous version's
   * file: a later write to a name that holds none of the folder's own files renames one over it and
   * writes it in place (gzip-file.ts writeGz), instead of creating a file while this one waits to be
   * freed. a night writes ~200 k such names and relinks ~200 k (docs/perf-log/nightly-steady-state.md, night 3)
   */
  private readonly spares: string[] = [];

  /** `dir`: the folder being built into */
  constructor(dir: string) {
    this.trash = join(dirname(dir), `${TRASH}${basename(dir)}`);
    mkdirSync(this.trash, { recursive: true });
  }

  /** whether `key` is dirty (true: the folder has a file of its own there; false: none), undefined when not */
  owns(key: string): boolean | undefined {
    return this.dirty?.get(key);
  }

  /** whether the folder's file under `key` is not the previous version's (it must be linked again when kept) */
  isDirty(key: string): boolean {
    return this.dirty?.has(key) ?? false;
  }

  /** where the folder's own file under `key` goes before the name is written or linked over; null when it has none */
  asideOf(key: string): string | null {
    return this.owns(key) ? join(this.trash, `${key.replaceAll('/', '~')}.gz`) : null;
  }

  /** a file moved aside off a relinked name, to be written into later */
  addSpare(file: string): void {
    this.spares.push(file);
  }

  /** a spare for a write to a name that holds none of the folder's own files, or null */
  takeSpare(): string | null {
    return this.spares.pop() ?? null;
  }
}
