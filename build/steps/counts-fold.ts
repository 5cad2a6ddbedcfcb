// counts of the window's legs kept between builds (in the version's state/), so a night
// that reuses the previous build (ctx.reuse, ctx.logDays) folds them instead of re-reading the
// window: the new days' legs added, the dropped days' subtracted (their files as the previous build
// read them). a table whose keys hold a routed end (org, dst: a missing end is filled from the
// routes table) holds the callsign too: a callsign whose routes-table row changed (tonight's table
// against the saved one, both ways, as changed-callsigns.ts compares them) is taken out whole and
// counted again from the window's legs; its other legs route the same with either table. counts
// fold by sum and a key at 0 is gone: the night's keys (a few days' legs) are grouped and joined
// with the saved counts, which are streamed through once, never grouped again. a table may also
// keep each key's distinct days as day bits (day-bits.ts) in place of a row per day: the night's
// bits are ORed in and the dropped days' bits cleared, exact because a day leaves the window
// whole. anything unknown (no reuse, a day rewritten in place, a missing state file, a count below
// zero, another ring of days, a saved table with other columns) gives null: the caller counts the window.
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import type { BuildContext, RoutedLegs } from './context.ts';
import { countMetaFile, countRoutesFile, countTableFile, type Reuse } from './declaration.ts';
import { daysOf, previousFor, rebuilds } from './reuse.ts';
import { allRows, countRows, sameKeys, sqlString } from './duck.ts';
import { saveState } from './state.ts';
import { addedDaysSql, droppedLegsSql } from './log-delta.ts';
import { changedCallsignsSql, pickChangedCallsignLegs } from './changed-callsigns.ts';
import { legsRoutedSql } from './routes/legs-routed.ts';
import { bitsToBlob, blobToBits, clearMask, dayBitsAgg, dayRing } from './day-bits.ts';

export interface CountTable {
  /** the temp table the counts end in, and state/<name>.parquet */
  name: string;
  /**
   * SQL: the counts (key columns, then n INTEGER, then with `days` the day bits of a ring of
   * `ring` days: daysColumn) of the legs `src` (alias l, callsigns as the routes table keys
   * them: upper(trim())) that pass `where`: routed legs (legs_routed) when `routed`, else the
   * log's own (no routing join: three joins per leg the counts do not read)
   */
  counts: (src: string, where: string, ring: number) => string;
  /** its keys hold a routed end, and the callsign */
  routed: boolean;
  /** it has a `days` column after n: the key's distinct log days as day bits (day-bits.ts) */
  days?: boolean;
}

/** SQL: a view of legs `from` with the callsign as legs_routed has it, for the tables that are not routed */
const keyedSql = (view: string, from: string) => `CREATE OR REPLACE TEMP VIEW ${view} AS SELECT * REPLACE (upper(trim(callsign)) AS callsign) FROM ${from}`;
const KEYED = 'counts_legs';
/** the legs a table counts tonight (a family without routed tables may have no routed legs) */
function sourceOf(t: CountTable, legs: RoutedLegs | null): string {
  if (!t.routed) return KEYED;
  if (!legs) throw new Error(`count table ${t.name} is routed: it needs the routes step's legs`);
  return legs.view;
}
const anyRouted = (tables: readonly Pick<CountTable, 'routed'>[]) => tables.some((t) => t.routed);

/** SQL: the `days` column of a count table's query (the window's legs `l`) */
export const daysColumn = (ring: number) => `${dayBitsAgg('l."day"', ring)} AS days`;

/** SQL: a saved count table, with its day bits as BIT */
const savedSql = (file: string, t: CountTable) => `SELECT *${t.days ? ` REPLACE (${blobToBits('days')} AS days)` : ''} FROM read_parquet(${sqlString(file)})`;

// where a version keeps a family's files: the names its step declares it saves and reads (declaration.ts countFiles)
export const stateFile = (dir: string, name: string) => join(dir, countTableFile(name));
/** the routes table and the window length a family of tables was made with */
export const routesFile = (dir: string, family: string) => join(dir, countRoutesFile(family));
const metaFile = (dir: string, family: string) => join(dir, countMetaFile(family));

/** what a fold did: for the progress line, and whether the previous documents' window was tonight's */
export interface Folded {
  /** e.g. "1 days added, 1 dropped, 158 callsigns' routes changed" */
  line: string;
  /** the previous build's window had tonight's length (documents carry window_days) */
  sameWindow: boolean;
}

/** the progress line of a fold */
export const foldLine = (added: number, dropped: number, changed: number) => `${added} days added, ${dropped} dropped, ${changed} callsigns' routes changed`;

/** the window length the previous build's counts of `family` were made with */
export const savedWindow = (prev: string, family: string): number => savedMeta(prev, family).window_days;

interface Meta {
  window_days: number;
  /** the ring of day bits its tables were counted with (absent: written before day bits) */
  day_ring?: number;
}
const savedMeta = (prev: string, family: string) => JSON.parse(readFileSync(metaFile(prev, family), 'utf8')) as Meta;

/**
 * Make the temp tables `<name>` (tonight's counts) and `<name>_touched` (the key rows whose counts
 * moved: every delta row, and the previous rows of the changed callsigns), folding the previous
 * build's state of `family` when the step's rule may read it: the added and dropped days it
 * declares, and with changed-routes the callsigns whose routes-table row changed against the
 * rule's saved table. null: not known, nothing made (count the window: countAll).
 */
async function foldCounts(
  ctx: BuildContext,
  db: DuckDBConnection,
  legs: RoutedLegs | null,
  family: string,
  tables: readonly CountTable[],
  rule: Reuse,
): Promise<Folded | null> {
  const previous = previousFor(ctx, rule);
  if (!('dir' in previous) || !previous.days) return null;
  const prev = previous.dir;
  const days = daysOf(rule, previous.days);
  // the routed tables count the routes step's legs
  if (anyRouted(tables) && !legs) return null;
  const routed = anyRouted(tables) ? legs : null;
  const changedRoutes = rebuilds(rule, 'changed-routes') ? join(prev, rule.routes!) : null;
  const ring = dayRing(ctx.windowLimit);
  if (tables.some((t) => t.days) && savedMeta(prev, family).day_ring !== ring) return null;
  // a table saved with other columns is not tonight's counts. a real night never meets one (the code
  // is among the build's inputs: new code, no reuse), but a state folder carried between trees or a
  // run with the code hash held fixed (how the year's nights are compared) must count, not crash
  const names = async (sql: string) => (await allRows<{ column_name: string }>(db, `DESCRIBE ${sql}`)).map((r) => r.column_name).join();
  for (const t of tables) {
    if ((await names(`SELECT * FROM read_parquet(${sqlString(stateFile(prev, t.name))})`)) !== (await names(t.counts(sourceOf(t, routed), 'false', ring))))
      return null;
  }
  const changedSql = routed && changedRoutes ? changedCallsignsSql(routed, changedRoutes) : 'SELECT NULL::VARCHAR AS callsign WHERE false';
  await db.run(`CREATE OR REPLACE TEMP TABLE fold_changed AS ${changedSql}`);
  const changed = await countRows(db, `SELECT * FROM fold_changed`);
  const isChanged = `l.callsign IN (SELECT callsign FROM fold_changed)`;
  if (changed && routed) await pickChangedCallsignLegs(db, routed);
  if (days.dropped.length) {
    // the dropped days as the previous build read them; an unchanged callsign's legs route the same with tonight's table
    await db.run(`CREATE OR REPLACE TEMP VIEW fold_dropped AS SELECT * FROM ${droppedLegsSql(days)}`);
    await db.run(legsRoutedSql('fold_dropped_routed', 'fold_dropped'));
    await db.run(keyedSql('fold_dropped_keyed', 'fold_dropped'));
  }
  const added = days.added.length ? addedDaysSql(days) : '';
  let negative = 0;
  for (const t of tables) {
    const keep = t.routed ? `NOT ${isChanged}` : 'true';
    const src = sourceOf(t, routed);
    const parts = [`SELECT * FROM (${t.counts(src, 'false', ring)})`];
    if (days.added.length) parts.push(`SELECT * FROM (${t.counts(src, `l.day IN (${added}) AND ${keep}`, ring)})`);
    // a changed callsign's legs, all of the window's, with tonight's table
    if (t.routed && changed) parts.push(`SELECT * FROM (${t.counts('fold_cs_routed', 'true', ring)})`);
    // the dropped days' legs are taken away from n; their days' bits are cleared below
    if (days.dropped.length)
      parts.push(
        `SELECT * REPLACE (-n AS n${t.days ? ', NULL::BIT AS days' : ''}) FROM (${t.counts(t.routed ? 'fold_dropped_routed' : 'fold_dropped_keyed', keep, ring)})`,
      );
    const orDays = t.days ? ', bit_or(days) AS days' : '';
    await db.run(
      `CREATE OR REPLACE TEMP TABLE fold_delta AS SELECT * EXCLUDE (n${t.days ? ', days' : ''}), sum(n)::INTEGER AS n${orDays} FROM (${parts.join(' UNION ALL ')}) GROUP BY ALL`,
    );
    const file = stateFile(prev, t.name);
    const mask =
      t.days && days.dropped.length
        ? clearMask(
            days.dropped.map((d) => d.day),
            ring,
          )
        : null;
    const saved = `SELECT *${mask ? ` REPLACE (days & ${mask} AS days)` : ''} FROM (${savedSql(file, t)})`;
    await db.run(`CREATE OR REPLACE TEMP VIEW fold_prev AS ${saved}${t.routed ? ' WHERE callsign NOT IN (SELECT callsign FROM fold_changed)' : ''}`);
    const gone = t.routed ? ` UNION ALL ${saved} WHERE callsign IN (SELECT callsign FROM fold_changed)` : '';
    await db.run(`CREATE OR REPLACE TEMP TABLE ${t.name}_touched AS SELECT * FROM fold_delta${gone}`);
    // the keys the night moved, joined with their previous counts (NULL is a key value: IS NOT DISTINCT FROM);
    // every other previous row is carried over as it is, so the previous counts are streamed, not grouped
    const cols = (await allRows<{ column_name: string }>(db, `DESCRIBE fold_delta`))
      .map((r) => `"${r.column_name}"`)
      .filter((c) => c !== '"n"' && c !== '"days"');
    const on = sameKeys('p', 'd', cols);
    const bits = t.days ? ', CASE WHEN p.days IS NULL THEN d.days WHEN d.days IS NULL THEN p.days ELSE p.days | d.days END AS days' : '';
    await db.run(`CREATE OR REPLACE TEMP TABLE fold_moved AS
      SELECT d.* EXCLUDE (n${t.days ? ', days' : ''}), (d.n + coalesce(p.n, 0))::INTEGER AS n${bits} FROM fold_delta d LEFT JOIN fold_prev p ON ${on}`);
    await db.run(`CREATE OR REPLACE TEMP TABLE ${t.name} AS
      SELECT p.* FROM fold_prev p ANTI JOIN fold_delta d ON ${on}
      UNION ALL SELECT * FROM fold_moved WHERE n <> 0`);
    // a count below zero, or a key with legs and no day: not what the saved counts made
    negative += await countRows(db, `SELECT * FROM fold_moved WHERE n < 0${t.days ? ' OR (n > 0 AND (days IS NULL OR bit_count(days) = 0))' : ''}`);
    await db.run(`DROP TABLE fold_moved`);
    await db.run(`DROP TABLE fold_delta`);
    await db.run(`DROP VIEW fold_prev`);
  }
  await db.run(`DROP TABLE fold_changed`);
  await db.run(`DROP VIEW IF EXISTS fold_dropped_routed`);
  await db.run(`DROP VIEW IF EXISTS fold_dropped_keyed`);
  await db.run(`DROP VIEW IF EXISTS fold_cs_routed`);
  await db.run(`DROP TABLE IF EXISTS fold_cs_legs`);
  await db.run(`DROP VIEW IF EXISTS fold_dropped`);
  // more legs subtracted than counted: the saved counts are not what the dropped days made
  if (negative) {
    for (const t of tables) for (const x of [t.name, `${t.name}_touched`]) await db.run(`DROP TABLE ${x}`);
    return null;
  }
  return { line: foldLine(days.added.length, days.dropped.length, changed), sameWindow: savedWindow(prev, family) === ctx.windowDays };
}

/**
 * The counts of `family` for tonight, as their own progress step (`label: counts`, on a year's
 * first build the longest part of the step): folded from the previous build's when the step's
 * `rule` (its step.ts) may read it and it can be trusted (foldCounts), else counted from the
 * window's legs; null in the second case.
 */
export async function prepareCounts(
  ctx: BuildContext,
  db: DuckDBConnection,
  legs: RoutedLegs | null,
  family: string,
  tables: readonly CountTable[],
  label: string,
  rule: Reuse,
): Promise<Folded | null> {
  ctx.progress.start(`${label}: counts`, 0);
  await db.run(keyedSql(KEYED, 'legs'));
  const folded = await foldCounts(ctx, db, legs, family, tables, rule);
  if (folded === null) await countAll(db, legs, tables, dayRing(ctx.windowLimit));
  await db.run(`DROP VIEW ${KEYED}`);
  ctx.progress.done(folded === null ? "counted from the window's legs" : `folded: ${folded.line}`);
  return folded;
}

/** the temp tables `<name>` counted from the window's legs (the full path) */
async function countAll(db: DuckDBConnection, legs: RoutedLegs | null, tables: readonly CountTable[], ring: number): Promise<void> {
  for (const t of tables) await db.run(`CREATE OR REPLACE TEMP TABLE ${t.name} AS ${t.counts(sourceOf(t, legs), 'true', ring)}`);
}

/**
 * save tonight's counts, the routes table (when a table is routed: then prepareCounts needed the
 * routed legs too) and the window length in the version being built, then drop the temp tables
 */
export async function saveCounts(
  ctx: BuildContext,
  db: DuckDBConnection,
  legs: RoutedLegs | null,
  family: string,
  tables: readonly Pick<CountTable, 'name' | 'days' | 'routed'>[],
): Promise<void> {
  const dir = ctx.writer.dir;
  ctx.progress.start(`${family}: saving the counts for the next night`, 0);
  // files written by hand: new files renamed into place, beside the hard-link copy or after it
  await ctx.writer.readyForFiles();
  for (const t of tables) {
    await saveState(db, `SELECT *${t.days ? ` REPLACE (${bitsToBlob('days')} AS days)` : ''} FROM ${t.name}`, stateFile(dir, t.name));
    await db.run(`DROP TABLE ${t.name}`);
    await db.run(`DROP TABLE IF EXISTS ${t.name}_touched`);
  }
  if (anyRouted(tables)) {
    if (!legs) throw new Error(`the counts of ${family} are routed: saving them needs the routes step's legs`);
    await saveState(db, `SELECT * FROM ${legs.table}`, routesFile(dir, family));
  }
  // a new file, renamed over the previous version's hard link
  const meta = metaFile(dir, family);
  const m: Meta = { window_days: ctx.windowDays, ...(tables.some((t) => t.days) ? { day_ring: dayRing(ctx.windowLimit) } : {}) };
  writeFileSync(`${meta}.tmp-${process.pid}`, JSON.stringify(m));
  renameSync(`${meta}.tmp-${process.pid}`, meta);
  ctx.progress.done(`${tables.length} tables in state/`);
}
