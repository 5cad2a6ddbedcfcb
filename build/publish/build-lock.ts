// the build lock: one build (nightly or roll) at a time per artifact root. the lock file names its
// holder by pid and by that process's start time (/proc/<pid>/stat field 22, clock ticks since
// boot) and the boot it ran in: a pid alone is reused by the kernel, and a lock left by a killed
// build whose pid now belongs to an unrelated live process (a shell, a `sleep`) would block every
// build until someone deleted it by hand (issue 47). a lock that names a process that is gone, or a
// live one that started after the lock's holder did, is stale: it is taken over, with a warning.
// a lock in the older form (a bare pid) names its holder by pid alone: it is stale when that pid's
// process started after the lock file was last written.
import { closeSync, linkSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import { join } from 'node:path';

export const LOCK_FILE = '.build.lock';

/** a lock's holder as the file records it */
export interface LockHolder {
  pid: number;
  /** /proc/<pid>/stat field 22 (clock ticks after boot), null in the older bare-pid form */
  start: string | null;
  /** /proc/sys/kernel/random/boot_id when written, null in the older form */
  boot: string | null;
}

/** where a process's start time and the boot id are read (a test points them elsewhere) */
export interface ProcView {
  /** field 22 of /proc/<pid>/stat, or null when there is no such process */
  startOf(pid: number): string | null;
  bootId(): string | null;
  /** seconds since the epoch at which the system booted (the stat file's btime) */
  bootTimeS(): number | null;
  /** clock ticks per second (USER_HZ; 100 on every Linux port Node runs on) */
  ticks: number;
}

export const PROC: ProcView = {
  startOf(pid) {
    try {
      // the command name (field 2) may hold spaces and parentheses: fields after its last ')'
      const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
      return text.slice(text.lastIndexOf(')') + 2).split(' ')[19] ?? null;
    } catch {
      return null;
    }
  },
  bootId() {
    try {
      return readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
    } catch {
      return null;
    }
  },
  bootTimeS() {
    try {
      const m = /^btime (\d+)$/m.exec(readFileSync('/proc/stat', 'utf8'));
      return m ? Number(m[1]) : null;
    } catch {
      return null;
    }
  },
  ticks: 100,
};

/** The text of a lock held by `pid`. */
export function lockText(pid: number, proc: ProcView = PROC): string {
  return JSON.stringify({ pid, start: proc.startOf(pid), boot: proc.bootId() } satisfies LockHolder);
}

/** A lock file's holder; null when the text is neither form. */
export function parseLock(text: string): LockHolder | null {
  const t = text.trim();
  if (/^\d+$/.test(t)) return { pid: Number(t), start: null, boot: null };
  try {
    const h = JSON.parse(t) as Partial<LockHolder>;
    if (!Number.isSafeInteger(h.pid) || h.pid! <= 0) return null;
    return { pid: h.pid!, start: typeof h.start === 'string' ? h.start : null, boot: typeof h.boot === 'string' ? h.boot : null };
  } catch {
    return null;
  }
}

/**
 * Why the lock `holder` (its file last written at `mtimeMs`) is stale, or null when its holder runs:
 * the process is gone, or the live process of that pid is not the one that wrote it.
 */
export function staleBecause(holder: LockHolder, mtimeMs: number, proc: ProcView = PROC): string | null {
  const now = proc.startOf(holder.pid);
  if (now === null) return `process ${holder.pid} is gone`;
  if (holder.start !== null) {
    const boot = proc.bootId();
    if (holder.boot !== null && boot !== null && holder.boot !== boot)
      return `it was written before the last reboot (pid ${holder.pid} is another process now)`;
    return now === holder.start ? null : `pid ${holder.pid} is another process now (started at tick ${now}, the holder at tick ${holder.start})`;
  }
  // the bare-pid form: a process that started after the lock was written cannot have written it
  const btime = proc.bootTimeS();
  if (btime === null) return null;
  const startedMs = (btime + Number(now) / proc.ticks) * 1000;
  // the start time is known to a tick and btime to a second: 2 s of slack against a false takeover
  return startedMs > mtimeMs + 2000
    ? `pid ${holder.pid} is another process now (started ${new Date(startedMs).toISOString()}, after the lock was written)`
    : null;
}

/** the build lock is held by a running build */
export class LockHeld extends Error {}

/**
 * Take the build lock of `root`; returns its release. A running holder: LockHeld. A stale lock is
 * taken over and `warn` told why. The takeover moves the stale file away by rename and checks it
 * moved the file it judged (same inode), so two builds that find the same stale lock do not both win.
 */
export function lockRoot(root: string, warn: (line: string) => void = (l) => console.error(l), proc: ProcView = PROC): () => void {
  mkdirSync(root, { recursive: true });
  const lock = join(root, LOCK_FILE);
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = openSync(lock, 'wx');
      writeSync(fd, lockText(process.pid, proc));
      closeSync(fd);
      return () => rmSync(lock, { force: true });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
    let text: string;
    let st: ReturnType<typeof statSync>;
    try {
      st = statSync(lock);
      text = readFileSync(lock, 'utf8');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') continue; // released meanwhile
      throw e;
    }
    const holder = parseLock(text);
    const why = holder ? staleBecause(holder, st.mtimeMs, proc) : `it does not name a process (${JSON.stringify(text.slice(0, 40))})`;
    if (why === null) throw new LockHeld(`another build (pid ${holder!.pid}) holds ${lock}; wait for it to finish`);
    const aside = `${lock}.stale-${process.pid}`;
    try {
      renameSync(lock, aside);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') continue; // another build took it over first
      throw e;
    }
    if (statSync(aside).ino !== st.ino) {
      // another build took the stale lock over and made its own between our read and our rename: put it back
      try {
        linkSync(aside, lock);
      } catch {
        // a third lock is there: that build holds it
      }
      rmSync(aside, { force: true });
      continue;
    }
    rmSync(aside, { force: true });
    warn(`build lock: taking over ${lock}, which is stale: ${why}`);
  }
  throw new Error(`cannot take ${lock}: it changed hands three times while this build tried; try again`);
}
