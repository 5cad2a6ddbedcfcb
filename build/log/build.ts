// the log step: globe_history days -> LOG/day=YYYY-MM-DD/legs.parquet, one day at a time.
// days are read oldest first; the legs left open at each midnight are carried in memory to the
// next day (build/log/legs.ts). each leg goes in the file of the UTC day of its first point
// (build/log/partitions.ts). the first day of a run rebuilds its carry from the day before it, and
// the last day looks ahead into the day after it, when those days are in the history tree: so a
// run of one day gives the same rows as a longer run. a leg still going after the last day that
// can be read is written `open` and replaced by the build that reads the day it closes.
import { readFile } from 'node:fs/promises';
import { silentProgress, type Progress } from '../progress.ts';
import {
  SKIP_REASONS, TraceReadError, addDays, dayStart, decodeTrace, listDay, listDays, selectDays,
  type DaySelection, type SkipReason, type Skipped, type TraceFile,
} from '../history/scan.ts';
import type { ParsedTrace } from '../../lib/readsb-trace.ts';
import { DEFAULT_LEG_OPTIONS, airframeLegs, type Carry, type LegOptions, type LegRow, type Locate } from './legs.ts';
import { LogWriter } from './write.ts';
import { Partitions, type Partition } from './partitions.ts';

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
  /** the days read and written whole, oldest first */
  written: string[];
  /** days outside the run whose file took legs closing in it (the day before the first), oldest first */
  merged: string[];
  /** legs written open: still going after the newest day read (a later build closes them) */
  open: number;
  skipped: Record<SkipReason, number>;
}

const defaultOnSkip = (s: Skipped) => process.stderr.write(`log: skipped ${s.path} (${s.reason}): ${s.detail}\n`);

/** Builds the flight log for the selected days. Each day's file is replaced whole or not at all. */
export async function buildLog(opts: BuildLogOptions, progress: Progress = silentProgress): Promise<BuildLogResult> {
  const legOpts: LegOptions = { ...DEFAULT_LEG_OPTIONS, ...opts.legs };
  const onSkip = opts.onSkip ?? defaultOnSkip;
  const result: BuildLogResult = {
    files: 0, legs: 0, days: 0, written: [], merged: [], open: 0,
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
  const parts = new Partitions();
  const flush = async (list: Partition[]) => {
    for (const p of list) {
      if (p.whole) await writer.writeDay(p.day, p.rows);
      else await writer.mergeDay(p.day, p.rows);
      (p.whole ? result.written : result.merged).push(p.day);
      result.legs += p.rows.length;
    }
  };
  const run = (day: string, carry: Map<string, Carry>, what: string, only?: ReadonlySet<string>) =>
    runDay(opts, day, carry, legOpts, skip, progress, what, only);
  try {
    let carry = new Map<string, Carry>();
    let carryDay: string | null = null;
    for (const [i, day] of days.entries()) {
      const prev = addDays(day, -1);
      if (carryDay !== prev && present.includes(prev)) {
        carry = (await run(prev, new Map(), 'warm-up')).carry;
        progress.done(`${carry.size} legs open at midnight carried into ${day}`);
      }
      const out = await run(day, carry, 'legs');
      progress.done(`${out.files} files, ${out.rows.length} legs closed, ${out.carry.size} open at midnight`);
      parts.readDay(day);
      parts.add(out.rows);
      result.files += out.files;
      result.days++;
      carry = out.carry;
      carryDay = day;
      if (days[i + 1] !== addDays(day, 1)) {
        // the run of days ends here: close what the next day continues, write the rest open
        const open = await lookAhead(day, carry, present, run);
        parts.add(open.closed);
        parts.add(open.open);
        result.open += open.open.length;
        carry = new Map();
      }
      await flush(parts.take(day, [...carry.values()].map((c) => c.row)));
    }
    await flush(parts.take(null));
  } finally {
    writer.close();
  }
  result.written.sort();
  result.merged.sort();
  return result;
}

/**
 * The legs still open after `day`: when the next day is in the history tree, its files of just
 * those airframes are read to close them (a leg it does not continue is closed as it stands);
 * what is still going after that is returned open. Legs starting on the next day are not kept:
 * they are that day's, written when it is built.
 */
async function lookAhead(
  day: string, carry: Map<string, Carry>, present: readonly string[],
  run: (day: string, carry: Map<string, Carry>, what: string, only?: ReadonlySet<string>) => Promise<DayOut>,
): Promise<{ closed: LegRow[]; open: LegRow[] }> {
  const next = addDays(day, 1);
  if (carry.size === 0 || !present.includes(next)) return { closed: [], open: [...carry.values()].map((c) => c.row) };
  const end = dayStart(next);
  const ahead = await run(next, carry, 'look-ahead', new Set(carry.keys()));
  return {
    closed: ahead.rows.filter((r) => r.first_ts < end),
    open: [...ahead.carry.values()].map((c) => c.row).filter((r) => r.first_ts < end),
  };
}

interface DayOut {
  rows: LegRow[];
  carry: Map<string, Carry>;
  files: number;
}

/** cuts one day: every airframe's file plus the legs carried into the day */
async function runDay(
  opts: BuildLogOptions, day: string, carryIn: Map<string, Carry>, legOpts: LegOptions,
  skip: (s: Skipped) => void, progress: Progress, what: string, only?: ReadonlySet<string>,
): Promise<DayOut> {
  const listing = await listDay(opts.history, day);
  // a look-ahead reads only the airframes it closes legs of; what it skips was reported when built
  if (!only) listing.skipped.forEach(skip);
  const dayEnd = dayStart(day) + 86400;
  const carry = new Map(carryIn);
  const rows: LegRow[] = [];
  const next = new Map<string, Carry>();
  const files = only ? listing.files.filter((f) => only.has(f.hex)) : listing.files;
  progress.start(`${what} ${day}`, files.length);
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
  // carried legs the day never continued: closed as they stand
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
