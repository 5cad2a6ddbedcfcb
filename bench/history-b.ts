// benchmark (run by hand, never a test): airport and alliance builders over a seeded synthetic
// log shaped like a schedule (a callsign keeps its origin, destination and time of day, with
// jitter, so boards form). usage: node --import tsx bench/history-b.ts [legs=1000000] [airframes=20000]
// prints wall time and peak RSS per builder.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { loadRefdata } from '../lib/refdata/index.ts';
import { ArtifactWriter } from '../build/publish/writer.ts';
import { type BuildContext, type Progress } from '../build/artifacts/context.ts';
import { buildAirports } from '../build/artifacts/airports.ts';
import { buildAlliances } from '../build/artifacts/alliances.ts';

const LEGS = Number(process.argv[2] ?? 1_000_000);
const AIRFRAMES = Number(process.argv[3] ?? 20_000);
const dir = mkdtempSync(join(tmpdir(), 'contrail-bench-'));
const ref = await loadRefdata();
const idents = ref.airports.all.filter((a) => a.iata && a.kind !== 'closed').map((a) => a.ident);
const airlines = ref.airlines.all.filter((a) => a.iata).map((a) => a.icao).slice(0, 500);
const db = await (await DuckDBInstance.create(':memory:')).connect();
await db.run(`SET threads = 2`);
const list = (xs: string[]) => `[${xs.map((x) => `'${x}'`).join(',')}]`;
const t0 = Date.now();
// flight f = n % FLIGHTS: fixed airline, number, org, dst and slot; day = n // FLIGHTS; hashes are deterministic
const FLIGHTS = Math.max(1, Math.floor(LEGS / 365));
await db.run(`CREATE TABLE legs AS
WITH r AS (SELECT range AS n, range % ${FLIGHTS} AS f, range // ${FLIGHTS} AS d, hash(range) AS h FROM range(${LEGS})),
k AS (SELECT *, hash(f) AS hf, 1717200000 + d * 86400 + (hash(f) // 3) % 86400 + (h % 1200)::BIGINT - 600 AS t FROM r)
SELECT printf('%06x', (h % ${AIRFRAMES}) * 97 % 16777216) AS hex,
  ${list(airlines)}[(1 + hf % ${airlines.length})::BIGINT] || (1 + (hf // 1000) % 9000)::VARCHAR AS callsign,
  NULL::VARCHAR AS reg, 'A320' AS type, t - 600 AS first_ts, t + 7200 AS last_ts,
  CASE WHEN h % 5 > 0 THEN t END AS dep_ts, CASE WHEN h % 3 > 0 THEN t + 6600 END AS arr_ts,
  CASE WHEN h % 5 > 0 THEN ${list(idents)}[(1 + (hf // 7) % ${idents.length})::BIGINT] END AS org,
  CASE WHEN h % 3 > 0 THEN ${list(idents)}[(1 + (hf // 13) % ${idents.length})::BIGINT] END AS dst,
  CAST(to_timestamp(1717200000 + d * 86400) AT TIME ZONE 'UTC' AS DATE) AS day
FROM k`);
console.log(`generated ${LEGS} legs in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
let stepStart = 0;
const timedProgress: Progress = { start: () => (stepStart = Date.now()), tick() {}, done: (s) => console.log(`  ${((Date.now() - stepStart) / 1000).toFixed(1)} s: ${s}`) };
const ctx: BuildContext = {
  db, refdata: ref, writer: new ArtifactWriter(join(dir, 'v'), null), archiveThrough: '2025-05-31', windowStart: '2024-06-01',
  windowDays: 365, timetablesDir: null, nowMs: Date.UTC(2025, 5, 1), progress: timedProgress, counts: {}, shared: new Map(),
};
let peak = 0;
const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 200);
for (const [name, b] of [['airports', buildAirports], ['alliances', buildAlliances]] as const) {
  const s = Date.now();
  await b(ctx);
  peak = Math.max(peak, process.memoryUsage().rss);
  console.log(`${name}: ${((Date.now() - s) / 1000).toFixed(1)} s, peak rss ${(peak / 2 ** 30).toFixed(2)} GB`);
}
clearInterval(timer);
console.log(JSON.stringify(ctx.counts), ctx.writer.stats);
rmSync(dir, { recursive: true, force: true });
