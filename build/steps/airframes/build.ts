// builder: one v1/airframes/<hex> per airframe heard in the window (and per registry row never
// heard, with legs []), plus v1/refdata/aircraft/<hex> where reg or type is known. DuckDB does the
// work per batch of hexes (bounded memory): the newest 200 legs as one JSON string per hex, the
// majority callsign prefix, the latest reg/type heard (airframes/sql.ts). needs `legs_routed`
// (routes builder). a night that reuses the previous build keeps the airframes airframes/changed.ts
// does not name, makes most of those it names from their previous documents (airframes/fold.ts),
// and aggregates only the rest.
import { join } from 'node:path';
import type { DuckDBBlobVector, DuckDBConnection, DuckDBDataChunk, DuckDBVarCharVector } from '@duckdb/node-api';
import type { BuildContext, RoutedLegs } from '../context.ts';
import type { LogIdentity } from '../../../artifacts/airframe-doc.ts';
import { allRows, releaseReadChunks, streamChunks, streamRows } from '../duck.ts';
import { changedAirframes } from './changed.ts';
import { saveState } from '../state.ts';
import { legsRoutedSql } from '../routes/legs-routed.ts';
import { airframesSql, hexBatches, operatorCountsSql } from './sql.ts';
import { loadPreviousState, saveAirframeState, type AirframeRow } from './state.ts';
import { AIRFRAMES_STEP, ROUTES_STATE } from './step.ts';
import type { Reuse } from '../declaration.ts';
import { dropFold, foldAirframes, spliceAirframes, splicedOpsSql, splicedStateSql } from './fold.ts';
import { keepAirframe, putAirframe } from './write.ts';

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
 * airframes of a day, in about the same time (bench/airframes-batches.ts, docs/perf-log/nightly-steady-state.md, night 6: the airframes' peak)
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
 * the rows of airframesSql, column by column: the legs arrive as bytes (BLOB), so their ~19 KB of
 * JSON never become a JavaScript string (null: unchanged since the previous build, kept)
 */
function* hexRows(chunk: DuckDBDataChunk): Generator<{ log: LogIdentity; row: AirframeRow; legs: Uint8Array | null }> {
  const v = (i: number) => chunk.getColumnVector(i);
  const text = (i: number) => v(i) as DuckDBVarCharVector;
  const [hex, reg, type, operator, n, legsum, regTs, typeTs] = [text(0), text(1), text(2), text(3), v(4), text(5), v(6), v(7)];
  const legs = v(8) as DuckDBBlobVector;
  const num = (x: unknown) => (x === null ? null : Number(x));
  for (let i = 0; i < chunk.rowCount; i++) {
    const log = { reg: reg.getItem(i), type: type.getItem(i), operator_icao: operator.getItem(i) };
    const row: AirframeRow = [
      hex.getItem(i)!,
      Number(n.getItem(i)),
      legsum.getItem(i),
      log.reg,
      num(regTs.getItem(i)),
      log.type,
      num(typeTs.getItem(i)),
      log.operator_icao,
    ];
    yield { log, row, legs: legs.getItemBytes(i) };
  }
}

/**
 * The temp table `<into>_log`: the window's log rows of the airframes in `hexes`; and the view
 * `into`: those rows routed with the routes table `routes` (legsRoutedSql), the rows legs_routed
 * gives them. picked first, then routed: DuckDB did not push the hex filter below the routing joins.
 * the picked rows are held as the log has them and routed batch by batch as they are read: routed
 * into a table they took DuckDB to 2.46 against 2.26 GiB (batches of 2 M; 1.74 GiB now, 1 M), and
 * picking them took 7.9-8.2 against 5.4-5.6 s, a little more than the batches' routing now costs
 * (bench/airframes-batches.ts). Returns the table's name; dropChangedLegs drops both.
 */
export async function pickChangedLegs(db: DuckDBConnection, routes: string, into: string, hexes = 'af_full'): Promise<string> {
  const log = `${into}_log`;
  await db.run(`CREATE OR REPLACE TEMP TABLE ${log} AS SELECT * FROM legs WHERE hex IN (SELECT hex FROM ${hexes})`);
  await db.run(legsRoutedSql(into, log, routes));
  return log;
}

export async function dropChangedLegs(db: DuckDBConnection, into: string): Promise<void> {
  await db.run(`DROP VIEW IF EXISTS ${into}`);
  await db.run(`DROP TABLE IF EXISTS ${into}_log`);
}

/**
 * `maxLegs`: legs per batch (default LEGS_PER_BATCH for the window's log, CHANGED_LEGS_PER_BATCH for
 * an increment's picked legs); `rules`: how the step reuses the previous build (its declaration, step.ts)
 */
export async function buildAirframes(
  ctx: BuildContext,
  legs: RoutedLegs,
  db: DuckDBConnection = ctx.db,
  maxLegs?: number,
  rules: { documents: Reuse; increment: Reuse } = AIRFRAMES_STEP.reuse,
): Promise<number> {
  const seen = new Set<string>();
  const rows: AirframeRow[] = [];
  const hasPrevious = await loadPreviousState(ctx, db, rules.documents);
  const unheardBefore = new Set((await allRows<{ hex: string }>(db, `SELECT hex FROM af_prev WHERE legs = 0`)).map((r) => r.hex));
  let kept = 0;
  // an increment: only the airframes whose legs can have changed are made (airframes/changed.ts),
  // most of them from their previous documents (airframes/fold.ts), the rest from all their legs
  const changed = hasPrevious ? await changedAirframes(ctx, db, legs, rules.increment) : null;
  const spliceable = changed === null ? null : await foldAirframes(ctx, db, rules.increment);
  ctx.progress.start(
    changed === null
      ? 'airframes'
      : `airframes (${changed} with legs in the ${ctx.logDays!.added.length} new and ${ctx.logDays!.dropped.length} dropped days or a changed route)`,
    0,
  );
  // an increment's airframes have legs all over the hex space, so no row group can be skipped:
  // their legs are read out of the window once, and the batches read those rows, not the year
  // again each. the log's rows are picked before they are routed: DuckDB did not push the hex
  // filter below the routing joins of legs_routed, so every leg of the window was joined
  // (bench/airframes-changed-legs.ts, the year's 137,000 airframes of two days, 10.6 M legs, the
  // same rows: 11.4-19.9 s against 19.2-26.5 s in three rounds of four, 32.9 against 19.3 s in the other)
  const source = changed === null ? legs.view : 'af_legs';
  // what the batches are cut from, and the operators counted from: the log's rows of their airframes
  let counted = 'legs';
  let spliced = 0;
  if (changed !== null) {
    // the airframes heard before and untouched tonight: their legs in the window are the same rows.
    // kept first: their files the taken-over folder sets aside are what its writes below take
    // instead of new files (writer.ts spares)
    for await (const chunk of streamRows<{ hex: string }>(db, `SELECT hex FROM af_prev WHERE legs > 0 AND hex NOT IN (SELECT hex FROM af_changed)`)) {
      for (const r of chunk) {
        seen.add(r.hex);
        keepAirframe(ctx, r.hex);
        kept++;
      }
      ctx.progress.tick(chunk.length);
      await ctx.writer.drain();
    }
    if (spliceable !== null) {
      const s = await spliceAirframes(ctx, db, seen, (n) => ctx.progress.tick(n));
      spliced = s.spliced;
      kept += s.kept;
    }
    counted = await pickChangedLegs(db, legs.table, 'af_legs');
  }
  await db.run(`CREATE OR REPLACE TEMP TABLE af_ops AS ${operatorCountsSql(counted)}`);
  const perBatch = maxLegs ?? (changed === null ? LEGS_PER_BATCH : CHANGED_LEGS_PER_BATCH);
  let unreleased = 0;
  for (const [lo, hi] of await hexBatches(db, counted, perBatch)) {
    for await (const chunk of streamChunks(db, airframesSql(source, lo, hi))) {
      for (const r of hexRows(chunk)) {
        const hex = r.row[0];
        seen.add(hex);
        rows.push(r.row);
        if (r.legs === null) {
          keepAirframe(ctx, hex);
          kept++;
        } else {
          unreleased += r.legs.byteLength;
          putAirframe(ctx, hex, r.log, r.legs);
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
  for (const row of ctx.ref.allRegistry()) {
    if (seen.has(row.hex)) continue;
    seen.add(row.hex);
    rows.push([row.hex, 0, null, null, null, null, null, null]);
    if (unheardBefore.has(row.hex)) {
      keepAirframe(ctx, row.hex);
      kept++;
    } else putAirframe(ctx, row.hex, null, noLegs);
    if (++n % DRAIN_EVERY === 0) await ctx.writer.drain();
  }
  // the state for the next night: the rows aggregated here, the kept and spliced ones as they are
  const untouched = `hex NOT IN (SELECT hex FROM af_changed)`;
  const extra = changed === null ? null : `SELECT * FROM af_prev WHERE legs > 0 AND ${untouched}${spliceable === null ? '' : ` UNION ALL ${splicedStateSql}`}`;
  const ops =
    changed === null
      ? `SELECT * FROM af_ops`
      : `SELECT * FROM af_prev_ops WHERE ${untouched}${spliceable === null ? '' : ` UNION ALL ${splicedOpsSql}`} UNION ALL SELECT * FROM af_ops`;
  await saveAirframeState(ctx, db, rows, extra, ops);
  await saveState(db, `SELECT * FROM ${legs.table}`, join(ctx.writer.dir, ROUTES_STATE));
  for (const t of ['af_prev', 'af_prev_ops', 'af_changed', 'af_ops']) await db.run(`DROP TABLE IF EXISTS ${t}`);
  await dropFold(db);
  ctx.progress.done(
    `${seen.size} airframes (${kept} unchanged since the previous build, kept unbuilt${changed === null ? '' : `; ${spliced} made from their previous documents`})`,
  );
  return seen.size;
}
