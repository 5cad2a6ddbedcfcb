// benchmark (run by hand, never a test): reading nested DuckDB values (lists of structs) into
// JavaScript, as the schedules step (each route's slots and callsigns) and the airports' boards
// (each (airport, callsign) group's legs) do: node-api's own conversion (streamRows of the list
// itself) against DuckDB's to_json and a JSON.parse (asJson + streamRows' `json` columns, what the
// steps use since 2026-11-26). Rows alternate between the two paths within each round; both must
// give the same objects (checked on every row of the first round).
// usage: npx tsx bench/nested-rows.ts [--rows 60000] [--items 30] [--runs 3] [--threads 2]
import './help.ts';
import { isDeepStrictEqual } from 'node:util';
import { DuckDBInstance } from '@duckdb/node-api';
import { asJson, streamRows } from '../build/steps/duck.ts';
import { numberFlag } from './flags.ts';

const ROWS = numberFlag('rows', 60_000);
const ITEMS = numberFlag('items', 30);
const RUNS = numberFlag('runs', 3);
const THREADS = numberFlag('threads', 2);

const db = await (await DuckDBInstance.create(':memory:', { threads: String(THREADS) })).connect();
// the two shapes, with values drawn by a fixed formula of (row, item): the same table every run
await db.run(`CREATE TABLE shapes AS SELECT i AS id,
  list({dep: lpad(((i + j) % 24)::VARCHAR, 2, '0') || ':' || lpad(((i * j) % 12 * 5)::VARCHAR, 2, '0'), flights: ((i * 7 + j) % 13 + 1)::INTEGER}) AS slots,
  list({"at": (1764115200 + i * 60 + j * 86400)::DOUBLE, "other": CASE WHEN j % 5 = 0 THEN NULL ELSE (1764118800 + i * 60 + j * 86400)::DOUBLE END,
        "end": CASE WHEN j % 7 = 0 THEN NULL ELSE chr((65 + j % 26)::INTEGER) || chr((65 + i % 26)::INTEGER) || 'X' END, "type": CASE WHEN j % 3 = 0 THEN NULL ELSE 'A32' || (j % 10)::VARCHAR END}) AS legs
  FROM range(${ROWS}) r(i), range(${ITEMS}) s(j) GROUP BY i ORDER BY i`);

async function read(column: string, json: boolean): Promise<{ ms: number; rows: unknown[] }> {
  const t0 = performance.now();
  const rows: unknown[] = [];
  const sql = `SELECT id, ${json ? asJson(column) : column} AS v FROM shapes ORDER BY id`;
  for await (const chunk of streamRows<{ v: unknown }>(db, sql, json ? ['v'] : [])) for (const r of chunk) rows.push(r.v);
  return { ms: performance.now() - t0, rows };
}

console.log(`${ROWS} rows of ${ITEMS} structs each, DuckDB threads ${THREADS}, node ${process.version}`);
for (let round = 0; round < RUNS; round++) {
  for (const column of ['slots', 'legs']) {
    const order = round % 2 === 0 ? [false, true] : [true, false];
    const out: Record<string, { ms: number; rows: unknown[] }> = {};
    for (const json of order) out[json ? 'json' : 'node'] = await read(column, json);
    if (round === 0 && !isDeepStrictEqual(out.node!.rows, out.json!.rows)) throw new Error(`${column}: the two paths gave different rows`);
    const rate = (ms: number) => Math.round(ROWS / (ms / 1000)).toLocaleString('en');
    console.log(
      `round ${round + 1} ${column.padEnd(5)} node-api objects ${out.node!.ms.toFixed(0)} ms (${rate(out.node!.ms)} rows/s), to_json + JSON.parse ${out.json!.ms.toFixed(0)} ms (${rate(out.json!.ms)} rows/s): ${(out.node!.ms / out.json!.ms).toFixed(2)}x`,
    );
  }
}
