// what a version records of its airframes for the next night (state/): per airframe, what its
// document's log part was made of (legs in the window, the order-free digest of their texts, the
// latest reg and type heard and when, the operator), and per (airframe, callsign prefix) the counts
// the operator is chosen from. a night keeps an untouched airframe's row as it is and folds a day
// into a touched one (airframes/fold.ts); a full build writes every row from the window's legs. the
// rows must be the same either way (test/build/nightly-increment.slow.test.ts compares them).
import { join } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import type { BuildContext } from '../context.ts';
import type { Reuse } from '../declaration.ts';
import { loadTable, sqlString, type ColumnType } from '../duck.ts';
import { previousFor } from '../reuse.ts';
import { saveState } from '../state.ts';
import { AIRFRAMES_STEP, AIRFRAME_STATE, OPERATOR_STATE } from './step.ts';

/** one airframe's row, as the step collects it from the batches (legsum as text: a UBIGINT) */
export type AirframeRow = [
  hex: string,
  legs: number,
  legsum: string | null,
  reg: string | null,
  regTs: number | null,
  type: string | null,
  typeTs: number | null,
  operator: string | null,
];

const COLUMNS: [string, ColumnType][] = [
  ['hex', 'VARCHAR'],
  ['legs', 'INTEGER'],
  ['legsum', 'VARCHAR'],
  ['reg', 'VARCHAR'],
  ['reg_ts', 'DOUBLE'],
  ['type', 'VARCHAR'],
  ['type_ts', 'DOUBLE'],
  ['operator_icao', 'VARCHAR'],
];
/** the state's columns and types, from a table of COLUMNS */
const TYPED = `hex, legs, legsum::UBIGINT AS legsum, reg, reg_ts::BIGINT AS reg_ts, type, type_ts::BIGINT AS type_ts, operator_icao`;

/**
 * `af_prev` (AIRFRAME_STATE's columns) and `af_prev_ops` (OPERATOR_STATE's): the previous build's
 * rows when the step's rule (step.ts, reuse.documents) may read them, else empty tables. true when they were read.
 */
export async function loadPreviousState(ctx: BuildContext, db: DuckDBConnection, rule: Reuse = AIRFRAMES_STEP.reuse.documents): Promise<boolean> {
  const previous = previousFor(ctx, rule);
  if ('dir' in previous) {
    const [file, ops] = [AIRFRAME_STATE, OPERATOR_STATE].map((f) => join(previous.dir, f));
    await db.run(`CREATE OR REPLACE TEMP TABLE af_prev AS SELECT * FROM read_parquet(${sqlString(file)})`);
    await db.run(`CREATE OR REPLACE TEMP TABLE af_prev_ops AS SELECT * FROM read_parquet(${sqlString(ops)})`);
    return true;
  }
  await db.run(`CREATE OR REPLACE TEMP TABLE af_prev AS SELECT ${TYPED} FROM (SELECT ${COLUMNS.map(([c, t]) => `NULL::${t} AS ${c}`).join(', ')}) WHERE false`);
  await db.run(`CREATE OR REPLACE TEMP TABLE af_prev_ops (hex VARCHAR, p VARCHAR, n BIGINT, t BIGINT)`);
  return false;
}

/**
 * Write the state of this build: `rows` (the airframes the step aggregated, and the registry's
 * never heard), plus `extraSql` (rows in AIRFRAME_STATE's columns: the airframes a night kept or
 * spliced), and the operator counts `opsSql` (OPERATOR_STATE's columns).
 */
export async function saveAirframeState(
  ctx: BuildContext,
  db: DuckDBConnection,
  rows: Iterable<AirframeRow>,
  extraSql: string | null,
  opsSql: string,
): Promise<void> {
  await loadTable(db, 'af_built', COLUMNS, rows);
  await ctx.writer.readyForFiles();
  const all = `SELECT ${TYPED} FROM af_built${extraSql ? ` UNION ALL ${extraSql}` : ''}`;
  await saveState(db, `${all} ORDER BY hex`, join(ctx.writer.dir, AIRFRAME_STATE));
  await saveState(db, `${opsSql} ORDER BY hex, p`, join(ctx.writer.dir, OPERATOR_STATE));
  await db.run(`DROP TABLE af_built`);
}
