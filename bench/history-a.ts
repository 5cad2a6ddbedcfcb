// benchmark (run by hand, never a test): routes, airframes and refdata builders over a seeded
// synthetic log. usage: node --import tsx bench/history-a.ts [legs=1000000] [airframes=20000]
// prints wall time and peak RSS per builder.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { loadRefdata } from '../lib/refdata/index.ts';
import { ArtifactWriter } from '../build/publish/writer.ts';
import { silentProgress, type BuildContext } from '../build/artifacts/context.ts';
import { buildRoutes } from '../build/artifacts/routes.ts';
import { buildAirframes } from '../build/artifacts/airframes.ts';
import { buildRefdata } from '../build/artifacts/refdata.ts';

const LEGS = Number(process.argv[2] ?? 1_000_000);
const AIRFRAMES = Number(process.argv[3] ?? 20_000);
const dir = mkdtempSync(join(tmpdir(), 'contrail-bench-'));
const ref = await loadRefdata();
const idents = ref.airports.all.filter((a) => a.iata && a.kind !== 'closed').map((a) => a.ident);
const airlines = ref.airlines.all.filter((a) => a.iata).map((a) => a.icao).slice(0, 500);
const db = await (await DuckDBInstance.create(':memory:')).connect();
await db.run(`SET threads = 2`);
// seeded: duckdb's random() after setseed is deterministic for a single thread; hashes are deterministic anyway
await db.run(`CREATE TABLE ap AS SELECT ident, row_number() OVER () - 1 AS i FROM (SELECT unnest(${JSON.stringify(idents).replace(/"/g, "'")}) AS ident)`);
await db.run(`CREATE TABLE al AS SELECT icao, row_number() OVER () - 1 AS i FROM (SELECT unnest(${JSON.stringify(airlines).replace(/"/g, "'")}) AS icao)`);
const t0 = Date.now();
await db.run(`CREATE TABLE legs AS
WITH r AS (SELECT range AS n, hash(range) AS h FROM range(${LEGS}))
SELECT printf('%06x', (h % ${AIRFRAMES}) * 97 % 16777216) AS hex,
  (SELECT icao FROM al WHERE al.i = (h % ${AIRFRAMES}) % ${airlines.length}) || ((h // 7) % 2000)::VARCHAR AS callsign,
  NULL::VARCHAR AS reg, 'A320' AS type,
  (1717200000 + (n % 365) * 86400 + (h // 11) % 86400)::BIGINT AS first_ts,
  (1717200000 + (n % 365) * 86400 + (h // 11) % 86400 + 7200)::BIGINT AS last_ts,
  CASE WHEN h % 5 > 0 THEN (1717200000 + (n % 365) * 86400 + (h // 11) % 86400 + 300)::BIGINT END AS dep_ts,
  CASE WHEN h % 3 > 0 THEN (1717200000 + (n % 365) * 86400 + (h // 11) % 86400 + 6900)::BIGINT END AS arr_ts,
  CASE WHEN h % 5 > 0 THEN (SELECT ident FROM ap WHERE ap.i = ((h // 7) % 2000 * 31 + h % 13) % ${idents.length}) END AS org,
  CASE WHEN h % 3 > 0 THEN (SELECT ident FROM ap WHERE ap.i = ((h // 7) % 2000 * 17 + 5) % ${idents.length}) END AS dst,
  CAST(to_timestamp(1717200000 + (n % 365) * 86400) AT TIME ZONE 'UTC' AS DATE) AS day
FROM r`);
console.log(`generated ${LEGS} legs in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
const ctx: BuildContext = {
  db, refdata: ref, writer: new ArtifactWriter(join(dir, 'v'), null), archiveThrough: '2025-05-31', windowStart: '2024-06-01',
  windowDays: 365, timetablesDir: null, nowMs: Date.UTC(2025, 5, 1), progress: silentProgress, counts: {}, shared: new Map(),
};
let peak = 0;
const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 200);
for (const [name, b] of [['routes', buildRoutes], ['airframes', buildAirframes], ['refdata', buildRefdata]] as const) {
  const s = Date.now();
  await b(ctx);
  peak = Math.max(peak, process.memoryUsage().rss);
  console.log(`${name}: ${((Date.now() - s) / 1000).toFixed(1)} s, peak rss ${(peak / 2 ** 30).toFixed(2)} GB`);
}
clearInterval(timer);
console.log(JSON.stringify(ctx.counts), ctx.writer.stats);
rmSync(dir, { recursive: true, force: true });
