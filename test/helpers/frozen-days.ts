// an increment's tree against the previous version and a fresh build over the same log, with a
// closed day frozen (docs/api.md, "Flights"): every object but the per-day flights and movements
// documents is the fresh build's; the days written tonight (the new day and the day before) are the
// fresh build's too; every other day's flights and movements objects are the previous version's,
// not rewritten (the same file, hard-linked: same inode), whatever tonight's routes table says.
import { statSync } from 'node:fs';
import { join } from 'node:path';
import type { Version } from '../../artifacts/tree.ts';

const DAY_DOC = /^v1\/(?:flights\/[0-9a-f]{6}|airports\/[A-Z0-9]+\/movements)\/(\d{4}-\d{2}-\d{2})$/;

/** the UTC day of a flights or movements key, null for any other key */
export const dayDocOf = (key: string): string | null => DAY_DOC.exec(key)?.[1] ?? null;

const inode = (v: Version, key: string) => statSync(join(v.dir, `${key}.gz`)).ino;

export interface FrozenCounts {
  /** closed-day objects checked against the previous version */
  closed: number;
  /** of those, how many a fresh build writes otherwise (the freeze is what keeps them) */
  closedUnlikeFresh: number;
  /** objects of the days written tonight checked against the fresh build */
  open: number;
}

/** what breaks the rule above, one line each ([] when it holds), and how many objects it checked */
export function frozenTreeProblems(before: Version, night: Version, full: Version, open: readonly string[]): { problems: string[]; counts: FrozenCounts } {
  const problems: string[] = [];
  const counts: FrozenCounts = { closed: 0, closedUnlikeFresh: 0, open: 0 };
  const [b, n, f] = [before, night, full].map((v) => v.manifest.objects);
  const sha = (o: typeof n, k: string) => o[k]?.sha256;
  const isOpen = (day: string) => open.includes(day);
  // the days the fresh build publishes are the night's
  const daysOf = (o: typeof n) =>
    [
      ...new Set(
        Object.keys(o)
          .map(dayDocOf)
          .filter((d) => d !== null),
      ),
    ].sort();
  if (daysOf(n).join() !== daysOf(f).join()) problems.push(`days: the night's ${daysOf(n).join()} against the fresh build's ${daysOf(f).join()}`);
  const nightDays = new Set(daysOf(n));
  for (const k of new Set([...Object.keys(n), ...Object.keys(f)])) {
    const day = dayDocOf(k);
    if (day !== null && !isOpen(day)) continue;
    if (day !== null) counts.open++;
    if (!(k in n) || !(k in f)) problems.push(`${k}: ${k in n ? 'not in the fresh build' : 'not in the night'}`);
    else if (sha(n, k) !== sha(f, k)) problems.push(`${k}: not the fresh build's bytes`);
  }
  // a closed day: exactly the previous version's objects of that day, the same files
  const isClosed = (day: string | null) => day !== null && !isOpen(day) && nightDays.has(day);
  const closedKeys = (o: typeof n) => Object.keys(o).filter((k) => isClosed(dayDocOf(k)));
  const closed = closedKeys(n);
  const was = new Set(closedKeys(b));
  for (const k of was) if (!(k in n)) problems.push(`${k}: a closed day's object the night dropped`);
  for (const k of closed) {
    counts.closed++;
    if (!was.has(k)) problems.push(`${k}: a closed day's object the previous version lacks`);
    else if (sha(n, k) !== sha(b, k)) problems.push(`${k}: a closed day's object rewritten with other bytes`);
    else if (inode(night, k) !== inode(before, k)) problems.push(`${k}: a closed day's object written again, not kept`);
    if (sha(n, k) !== sha(f, k)) counts.closedUnlikeFresh++;
  }
  return { problems, counts };
}
