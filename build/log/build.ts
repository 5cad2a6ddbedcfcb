// the log step: globe_history days -> LOG/day=YYYY-MM-DD/legs.parquet, one day at a time.
// days are built oldest first; the legs left open at each midnight are carried in memory to the
// next day (build/log/legs.ts). the first day of a run rebuilds its carry from the day before it,
// when that day is in the history tree, so a run of one day gives the same rows as a longer run.
import { readFile } from 'node:fs/promises';
import { silentProgress, type Progress } from '../progress.ts';
import {
  SKIP_REASONS, TraceReadError, addDays, dayStart, decodeTrace, listDay, listDays, selectDays,
  type DaySelection, type SkipReason, type Skipped, type TraceFile,
} from '../history/scan.ts';
import type { ParsedTrace } from '../../lib/readsb-trace.ts';
import { DEFAULT_LEG_OPTIONS, airframeLegs, type Carry, type LegOptions, type LegRow, type Locate } from './legs.ts';
import { LogWriter } from './write.ts';

export interface BuildLogOptions {
  /** root of the globe_history tree (holds YYYY/MM/DD/traces) */
  history: string;
  /** root of the flight log (gets day=YYYY-MM-DD/legs.parquet) */
  log: string;
  /** which of the days present to build */
  select: DaySelection;
  /** OurAirports ident at a take-off/landing point */
  locate: Locate;
  legs?: Partial<LegOptions>;
  /** DuckDB worker threads */
  threads?: number;
  /** told once per skipped file; default: one line on stderr */
  onSkip?: (s: Skipped) => void;
}

export interface BuildLogResult {
  /** trace files read for the days built (the warm-up day before the first is not counted) */
  files: number;
  legs: number;
  days: number;
  /** the days written, oldest first */
  written: string[];
  /** legs carried past the last day built (written when the next day is built) */
  carried: number;
  skipped: Record<SkipReason, number>;
}

const defaultOnSkip = (s: Skipped) => process.stderr.write(`log: skipped ${s.path} (${s.reason}): ${s.detail}\n`);

/** Builds the flight log for the selected days. Each day's file is replaced whole or not at all. */
export async function buildLog(opts: BuildLogOptions, progress: Progress = silentProgress): Promise<BuildLogResult> {
  const legOpts: LegOptions = { ...DEFAULT_LEG_OPTIONS, ...opts.legs };
  const onSkip = opts.onSkip ?? defaultOnSkip;
  const result: BuildLogResult = {
    files: 0, legs: 0, days: 0, written: [], carried: 0,
    skipped: Object.fromEntries(SKIP_REASONS.map((r) => [r, 0])) as Record<SkipReason, number>,
  };
  const skip = (s: Skipped) => {
    result.skipped[s.reason]++;
    onSkip(s);
  };
  const present = await listDays(opts.history);
  const days = selectDays(present, opts.select);
  if (days.length === 0) return result;
  const writer = await LogWriter.open(opts.log, opts.threads);
  try {
    let carry = new Map<string, Carry>();
    let carryDay: string | null = null;
    for (const day of days) {
      const prev = addDays(day, -1);
      if (carryDay !== prev) {
        carry = new Map();
        if (present.includes(prev)) {
          carry = (await runDay(opts, prev, new Map(), legOpts, skip, progress, 'warm-up')).carry;
          progress.done(`${carry.size} legs open at midnight carried into ${day}`);
        }
      }
      const out = await runDay(opts, day, carry, legOpts, skip, progress, 'legs');
      await writer.writeDay(day, out.rows);
      progress.done(`${out.files} files, ${out.rows.length} legs, ${out.carry.size} open at midnight`);
      result.files += out.files;
      result.legs += out.rows.length;
      result.days++;
      result.written.push(day);
      carry = out.carry;
      carryDay = day;
    }
    result.carried = carry.size;
  } finally {
    writer.close();
  }
  return result;
}

interface DayOut {
  rows: LegRow[];
  carry: Map<string, Carry>;
  files: number;
}

/** cuts one day: every airframe's file plus the legs carried into the day */
async function runDay(
  opts: BuildLogOptions, day: string, carryIn: Map<string, Carry>, legOpts: LegOptions,
  skip: (s: Skipped) => void, progress: Progress, what: string,
): Promise<DayOut> {
  const listing = await listDay(opts.history, day);
  listing.skipped.forEach(skip);
  const dayEnd = dayStart(day) + 86400;
  const carry = new Map(carryIn);
  const rows: LegRow[] = [];
  const next = new Map<string, Carry>();
  progress.start(`${what} ${day}`, listing.files.length);
  const files = listing.files;
  // read the next file while this one is cut: disk and cpu overlap
  let pending = files.length ? readBytes(files[0]!) : null;
  for (let i = 0; i < files.length; i++) {
    const file = files[i]!;
    const bytes = await pending!;
    pending = i + 1 < files.length ? readBytes(files[i + 1]!) : null;
    const trace = decode(file, bytes, skip);
    if (trace) {
      const own = carry.get(trace.hex) ?? null;
      carry.delete(trace.hex);
      const out = airframeLegs(
        { hex: trace.hex, reg: trace.reg, type: trace.type, carry: own, points: trace.points, dayEnd },
        opts.locate, legOpts,
      );
      for (const r of out.rows) rows.push(r);
      if (out.carry) next.set(trace.hex, out.carry);
    }
    progress.tick();
  }
  // carried legs the day never continued: closed now, written with this day
  for (const [hex, c] of [...carry].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const out = airframeLegs({ hex, reg: c.reg, type: c.type, carry: c, points: [], dayEnd }, opts.locate, legOpts);
    for (const r of out.rows) rows.push(r);
    if (out.carry) next.set(hex, out.carry);
  }
  return { rows, carry: next, files: files.length };
}

function readBytes(file: TraceFile): Promise<Buffer | TraceReadError> {
  return readFile(file.path).catch((e: Error) => new TraceReadError('unreadable', file.path, e.message));
}

function decode(file: TraceFile, bytes: Buffer | TraceReadError, skip: (s: Skipped) => void): ParsedTrace | null {
  try {
    if (bytes instanceof TraceReadError) throw bytes;
    const trace = decodeTrace(bytes, file.path);
    if (trace.hex !== file.hex) {
      throw new TraceReadError('not_trace', file.path, `icao ${trace.hex} does not match the file name (${file.hex})`);
    }
    return trace;
  } catch (e) {
    if (!(e instanceof TraceReadError)) throw e;
    skip({ path: file.path, reason: e.reason, detail: e.message.slice(file.path.length + 2) });
    return null;
  }
}
