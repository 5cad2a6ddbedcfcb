// an increment's airframes made from the previous build's instead of from all their legs: an
// airframe heard in the day that entered the window or the day that left it (airframes/changed.ts)
// gets the new day's legs on top of its previous document and the dropped day's taken off its end
// (artifacts/airframe-doc-splice.ts), its counts (airframes/state.ts) folded the same way. exact only
// when every new leg is newer than every leg the window kept and every dropped leg older (checked
// here once for the night), and when the fold can tell the latest reg, type and operator: where it
// cannot (the leg that said them left the window, or a tie), or the airframe has a leg a changed
// route fills, the airframe goes to `af_full`, whose legs the step aggregates as a full build does.
import { readFile } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { DuckDBBlobVector, DuckDBConnection, DuckDBDataChunk, DuckDBVarCharVector } from '@duckdb/node-api';
import type { BuildContext, LogDays } from '../context.ts';
import type { Reuse } from '../declaration.ts';
import { daysOf } from '../reuse.ts';
import { MAX_LEGS, airframeFrame, airframeIdentity, airframeLegsOf, type LogIdentity } from '../../../artifacts/airframe-doc.ts';
import { spliceLegs } from '../../../artifacts/airframe-doc-splice.ts';
import { fileOf, keys } from '../../../artifacts/keys.ts';
import { allRows, loadTable, sqlString, streamChunks } from '../duck.ts';
import { keepAirframe, putAirframeDoc } from './write.ts';
import { addedDaysSql, droppedLegsSql } from '../log-delta.ts';
import { legsRoutedSql } from '../routes/legs-routed.ts';
import { ROUTES_STATE } from './step.ts';
import { joinedLegs, legsAggSql, operatorCountsSql, operatorSql, wrapSum } from './sql.ts';

/**
 * SQL (over af_fold's columns): the latest reg (or type) heard is not known from the counts: the
 * new day does not say a later one, and the leg that said it left the window (its time is the
 * previous one's, or later: overlapping legs) or the new day's ties with it
 */
const unsure = (c: 'reg' | 'type') => `(NOT coalesce(a${c}_ts > ${c}_ts0, a${c}_ts IS NOT NULL AND ${c}_ts0 IS NULL)
  AND (coalesce(d${c}_ts >= ${c}_ts0, d${c}_ts IS NOT NULL) OR coalesce(a${c}_ts = ${c}_ts0, false)))`;

/** SQL (over af_fold's columns): the latest reg (or type) and its time: the new day's when later than the previous one */
const latest = (c: 'reg' | 'type') => {
  const newer = `coalesce(a${c}_ts > ${c}_ts0, a${c}_ts IS NOT NULL)`;
  return `CASE WHEN ${newer} THEN a${c} ELSE ${c}0 END AS ${c}, CASE WHEN ${newer} THEN a${c}_ts ELSE ${c}_ts0 END AS ${c}_ts`;
};

/**
 * The new day's legs (`af_add`, routed with tonight's routes table) and the dropped day's
 * (`af_drop`, routed with the previous build's, as its documents were): the log's rows picked into
 * `<view>_log` tables first. true when the days are in order: every added leg starts after every
 * other leg of the window, every dropped one before every leg the window keeps.
 */
async function pickDelta(ctx: BuildContext, db: DuckDBConnection, days: LogDays): Promise<boolean> {
  const added = days.added.length ? `day IN (${addedDaysSql(days)})` : 'false';
  await db.run(`CREATE OR REPLACE TEMP TABLE af_add_log AS SELECT * FROM legs WHERE ${added}`);
  await db.run(
    `CREATE OR REPLACE TEMP TABLE af_drop_log AS ${days.dropped.length ? `SELECT * FROM ${droppedLegsSql(days)}` : 'SELECT * FROM legs WHERE false'}`,
  );
  await db.run(`CREATE OR REPLACE TEMP TABLE af_prev_routes AS SELECT * FROM read_parquet(${sqlString(join(ctx.reuse!, ROUTES_STATE))})`);
  await db.run(legsRoutedSql('af_add', 'af_add_log', 'routes_table'));
  await db.run(legsRoutedSql('af_drop', 'af_drop_log', 'af_prev_routes'));
  const [o] = await allRows<{ ok: boolean }>(
    db,
    `
    WITH k AS (SELECT min(first_ts) AS lo, max(first_ts) AS hi FROM legs WHERE NOT (${added})),
      a AS (SELECT min(first_ts) AS lo FROM af_add_log), d AS (SELECT max(first_ts) AS hi FROM af_drop_log)
    SELECT coalesce(d.hi < k.lo, true) AND coalesce(a.lo > k.hi, true) AND coalesce(a.lo > d.hi, true) AS ok FROM k, a, d`,
  );
  return o!.ok;
}

/**
 * Fill `af_fold` (one row per changed airframe the fold can make: `splice`, its new counts, the
 * texts to splice) and `af_full(hex)` (the changed airframes it cannot), from `af_changed(hex,
 * routed)` and the previous state (`af_prev`, `af_prev_ops`). Returns how many it can splice, or
 * null when the days are not in order (then `af_full` is every changed airframe).
 */
export async function foldAirframes(ctx: BuildContext, db: DuckDBConnection, rule: Reuse): Promise<number | null> {
  const ordered = await pickDelta(ctx, db, daysOf(rule, ctx.logDays!));
  if (!ordered) {
    await db.run(`CREATE OR REPLACE TEMP TABLE af_full AS SELECT hex FROM af_changed`);
    await db.run(`CREATE OR REPLACE TEMP TABLE af_fold AS SELECT NULL::VARCHAR AS hex WHERE false`);
    return null;
  }
  // each changed airframe's operator counts with the day added and the dropped one taken away.
  // unsure: the dropped legs held the prefix's latest time, the new day has no later one and some
  // of its legs stay (their latest is not known without them), or the counts do not add up (fewer
  // than none, or dropped legs of a prefix the saved counts never had: a state that is not the log's)
  await db.run(`CREATE OR REPLACE TEMP TABLE af_ops_fold AS
    WITH x AS (
      SELECT coalesce(a.hex, d.hex) AS hex, coalesce(a.p, d.p) AS p, coalesce(a.n, 0) - coalesce(d.n, 0) AS dn, a.t AS ta, d.t AS td
      FROM (${operatorCountsSql('af_add_log')}) a FULL JOIN (${operatorCountsSql('af_drop_log')}) d ON a.hex = d.hex AND a.p = d.p),
    o AS (SELECT * FROM af_prev_ops WHERE hex IN (SELECT hex FROM af_changed))
    SELECT coalesce(o.hex, x.hex) AS hex, coalesce(o.p, x.p) AS p, coalesce(o.n, 0) + coalesce(x.dn, 0) AS n,
      CASE WHEN o.t IS NULL THEN x.ta WHEN x.ta IS NULL THEN o.t ELSE greatest(o.t, x.ta) END AS t,
      (coalesce(x.td >= o.t, x.td IS NOT NULL) AND NOT coalesce(x.ta > o.t, false) AND coalesce(o.n, 0) + coalesce(x.dn, 0) > 0)
        OR coalesce(o.n, 0) + coalesce(x.dn, 0) < 0 OR (o.hex IS NULL AND x.td IS NOT NULL) AS unsure
    FROM o FULL JOIN x ON o.hex = x.hex AND o.p = x.p`);
  // per changed airframe: the previous row (p), the new day's legs (a), the dropped day's (d). the
  // dropped legs the previous document holds are its last m: all of them when it held the whole
  // window, else those of the dropped day that were among its newest MAX_LEGS
  await db.run(`CREATE OR REPLACE TEMP TABLE af_fold AS
    WITH a AS (${legsAggSql('af_add')}), d AS (${legsAggSql('af_drop')}),
    o AS (SELECT hex, bool_or(unsure) AS unsure FROM af_ops_fold GROUP BY hex),
    op AS (${operatorSql('af_ops_fold')}),
    f AS (
      SELECT c.hex, c.routed, p.legs AS n0, p.legsum AS s0, p.reg AS reg0, p.reg_ts AS reg_ts0, p.type AS type0, p.type_ts AS type_ts0, p.operator_icao AS op0,
        coalesce(a.n, 0) AS an, a.s AS as_, a.reg AS areg, a.reg_ts AS areg_ts, a.type AS atype, a.type_ts AS atype_ts, a.l AS al,
        coalesce(d.n, 0) AS dn, d.s AS ds, d.reg_ts AS dreg_ts, d.type_ts AS dtype_ts, d.l AS dl,
        coalesce(o.unsure, false) AS ops_unsure, op.operator_icao AS op1
      FROM af_changed c LEFT JOIN af_prev p USING (hex) LEFT JOIN a USING (hex) LEFT JOIN d USING (hex) LEFT JOIN o USING (hex) LEFT JOIN op USING (hex)),
    g AS (
      SELECT *, coalesce(n0, 0) - dn + an AS n1,
        greatest(0, dn - (coalesce(n0, 0) - least(coalesce(n0, 0), ${MAX_LEGS}))) AS m,
        ${unsure('reg')} AS reg_unsure, ${unsure('type')} AS type_unsure
      FROM f)
    SELECT hex, n1, m, least(coalesce(n0, 0), ${MAX_LEGS}) AS prev_legs,
      NOT routed AND NOT ops_unsure AND NOT reg_unsure AND NOT type_unsure AND dn <= coalesce(n0, 0) AS splice,
      ${wrapSum('coalesce(s0, 0)::HUGEINT + coalesce(as_, 0) - coalesce(ds, 0)')} AS legsum,
      ${latest('reg')}, ${latest('type')},
      op1 AS operator_icao, reg0, type0, op0, an,
      CASE WHEN an > 0 THEN encode(${joinedLegs('al')}) END AS added,
      CASE WHEN m > 0 THEN encode(${joinedLegs(`list_slice(dl, 1, m)`)}) END AS dropped
    FROM g`);
  await db.run(`CREATE OR REPLACE TEMP TABLE af_full AS
    SELECT hex FROM af_changed WHERE hex NOT IN (SELECT hex FROM af_fold WHERE splice)`);
  const [n] = await allRows<{ n: number | bigint }>(db, `SELECT count(*) AS n FROM af_fold WHERE splice`);
  return Number(n!.n);
}

const NONE = new Uint8Array(0);
const EMPTY_LEGS = Buffer.from('[]');

/** one row of af_fold the splice makes, read out of its chunk */
interface SpliceRow {
  hex: string;
  /** legs left in the window; the previous document's legs (its count); new legs; dropped legs it holds */
  n1: number;
  held: number;
  an: number;
  m: number;
  log: LogIdentity;
  was: LogIdentity;
  added: Uint8Array;
  dropped: Uint8Array;
  /** the previous document's gzipped bytes, being read (an Error: it could not be read); null: not needed */
  doc: Promise<Buffer | Error> | null;
}

/**
 * af_fold's rows of a chunk, the previous documents they need already being read on libuv's
 * threads: read one by one on the main thread, a night's 112,000 took 7.4 s of reading there (5.5 s
 * waiting in read(): --cpu-prof of a year's night). unzipped on the main thread when made: zlib's
 * asynchronous gunzip took 54 s of the main thread's time for the same documents, against 4.6 s
 */
function spliceRows(chunk: DuckDBDataChunk, dir: string): SpliceRow[] {
  const v = (i: number) => chunk.getColumnVector(i);
  const text = (i: number) => v(i) as DuckDBVarCharVector;
  const int = (i: number) => v(i) as unknown as { getItem(i: number): number };
  const [hex, n1, m, prevLegs, an] = [text(0), int(1), int(2), int(3), int(4)];
  const [reg, type, op, reg0, type0, op0] = [text(5), text(6), text(7), text(8), text(9), text(10)];
  const [added, dropped] = [v(11) as DuckDBBlobVector, v(12) as DuckDBBlobVector];
  const rows: SpliceRow[] = [];
  for (let i = 0; i < chunk.rowCount; i++) {
    const r: SpliceRow = {
      hex: hex.getItem(i)!,
      n1: n1.getItem(i),
      held: prevLegs.getItem(i),
      an: an.getItem(i),
      m: m.getItem(i),
      log: { reg: reg.getItem(i), type: type.getItem(i), operator_icao: op.getItem(i) },
      was: { reg: reg0.getItem(i), type: type0.getItem(i), operator_icao: op0.getItem(i) },
      added: added.getItemBytes(i) ?? NONE,
      dropped: dropped.getItemBytes(i) ?? NONE,
      doc: null,
    };
    rows.push(r);
  }
  readAhead(
    rows.filter((r) => r.n1 > 0 && r.held > 0 && !unchanged(r)),
    dir,
  );
  return rows;
}

/** previous documents read at once at most: a chunk's 2,048 opened together could meet the open files' limit */
const READS_IN_FLIGHT = 64;

/**
 * start reading the previous documents of `rows` (their `doc`), READS_IN_FLIGHT at a time, in order.
 * fs.readFile with a callback, not fs/promises': 16-21 µs of CPU a file against 44-55 µs
 * (bench/read-files.ts on the year's airframe files in the page cache: docs/perf-log/nightly-steady-state.md, night 8)
 */
function readAhead(rows: SpliceRow[], dir: string): void {
  const done: ((b: Buffer | Error) => void)[] = [];
  for (const r of rows) r.doc = new Promise((resolve) => void done.push(resolve));
  let next = 0;
  const lane = () => {
    if (next >= rows.length) return;
    const i = next++;
    readFile(join(dir, fileOf(keys.airframe(rows[i]!.hex))), (e, b) => {
      done[i]!(e ?? b);
      lane();
    });
  };
  for (let k = 0; k < Math.min(READS_IN_FLIGHT, rows.length); k++) lane();
}

const sameIdentity = (r: SpliceRow) => r.log.reg === r.was.reg && r.log.type === r.was.type && r.log.operator_icao === r.was.operator_icao;
/** only legs the previous document did not hold left the window, and its identity is the same: it is the previous one */
const unchanged = (r: SpliceRow) => r.an === 0 && r.m === 0 && sameIdentity(r);

/**
 * Make the documents of the airframes `af_fold` can splice: the previous document's legs read from
 * the reused version, the new day's put on top and the dropped day's taken off (spliceLegs), the
 * identity from the folded counts; kept as they were when neither changed. An airframe whose
 * previous document is missing or not what the state says (spliceLegs or airframeLegsOf: null) is
 * given back to `af_full` (and named in `af_refold`), to be aggregated from its legs. `seen` gets
 * every airframe made or kept; `tick` is told how many rows were done.
 */
export async function spliceAirframes(
  ctx: BuildContext,
  db: DuckDBConnection,
  seen: Set<string>,
  tick: (n: number) => void,
): Promise<{ spliced: number; kept: number }> {
  const refold: string[] = [];
  let spliced = 0;
  let kept = 0;
  const make = async (rows: SpliceRow[]) => {
    for (const r of rows) {
      // no leg left in the window: the registry's row, if any, makes its document (airframes/build.ts)
      if (r.n1 === 0) continue;
      if (r.held > 0 && unchanged(r)) {
        seen.add(r.hex);
        keepAirframe(ctx, r.hex);
        kept++;
        continue;
      }
      const gz = r.doc ? await r.doc : null;
      const doc = gz instanceof Buffer ? gunzipSync(gz) : gz;
      if (doc instanceof Error && (doc as NodeJS.ErrnoException).code !== 'ENOENT') throw doc;
      const same = sameIdentity(r);
      const id = airframeIdentity(r.hex, r.log, ctx.ref);
      const frame = airframeFrame(id);
      const prev =
        doc === null ? EMPTY_LEGS : doc instanceof Error ? null : airframeLegsOf(doc, same ? frame : airframeFrame(airframeIdentity(r.hex, r.was, ctx.ref)));
      const made =
        prev && spliceLegs(prev, r.held, { added: r.added, addedCount: Math.min(r.an, MAX_LEGS), dropped: r.dropped, droppedCount: r.m }, MAX_LEGS, frame);
      if (!made) {
        refold.push(r.hex);
        continue;
      }
      seen.add(r.hex);
      putAirframeDoc(ctx, id, made, same && r.held > 0);
      spliced++;
    }
    tick(rows.length);
    await ctx.writer.drain();
  };
  // a chunk's documents are read while the one before it is made
  const sql = `SELECT hex, n1::INTEGER, m::INTEGER, prev_legs::INTEGER, an::INTEGER, reg, type, operator_icao, reg0, type0, op0, added, dropped FROM af_fold WHERE splice`;
  let pending: SpliceRow[] | null = null;
  for await (const chunk of streamChunks(db, sql)) {
    const next = spliceRows(chunk, ctx.reuse!);
    if (pending) await make(pending);
    pending = next;
  }
  if (pending) await make(pending);
  await loadTable(
    db,
    'af_refold',
    [['hex', 'VARCHAR']],
    refold.map((h) => [h]),
  );
  await db.run(`INSERT INTO af_full SELECT hex FROM af_refold`);
  return { spliced, kept };
}

/** SQL: the state rows (AIRFRAME_STATE's columns) of the airframes spliced (`af_fold`), less those the splice gave back (`af_refold`) */
export const splicedStateSql = `SELECT hex, n1::INTEGER AS legs, legsum, reg, reg_ts, type, type_ts, operator_icao FROM af_fold
  WHERE splice AND n1 > 0 AND hex NOT IN (SELECT hex FROM af_refold)`;

/** SQL: their operator counts (OPERATOR_STATE's columns) */
export const splicedOpsSql = `SELECT hex, p, n, t FROM af_ops_fold
  WHERE n > 0 AND hex IN (SELECT hex FROM af_fold WHERE splice AND hex NOT IN (SELECT hex FROM af_refold))`;

/** drop what foldAirframes made */
export async function dropFold(db: DuckDBConnection): Promise<void> {
  for (const v of ['af_add', 'af_drop']) await db.run(`DROP VIEW IF EXISTS ${v}`);
  for (const t of ['af_add_log', 'af_drop_log', 'af_prev_routes', 'af_ops_fold', 'af_fold', 'af_full', 'af_refold']) await db.run(`DROP TABLE IF EXISTS ${t}`);
}
