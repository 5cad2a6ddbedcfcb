// benchmark (run by hand, never a test): airport and alliance builders over a seeded synthetic
// log shaped like a schedule (a callsign keeps its origin, destination and time of day, with
// jitter, so boards form). usage: node --import tsx bench/build-airports-alliances.ts [legs=1000000] [airframes=20000]
// prints wall time and peak RSS per builder.
import './help.ts';
import type { Progress } from '../build/progress.ts';
import { buildAirports } from '../build/steps/airports/build.ts';
import { buildAlliances } from '../build/steps/alliances/build.ts';
import { loadRefAirports } from '../build/steps/duck.ts';
import { AIRFRAMES, LEGS, benchBuilders, sqlList } from './build-harness.ts';

// flight f = n % FLIGHTS: fixed airline, number, org, dst and slot; day = n // FLIGHTS; hashes are deterministic
const FLIGHTS = Math.max(1, Math.floor(LEGS / 365));
let stepStart = 0;
const timedProgress: Progress = {
  start: () => (stepStart = Date.now()),
  tick() {},
  done: (s) => console.log(`  ${((Date.now() - stepStart) / 1000).toFixed(1)} s: ${s}`),
};

await benchBuilders(
  ({ idents, airlines }) => `
WITH r AS (SELECT range AS n, range % ${FLIGHTS} AS f, range // ${FLIGHTS} AS d, hash(range) AS h FROM range(${LEGS})),
k AS (SELECT *, hash(f) AS hf, 1717200000 + d * 86400 + (hash(f) // 3) % 86400 + (h % 1200)::BIGINT - 600 AS t FROM r)
SELECT printf('%06x', (h % ${AIRFRAMES}) * 97 % 16777216) AS hex,
  ${sqlList(airlines)}[(1 + hf % ${airlines.length})::BIGINT] || (1 + (hf // 1000) % 9000)::VARCHAR AS callsign,
  NULL::VARCHAR AS reg, 'A320' AS type, t - 600 AS first_ts, t + 7200 AS last_ts,
  CASE WHEN h % 5 > 0 THEN t END AS dep_ts, CASE WHEN h % 3 > 0 THEN t + 6600 END AS arr_ts,
  CASE WHEN h % 5 > 0 THEN ${sqlList(idents)}[(1 + (hf // 7) % ${idents.length})::BIGINT] END AS org,
  CASE WHEN h % 3 > 0 THEN ${sqlList(idents)}[(1 + (hf // 13) % ${idents.length})::BIGINT] END AS dst,
  CAST(to_timestamp(1717200000 + d * 86400) AT TIME ZONE 'UTC' AS DATE) AS day
FROM k`,
  async (ctx, timed) => {
    const airports = await timed('reference airports', () => loadRefAirports(ctx.db, ctx.ref));
    // no routes table: boards show callsigns without a served route, as on a log the catalog does not cover
    await timed('airports', () => buildAirports(ctx, new Map(), airports));
    await timed('alliances', () => buildAlliances(ctx, airports));
  },
  timedProgress,
);
