// benches that write files remove them when the process exits, never between runs. On a filesystem
// without a journal (this machine's root ext4), the inode allocator skips every inode freed in the
// last 60 s (300 s while its inode table block is dirty: ext4's recently_deleted()), and it checks
// them one by one: after many files are removed, creating one costs up to 10x the CPU for minutes
// (34 against 336 µs here, bench/create-files.ts; perf -a: recently_deleted() and what it calls,
// 36 % of all samples, idle included). A run that follows the removal of the one before would pay
// for it, and alternated runs would compare noise.
import { rmSync } from 'node:fs';

const later: string[] = [];
let hooked = false;

/** Remove `dir` when the process exits (after every run has been measured). */
export function removeLater(dir: string): void {
  later.push(dir);
  if (hooked) return;
  hooked = true;
  process.on('exit', () => {
    for (const d of later) rmSync(d, { recursive: true, force: true });
  });
}
