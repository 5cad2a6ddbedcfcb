// small DuckDB adapters for the artifact builders: stream a query's rows in chunks (never the
// whole result in JS), and load reference tables the SQL joins against.
import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { DuckDBConnection, DuckDBDataChunk } from '@duckdb/node-api';
import type { RefAirports } from './context.ts';
import type { StepDeclaration } from './declaration.ts';
import type { RefView } from '../../artifacts/reference-view.ts';

type Row = Record<string, unknown>;

// BIGINT and HUGEINT arrive as bigint: counts and unix seconds fit a double exactly
function plain(v: unknown): unknown {
  if (typeof v === 'bigint') return Number(v);
  if (Array.isArray(v)) return v.map(plain);
  if (v !== null && typeof v === 'object' && !(v instanceof Date)) {
    const o: Row = {};
    for (const [k, x] of Object.entries(v)) o[k] = plain(x);
    return o;
  }
  return v;
}

/**
 * SQL: a nested value (a list, a struct) as its JSON text, for a column streamRows is told to parse
 * (`json`): node-api's own conversion of nested values took 1.9-2.4x as long as DuckDB's to_json
 * and a JSON.parse (bench/nested-rows.ts, lists of 30 structs, quiet machine).
 */
export const asJson = (expr: string) => `to_json(${expr})::VARCHAR`;

/**
 * The rows of `sql`, chunk by chunk (about 2,048 rows each), as plain JS objects; the columns named
 * in `json` hold JSON text (asJson) and arrive parsed.
 */
export async function* streamRows<T = Row>(db: DuckDBConnection, sql: string, json: readonly string[] = []): AsyncGenerator<T[]> {
  const result = await db.stream(sql);
  for await (const rows of result.yieldRowObjectJs()) {
    yield rows.map((r) => {
      const o = plain(r) as Row;
      for (const c of json) if (typeof o[c] === 'string') o[c] = JSON.parse(o[c]);
      return o as T;
    });
  }
}

/**
 * The chunks of `sql` as DuckDB hands them over (about 2,048 rows each), for a caller that reads
 * the column vectors itself: no row objects are made, and a BLOB column's values can be taken as
 * bytes (DuckDBBlobVector.getItemBytes) instead of strings.
 */
export async function* streamChunks(db: DuckDBConnection, sql: string): AsyncGenerator<DuckDBDataChunk> {
  const result = await db.stream(sql);
  for (;;) {
    const chunk = await result.fetchChunk();
    if (!chunk || chunk.rowCount === 0) return;
    yield chunk;
  }
}

let gc: (() => void) | null = null;

/**
 * Run V8's full collection now. A chunk (streamChunks) holds its data in DuckDB's native memory
 * until its JavaScript object is collected, and node-api does not tell V8 how large that memory is:
 * V8 sees small objects and collects rarely, so chunks already read pile up outside the heap (a
 * chunk of airframes is about 40 MB of legs' JSON). A caller that streams a large result calls this
 * between batches. The collector is taken from a fresh context with --expose-gc set at run time.
 */
export function releaseReadChunks(): void {
  if (!gc) {
    setFlagsFromString('--expose-gc');
    gc = runInNewContext('gc') as () => void;
  }
  gc();
}

/**
 * For a loop over a streamed result whose rows become garbage as it goes: call the returned
 * function after each chunk; it runs a full collection (releaseReadChunks) when V8's committed heap
 * has grown by `growth` bytes since the last one (or since the loop began), and otherwise costs a
 * look at the heap's size. A collection every N chunks instead cost as much where the heap had not
 * grown: its time grows with the live heap (two manifests on a night that reuses a build).
 */
export function collectOnHeapGrowth(
  growth = 512 * 2 ** 20,
  heapSize: () => number = () => getHeapStatistics().total_heap_size,
  collect: () => void = releaseReadChunks,
): () => void {
  let base = heapSize();
  return () => {
    if (heapSize() - base < growth) return;
    collect();
    base = heapSize();
  };
}

/** Every row of a small result (aggregates over reference-sized tables). */
export async function allRows<T = Row>(db: DuckDBConnection, sql: string): Promise<T[]> {
  const out: T[] = [];
  for await (const chunk of streamRows<T>(db, sql)) for (const r of chunk) out.push(r);
  return out;
}

/** how many rows a query gives */
export const countRows = async (db: DuckDBConnection, sql: string): Promise<number> =>
  Number((await allRows<{ n: number | bigint }>(db, `SELECT count(*) AS n FROM (${sql})`))[0]!.n);

export type ColumnType = 'VARCHAR' | 'DOUBLE' | 'INTEGER' | 'BOOLEAN';

/** (Re)create a temp table and fill it through the appender. */
export async function loadTable(
  db: DuckDBConnection,
  name: string,
  columns: readonly [string, ColumnType][],
  rows: Iterable<readonly (string | number | boolean | null)[]>,
): Promise<number> {
  await db.run(`CREATE OR REPLACE TEMP TABLE ${name} (${columns.map(([c, t]) => `${c} ${t}`).join(', ')})`);
  const app = await db.createAppender(name);
  let n = 0;
  for (const row of rows) {
    columns.forEach(([, type], i) => {
      const v = row[i];
      if (v === null || v === undefined) app.appendNull();
      else if (type === 'VARCHAR') app.appendVarchar(String(v));
      else if (type === 'INTEGER') app.appendInteger(Number(v));
      else if (type === 'BOOLEAN') app.appendBoolean(Boolean(v));
      else app.appendDouble(Number(v));
    });
    app.endRow();
    n++;
  }
  app.closeSync();
  return n;
}

/** the first step's declaration (declaration.ts): the reference airports, from the reference data alone */
export const REF_AIRPORTS_STEP = {
  name: 'reference airports',
  reads: [],
  makes: ['ref_airports'],
  saves: [],
  reuse: {},
} as const satisfies StepDeclaration;

/**
 * `ref_airports(ident, iata, tz, iso_country)`: every airport the log's idents can name, so SQL
 * turns idents into IATA codes and local times. Made once per build, first (pipeline.ts).
 */
export async function loadRefAirports(db: DuckDBConnection, ref: Pick<RefView, 'allAirports' | 'airport'>): Promise<RefAirports> {
  const rows = function* () {
    // one row per ident (the index's choice when the file repeats one), so joins never fan out
    const seen = new Set<string>();
    for (const { ident } of ref.allAirports()) {
      if (seen.has(ident)) continue;
      seen.add(ident);
      const a = ref.airport(ident)!;
      yield [a.ident, a.iata, a.tz, a.iso_country] as const;
    }
  };
  await loadTable(
    db,
    'ref_airports',
    [
      ['ident', 'VARCHAR'],
      ['iata', 'VARCHAR'],
      ['tz', 'VARCHAR'],
      ['iso_country', 'VARCHAR'],
    ],
    rows(),
  );
  return { table: 'ref_airports' };
}

/** SQL literal of a string (for values we control, e.g. an ISO day) */
export const sqlString = (s: string) => `'${s.replace(/'/g, "''")}'`;

/** SQL: rows `a` and `b` equal on `cols`, NULL equal to NULL (a missing end or type is a key value) */
export const sameKeys = (a: string, b: string, cols: readonly string[]): string => cols.map((c) => `${a}.${c} IS NOT DISTINCT FROM ${b}.${c}`).join(' AND ');

/** the columns of a view or table, null when there is none of that name */
export async function columnsOf(db: DuckDBConnection, name: string): Promise<Set<string> | null> {
  const found = await allRows<{ n: number }>(db, `SELECT count(*)::INTEGER AS n FROM duckdb_views() WHERE view_name = '${name}'`);
  const tables = await allRows<{ n: number }>(db, `SELECT count(*)::INTEGER AS n FROM duckdb_tables() WHERE table_name = '${name}'`);
  if (found[0]!.n + tables[0]!.n === 0) return null;
  return new Set((await allRows<{ column_name: string }>(db, `DESCRIBE ${name}`)).map((r) => r.column_name));
}
