// builder: one v1/airframes/<hex> per airframe heard in the window (and per registry row never
// heard, with legs []), plus v1/refdata/aircraft/<hex> where reg or type is known. DuckDB does the
// work per batch of hexes (bounded memory): the newest 200 legs as one JSON string per hex, the
// majority callsign prefix, the latest reg/type heard. needs `legs_routed` (routes builder).
// a night that reuses the previous build aggregates only the airframes airframes-changed.ts names.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { DuckDBBlobVector, DuckDBConnection, DuckDBDataChunk, DuckDBVarCharVector } from '@duckdb/node-api';
import type { BuildContext, RoutedLegs } from './context.ts';
import { keys } from '../../artifacts/keys.ts';
import { MAX_LEGS, airframeBytes, airframeDoc, airframeIdentity, type LogIdentity } from '../../artifacts/airframe.ts';
import { refAircraftDoc } from '../../artifacts/refdata.ts';
import type { RefView } from '../../artifacts/reference-view.ts';
import { allRows, loadTable, releaseReadChunks, sqlString, streamChunks, streamRows } from './duck.ts';
import { ROUTES_STATE, changedAirframes } from './airframes-changed.ts';
import { saveState } from './state.ts';
import { legsRoutedSql } from './flight-routes.ts';

/**
 * legs per batch of hexes: bounds DuckDB's working set whatever the size of the log. 2 M, not 4 M:
 * the year's first build peaked at 7.1 GB in this step with 4 M, and halving it took 1.4 GB off the
 * step's peak for the same DuckDB CPU (bench/airframes-step.ts --legs-per-batch); a batch reads
 * only the row groups of its hex range (build/log/write.ts LEG_FILE_OPTIONS), so more batches do
 * not read the year more often.
 */
const LEGS_PER_BATCH = 2_000_000;
/**
 * legs per batch of an increment's changed airframes (their window's legs, picked into memory:
 * pickChangedLegs). 1 M, not 2 M: DuckDB's peak 1.74 against 2.26 GiB for the year's 68,500
 * airframes of a day, in about the same time (bench/airframes-batches.ts, README: the airframes' peak)
 */
const CHANGED_LEGS_PER_BATCH = 1_000_000;
/**
 * legs' JSON read between full collections (releaseReadChunks, after a batch): about what a batch
 * of LEGS_PER_BATCH reads on the year (~460 MB, 232 bytes a leg), so the first build collects after
 * every batch as before, and an increment's smaller batches after every second one. a collection's
 * time grows with the live heap: about 1.3 s with a night's two manifests of 2 M objects in it
 */
const RELEASE_AFTER_BYTES = 384 << 20;
/** documents between waits for the write workers (bounds what is queued for them) */
const DRAIN_EVERY = 4096;

/**
 * Hex ranges [lo, hi) holding at most about `maxLegs` legs each, cut from the real distribution:
 * addresses are far from uniform (the US block alone holds a large share of the world's fleet),
 * so fixed ranges would put most of the log in one batch.
 */
export async function hexBatches(db: DuckDBConnection, source: string, maxLegs: number): Promise<[string, string | null][]> {
  const counts = await allRows<{ p: string; n: number | bigint }>(
    db,
    `SELECT substr(hex, 1, 3) AS p, count(*) AS n FROM ${source} WHERE regexp_full_match(hex, '[0-9a-f]{6}') GROUP BY p ORDER BY p`,
  );
  return packRanges(counts.map((c) => [c.p, Number(c.n)]), maxLegs);
}

/** PURE: pack sorted (3-hex-digit prefix, legs) counts into ranges of at most maxLegs (a lone bigger prefix is its own range). */
export function packRanges(counts: [string, number][], maxLegs: number): [string, string | null][] {
  const starts: string[] = [];
  let inBatch = 0;
  for (const [p, n] of counts) {
    if (starts.length === 0 || inBatch + n > maxLegs) {
      starts.push(p);
      inBatch = 0;
    }
    inBatch += n;
  }
  if (starts.length === 0) return [['000000', null]];
  return starts.map((p, i) => [i === 0 ? '000000' : `${p}000`, i + 1 < starts.length ? `${starts[i + 1]}000` : null]);
}

const rangeWhere = (lo: string, hi: string | null) => `hex >= ${sqlString(lo)}${hi ? ` AND hex < ${sqlString(hi)}` : ''}`;

/**
 * one row per airframe of a hex range: the latest reg/type heard, the majority airline prefix, and
 * the newest MAX_LEGS legs as JSON, newest first, in document form (written as it is: airframeBytes).
 * each leg's JSON is made once, per row (to_json), and the document is those texts joined: making
 * the JSON of a list of structs per airframe cost 25 % more of DuckDB's time.
 * a leg's UTC date is day arithmetic on its unix seconds, not a timestamp taken to UTC: the same
 * text, and the conversion was 15-30 % of the query's CPU on a batch of the year (1.69 M legs:
 * 2.3-2.9 s against 2.9-3.9 s, bench/airframes-sql.ts; the step's CPU 3-5 %, bench/airframes-step.ts).
 * the legs are an unordered list() sorted by list_sort on a leading descending key: an ordered
 * list(... ORDER BY) aggregate keeps a sort state per group and ran out of 4 GB on a year's log;
 * this holds a batch of 4 M legs in about 1.3 GB.
 * `digest` hashes everything of the document that comes from the log (reg, type, operator, the
 * legs); the JSON text is made only where it differs from the previous build's (`af_prev`), so an
 * unchanged airframe costs a hash, not a document.
 */
export function airframesSql(source: string, lo: string, hi: string | null): string {
  return `
WITH b AS (SELECT * FROM ${source} WHERE ${rangeWhere(lo, hi)}),
ops AS (
  SELECT hex, arg_max(p, (n, t)) AS operator_icao FROM (
    SELECT hex, substr(callsign, 1, 3) AS p, count(*) AS n, max(last_ts) AS t FROM b
    WHERE regexp_full_match(callsign, '[A-Z]{3}[0-9][A-Z0-9]{0,4}') GROUP BY hex, p)
  GROUP BY hex),
lg AS (
  SELECT hex,
    arg_max(reg, last_ts) FILTER (WHERE reg IS NOT NULL AND reg <> '') AS reg,
    arg_max(upper(type), last_ts) FILTER (WHERE type IS NOT NULL AND type <> '') AS type,
    list_slice(list_sort(list({k1: -first_ts, k2: -last_ts, j: to_json({
      date: CAST(DATE '1970-01-01' + CAST(floor(coalesce(dep_ts, first_ts) / 86400) AS INTEGER) AS VARCHAR),
      org: org, dst: dst, org_ident: org_ident, dst_ident: dst_ident, callsign: callsign,
      dep: dep_ts, arr: arr_ts, first_seen: first_ts, last_seen: last_ts,
      route_source: route_source, table_source: table_source})::VARCHAR})), 1, ${MAX_LEGS}) AS l
  FROM b GROUP BY hex),
d AS (SELECT lg.*, ops.operator_icao, hash(lg.reg, lg.type, ops.operator_icao, lg.l)::VARCHAR AS digest FROM lg LEFT JOIN ops USING (hex))
SELECT d.hex, d.reg, d.type, d.operator_icao, d.digest,
  CASE WHEN p.digest IS DISTINCT FROM d.digest THEN encode('[' || array_to_string(list_transform(d.l, x -> x.j), ',') || ']') END AS legs
FROM d LEFT JOIN af_prev p USING (hex)`;
}

/**
 * the rows of airframesSql, column by column: the legs arrive as bytes (BLOB), so their ~19 KB of
 * JSON never become a JavaScript string (null: unchanged since the previous build, kept)
 */
function* hexRows(chunk: DuckDBDataChunk): Generator<{ hex: string; log: LogIdentity; digest: string; legs: Uint8Array | null }> {
  const text = (i: number) => chunk.getColumnVector(i) as DuckDBVarCharVector;
  const [hex, reg, type, operator, digest] = [text(0), text(1), text(2), text(3), text(4)];
  const legs = chunk.getColumnVector(5) as DuckDBBlobVector;
  for (let i = 0; i < chunk.rowCount; i++) {
    yield {
      hex: hex.getItem(i)!, digest: digest.getItem(i)!, legs: legs.getItemBytes(i),
      log: { reg: reg.getItem(i), type: type.getItem(i), operator_icao: operator.getItem(i) },
    };
  }
}

/** the digest recorded for an airframe the log did not hear (its document comes from the registry alone) */
const UNHEARD = 'unheard';
/** where a version records each airframe's digest, for the next build */
const AIRFRAME_STATE = join('state', 'airframe-digests.parquet');

/** `legs`: the UTF-8 bytes of the legs' JSON as DuckDB made it (airframeBytes), [] when not heard in the window, null when no log is loaded */
function put(ctx: BuildContext, ref: RefView, hex: string, log: LogIdentity | null, legs: Uint8Array | [] | null): void {
  const id = airframeIdentity(hex, log, ref);
  if (legs instanceof Uint8Array) ctx.writer.putJson(keys.airframe(hex), airframeBytes(id, legs));
  else ctx.writer.put(keys.airframe(hex), airframeDoc(id, legs));
  ctx.counts.airframes = (ctx.counts.airframes ?? 0) + 1;
  if (id.reg || id.type) {
    ctx.writer.put(keys.refAircraft(hex), refAircraftDoc(id));
    ctx.counts['refdata.aircraft'] = (ctx.counts['refdata.aircraft'] ?? 0) + 1;
  }
}

/** keep both documents of an airframe whose inputs did not change (the previous build wrote them) */
function keep(ctx: BuildContext, hex: string): void {
  if (!ctx.writer.keep(keys.airframe(hex))) {
    throw new Error(`the previous build recorded a digest for airframe ${hex} but has no ${keys.airframe(hex)}: its state is inconsistent; rerun with --rebuild`);
  }
  ctx.counts.airframes = (ctx.counts.airframes ?? 0) + 1;
  if (ctx.writer.keep(keys.refAircraft(hex))) ctx.counts['refdata.aircraft'] = (ctx.counts['refdata.aircraft'] ?? 0) + 1;
}

/** `af_prev(hex, digest)`: the previous build's digests when its documents may be kept (ctx.reuse), else empty */
async function loadPrevious(ctx: BuildContext, db: DuckDBConnection): Promise<Set<string>> {
  const file = ctx.reuse ? join(ctx.reuse, AIRFRAME_STATE) : null;
  if (file && existsSync(file)) {
    await db.run(`CREATE OR REPLACE TEMP TABLE af_prev AS SELECT hex, digest FROM read_parquet(${sqlString(file)})`);
    const unheard = await allRows<{ hex: string }>(db, `SELECT hex FROM af_prev WHERE digest = '${UNHEARD}'`);
    return new Set(unheard.map((r) => r.hex));
  }
  await db.run(`CREATE OR REPLACE TEMP TABLE af_prev (hex VARCHAR, digest VARCHAR)`);
  return new Set();
}

/** record every airframe's digest, and the routes table they were built with, for the next build */
async function saveDigests(ctx: BuildContext, db: DuckDBConnection, legs: RoutedLegs, digests: [string, string][]): Promise<void> {
  await loadTable(db, 'af_digest', [['hex', 'VARCHAR'], ['digest', 'VARCHAR']], digests);
  await ctx.writer.readyForFiles();
  await saveState(db, `SELECT * FROM af_digest`, join(ctx.writer.dir, AIRFRAME_STATE));
  await saveState(db, `SELECT * FROM ${legs.table}`, join(ctx.writer.dir, ROUTES_STATE));
  await db.run(`DROP TABLE af_digest`);
  await db.run(`DROP TABLE IF EXISTS af_prev`);
  await db.run(`DROP TABLE IF EXISTS af_changed`);
}

/**
 * The temp table `<into>_log`: the window's log rows of the airframes in af_changed; and the view
 * `into`: those rows routed with the routes table `routes` (legsRoutedSql), the rows legs_routed
 * gives them. picked first, then routed: DuckDB did not push the hex filter below the routing joins.
 * the picked rows are held as the log has them and routed batch by batch as they are read: routed
 * into a table they took DuckDB to 2.46 against 2.26 GiB (batches of 2 M; 1.74 GiB now, 1 M), and
 * picking them took 7.9-8.2 against 5.4-5.6 s, a little more than the batches' routing now costs
 * (bench/airframes-batches.ts). Returns the table's name; dropChangedLegs drops both.
 */
export async function pickChangedLegs(db: DuckDBConnection, routes: string, into: string): Promise<string> {
  const log = `${into}_log`;
  await db.run(`CREATE OR REPLACE TEMP TABLE ${log} AS SELECT * FROM legs WHERE hex IN (SELECT hex FROM af_changed)`);
  await db.run(legsRoutedSql(into, log, routes));
  return log;
}

export async function dropChangedLegs(db: DuckDBConnection, into: string): Promise<void> {
  await db.run(`DROP VIEW IF EXISTS ${into}`);
  await db.run(`DROP TABLE IF EXISTS ${into}_log`);
}

/** `maxLegs`: legs per batch (default LEGS_PER_BATCH for the window's log, CHANGED_LEGS_PER_BATCH for an increment's picked legs) */
export async function buildAirframes(ctx: BuildContext, legs: RoutedLegs, db: DuckDBConnection = ctx.db, maxLegs?: number): Promise<number> {
  const ref = ctx.ref;
  const seen = new Set<string>();
  const digests: [string, string][] = [];
  const unheardBefore = await loadPrevious(ctx, db);
  let kept = 0;
  // an increment: only the airframes whose legs can have changed are aggregated (airframes-changed.ts)
  const changed = await changedAirframes(ctx, db, legs, AIRFRAME_STATE);
  ctx.progress.start(changed === null ? 'airframes' : `airframes (${changed} with legs in the ${ctx.logDays!.added.length} new and ${ctx.logDays!.dropped.length} dropped days or a changed route)`, 0);
  // an increment's airframes have legs all over the hex space, so no row group can be skipped:
  // their legs are read out of the window once, and the batches read those rows, not the year
  // again each (a year's night: about 9 M legs of 112k airframes, about ten batches). the log's rows
  // are picked before they are routed: DuckDB did not push the hex filter below the routing joins
  // of legs_routed, so every leg of the window was joined (bench/airframes-changed-legs.ts, the
  // year's 137,000 airframes of two days, 10.6 M legs, the same rows: 11.4-19.9 s against
  // 19.2-26.5 s in three rounds of four, 32.9 against 19.3 s in the other)
  const source = changed === null ? legs.view : 'af_legs';
  // what the batches are cut from: an increment's picked rows (the same hexes as the routed view's)
  let counted = source;
  if (changed !== null) {
    // the airframes heard before and untouched tonight: their legs in the window are the same rows.
    // kept first: their files the taken-over folder sets aside are what its writes below take
    // instead of new files (writer.ts spares)
    for await (const rows of streamRows<{ hex: string; digest: string }>(db, `SELECT hex, digest FROM af_prev WHERE digest <> '${UNHEARD}' AND hex NOT IN (SELECT hex FROM af_changed)`)) {
      for (const r of rows) {
        seen.add(r.hex);
        digests.push([r.hex, r.digest]);
        keep(ctx, r.hex);
        kept++;
      }
      ctx.progress.tick(rows.length);
      await ctx.writer.drain();
    }
    counted = await pickChangedLegs(db, legs.table, 'af_legs');
  }
  const perBatch = maxLegs ?? (changed === null ? LEGS_PER_BATCH : CHANGED_LEGS_PER_BATCH);
  let unreleased = 0;
  for (const [lo, hi] of await hexBatches(db, counted, perBatch)) {
    for await (const chunk of streamChunks(db, airframesSql(source, lo, hi))) {
      for (const r of hexRows(chunk)) {
        if (!/^[0-9a-f]{6}$/.test(r.hex)) continue;
        seen.add(r.hex);
        digests.push([r.hex, r.digest]);
        if (r.legs === null) {
          keep(ctx, r.hex);
          kept++;
        } else {
          unreleased += r.legs.byteLength;
          put(ctx, ref, r.hex, r.log, r.legs);
        }
      }
      ctx.progress.tick(chunk.rowCount);
      await ctx.writer.drain();
    }
    // the batches' chunks, read and written: their native memory freed now, not at V8's next collection
    if (unreleased >= RELEASE_AFTER_BYTES) {
      releaseReadChunks();
      unreleased = 0;
    }
  }
  if (unreleased > 0) releaseReadChunks();
  await dropChangedLegs(db, 'af_legs');
  // registry rows never heard: known airframes, not seen in the window (null legs when no log is loaded)
  const noLegs: [] | null = ctx.archiveThrough === null ? null : [];
  let n = 0;
  for (const row of ref.allRegistry()) {
    if (seen.has(row.hex)) continue;
    seen.add(row.hex);
    digests.push([row.hex, UNHEARD]);
    if (unheardBefore.has(row.hex)) {
      keep(ctx, row.hex);
      kept++;
    } else put(ctx, ref, row.hex, null, noLegs);
    if (++n % DRAIN_EVERY === 0) await ctx.writer.drain();
  }
  await saveDigests(ctx, db, legs, digests);
  ctx.progress.done(`${seen.size} airframes (${kept} unchanged since the previous build, kept unbuilt)`);
  return seen.size;
}
