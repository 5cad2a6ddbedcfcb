// reads the published timetables (optional input) the airport builder needs: for each airport,
// only the file of its local day at the build's clock. a malformed file is counted and reported
// with the reason, and the airport is built as if it had none: a timetable never stops a build.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { localDayAt, parseTimetable, timetableFile, type Timetable } from '../../../artifacts/timetable-file.ts';

export interface TimetableScan {
  /** accepted timetables by airport IATA */
  byIata: Map<string, Timetable>;
  read: number;
  rejected: number;
}

export function readTimetables(
  dir: string | null,
  airports: Iterable<{ iata: string; tz: string }>,
  nowMs: number,
  warn: (message: string) => void = (m) => process.stderr.write(`${m}\n`),
): TimetableScan {
  const scan: TimetableScan = { byIata: new Map(), read: 0, rejected: 0 };
  if (!dir) return scan;
  let folders: Set<string>;
  try {
    folders = new Set(readdirSync(dir));
  } catch (e) {
    warn(`timetables: cannot read ${dir} (${(e as Error).message}); boards are observed only`);
    return scan;
  }
  for (const { iata, tz } of airports) {
    if (!folders.has(iata)) continue;
    const r = readTimetable(dir, iata, localDayAt(nowMs, tz), warn);
    if (r === null) continue;
    scan.read++;
    if (r === 'rejected') scan.rejected++;
    else scan.byIata.set(iata, r);
  }
  return scan;
}

/**
 * The timetable of one airport (IATA) for one local day: null when there is no file, 'rejected'
 * (reported through `warn` with the reason) when the file is malformed.
 */
export function readTimetable(dir: string, iata: string, day: string, warn: (message: string) => void): Timetable | 'rejected' | null {
  const file = join(dir, timetableFile(iata, day));
  let text: string;
  try {
    if (!statSync(file).isFile()) return null;
    text = readFileSync(file, 'utf8');
  } catch {
    return null; // no timetable for this airport that day
  }
  const r = parseTimetable(text, { airport: iata, day });
  if (r.error !== undefined) {
    warn(`timetables: rejected ${file}: ${r.error}`);
    return 'rejected';
  }
  return r.timetable;
}
