// the log step: globe_history days -> LOG/day=YYYY-MM-DD/legs.parquet, one day at a time.
// days are read oldest first; the legs left open at each midnight are carried in memory to the
// next day (build/log/legs.ts). each leg goes in the file of the UTC day of its first point
// (build/log/partitions.ts). the first day of a run rebuilds its carry from the day before it, and
// the last day looks ahead into the day after it, when those days are in the history tree: so a
// run of one day gives the same rows as a longer run. a leg still going after the last day that
// can be read is written `open` and replaced by the build that reads the day it closes.
//
// the airframes are read and cut on worker threads (leg-pool.ts, `workers`), or on this thread with
// workers 0: both run the same code (airframe-cut.ts) and hand back the same rows in the same order.
import { silentProgress, type Progress } from '../progress.ts';
import { SKIP_REASONS, addDays, dayStart, listDay, listDays, selectDays, type DaySelection, type SkipReason, type Skipped } from '../history/scan.ts';
import { DEFAULT_LEG_OPTIONS, airframeLegs, type Carry, type LegOptions, type LegRow, type Locate } from './legs.ts';
import { byAirframe, cutAirframe, readBytes, type AirframeCut, type AirframeFiles } from './airframe-cut.ts';
import { LegPool } from './leg-pool.ts';
import type { AirfieldTables } from './airfield-tables.ts';
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
  /** threads that read and cut the traces (leg-pool.ts); 0 (the default): this thread does it */
  workers?: number;
  /** the tables `locate` and the detector's field heights were built from (airfields.ts logAirfields):
   * the workers build the same from them. needed when workers > 0 */
  airfields?: AirfieldTables;
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
  /** malformed rows left out of files that were read (lib/readsb-trace.ts: a row that is no position, or out of order) */
  droppedRows: number;
}

const defaultOnSkip = (s: Skipped) => process.stderr.write(`log: skipped ${s.path} (${s.reason}): ${s.detail}\n`);

/** Builds the flight log for the selected days. Each day's file is replaced whole or not at all. */
export async function buildLog(opts: BuildLogOptions, progress: Progress = silentProgress): Promise<BuildLogResult> {
  const legOpts: LegOptions = { ...DEFAULT_LEG_OPTIONS, ...opts.legs };
  const onSkip = opts.onSkip ?? defaultOnSkip;
  const result: BuildLogResult = {
    files: 0,
    legs: 0,
    days: 0,
    written: [],
    merged: [],
    open: 0,
    droppedRows: 0,
    skipped: Object.fromEntries(SKIP_REASONS.map((r) => [r, 0])) as Record<SkipReason, number>,
  };
  const skip = (s: Skipped) => {
    result.skipped[s.reason]++;
    onSkip(s);
  };
  const present = await listDays(opts.history);
  const days = selectDays(present, opts.select);
  if (days.length === 0) return result;
  const pool = startPool(opts, legOpts);
  const writer = await LogWriter.open(opts.log, opts.threads).catch(async (e: unknown) => {
    await pool?.close();
    throw e;
  });
  const parts = new Partitions();
  const flush = async (list: Partition[]) => {
    for (const p of list) {
      if (p.whole) await writer.writeDay(p.day, p.rows);
      else await writer.mergeDay(p.day, p.rows);
      (p.whole ? result.written : result.merged).push(p.day);
      result.legs += p.rows.length;
    }
  };
  const ctx: Run = { opts, legOpts, pool, skip, progress, result };
  const run = (day: string, carry: Map<string, Carry>, what: string, only?: ReadonlySet<string>) => runDay(ctx, day, carry, what, only);
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
      await flush(
        parts.take(
          day,
          [...carry.values()].map((c) => c.row),
        ),
      );
    }
    await flush(parts.take(null));
  } finally {
    writer.close();
    await pool?.close();
  }
  result.written.sort();
  result.merged.sort();
  return result;
}

/** the leg workers, when asked for: each builds the airfields from the tables and takes the detector's other options */
function startPool(opts: BuildLogOptions, legOpts: LegOptions): LegPool | null {
  const n = opts.workers ?? 0;
  if (n === 0) return null;
  if (!opts.airfields) throw new Error('buildLog: workers need the airfield tables (airfields.ts logAirfields): a locate function cannot cross threads');
  const { fields, ...detector } = legOpts.detector;
  return new LegPool(n, { airfields: opts.airfields, carryS: legOpts.carryS, detector, fieldHeights: Boolean(fields) });
}

/**
 * The legs still open after `day`: when the next day is in the history tree, its files of just
 * those airframes are read to close them (a leg it does not continue is closed as it stands);
 * what is still going after that is returned open. Legs starting on the next day are not kept:
 * they are that day's, written when it is built.
 */
async function lookAhead(
  day: string,
  carry: Map<string, Carry>,
  present: readonly string[],
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

/** what every day of a run shares: the options, where the airframes are cut, what is counted */
interface Run {
  opts: BuildLogOptions;
  legOpts: LegOptions;
  pool: LegPool | null;
  skip: (s: Skipped) => void;
  progress: Progress;
  result: BuildLogResult;
}

/** cuts one day: every airframe's file plus the legs carried into the day */
async function runDay(run: Run, day: string, carryIn: Map<string, Carry>, what: string, only?: ReadonlySet<string>): Promise<DayOut> {
  const { opts, legOpts, progress } = run;
  const listing = await listDay(opts.history, day);
  // a look-ahead reads only the airframes it closes legs of; what it skips was reported when built
  if (!only) listing.skipped.forEach(run.skip);
  const dayEnd = dayStart(day) + 86400;
  const carry = new Map(carryIn);
  const rows: LegRow[] = [];
  const next = new Map<string, Carry>();
  const files = only ? listing.files.filter((f) => only.has(f.hex)) : listing.files;
  progress.start(`${what} ${day}`, files.length);
  // each airframe's cut, in listing order, whichever thread made it
  const fold = (c: AirframeCut) => {
    c.skipped.forEach(run.skip);
    run.result.droppedRows += c.dropped;
    if (c.consumed) carry.delete(c.hex);
    for (const r of c.rows) rows.push(r);
    if (c.carry) next.set(c.hex, c.carry);
    progress.tick(c.files);
  };
  if (run.pool) await run.pool.cut(byAirframe(files), (hex) => carry.get(hex) ?? null, dayEnd, fold);
  else await cutHere(byAirframe(files), carry, dayEnd, opts.locate, legOpts, fold);
  // carried legs the day never continued: closed as they stand
  for (const [hex, c] of [...carry].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const out = airframeLegs({ hex, reg: c.reg, type: c.type, carry: c, points: [], dayEnd }, opts.locate, legOpts);
    for (const r of out.rows) rows.push(r);
    if (out.carry) next.set(hex, out.carry);
  }
  return { rows, carry: next, files: files.length };
}

/** the in-thread path (workers: 0): the next airframe's files are read while this one is cut, so disk and cpu overlap */
async function cutHere(
  airframes: Iterable<AirframeFiles>,
  carry: ReadonlyMap<string, Carry>,
  dayEnd: number,
  locate: Locate,
  legOpts: LegOptions,
  fold: (c: AirframeCut) => void,
): Promise<void> {
  const it = airframes[Symbol.iterator]();
  let cur = it.next();
  let pending = cur.done ? null : Promise.all(cur.value.files.map(readBytes));
  while (!cur.done) {
    const a = cur.value;
    const bytes = await pending!;
    cur = it.next();
    pending = cur.done ? null : Promise.all(cur.value.files.map(readBytes));
    fold(cutAirframe(a, bytes, carry.get(a.hex) ?? null, dayEnd, locate, legOpts));
  }
}
