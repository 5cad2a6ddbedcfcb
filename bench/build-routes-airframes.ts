// benchmark (run by hand, never a test): routes, airframes and refdata builders over a seeded
// synthetic log. usage: node --import tsx bench/build-routes-airframes.ts [legs=1000000] [airframes=20000]
// prints wall time and peak RSS per builder.
import './help.ts';
import { silentProgress } from '../build/progress.ts';
import { buildRoutes } from '../build/steps/routes/build.ts';
import { loadRefAirports } from '../build/steps/duck.ts';
import { buildAirframes } from '../build/steps/airframes/build.ts';
import { buildRefdata } from '../build/steps/refdata/build.ts';
import { buildAirlines } from '../build/steps/airlines/build.ts';
import { buildSchedules } from '../build/steps/schedules/build.ts';
import { AIRFRAMES, LEGS, benchBuilders, sqlList } from './build-harness.ts';

// hashes are deterministic, so every run generates the same log
await benchBuilders(
  ({ idents, airlines }) => `
WITH r AS (SELECT range AS n, hash(range) AS h FROM range(${LEGS}))
SELECT printf('%06x', (h % ${AIRFRAMES}) * 97 % 16777216) AS hex,
  ${sqlList(airlines)}[(1 + (h % ${AIRFRAMES}) % ${airlines.length})::BIGINT] || ((h // 7) % 2000)::VARCHAR AS callsign,
  NULL::VARCHAR AS reg, 'A320' AS type,
  (1717200000 + (n % 365) * 86400 + (h // 11) % 86400)::BIGINT AS first_ts,
  (1717200000 + (n % 365) * 86400 + (h // 11) % 86400 + 7200)::BIGINT AS last_ts,
  CASE WHEN h % 5 > 0 THEN (1717200000 + (n % 365) * 86400 + (h // 11) % 86400 + 300)::BIGINT END AS dep_ts,
  CASE WHEN h % 3 > 0 THEN (1717200000 + (n % 365) * 86400 + (h // 11) % 86400 + 6900)::BIGINT END AS arr_ts,
  CASE WHEN h % 5 > 0 THEN ${sqlList(idents)}[(1 + ((h // 7) % 2000 * 31 + h % 13) % ${idents.length})::BIGINT] END AS org,
  CASE WHEN h % 3 > 0 THEN ${sqlList(idents)}[(1 + ((h // 7) % 2000 * 17 + 5) % ${idents.length})::BIGINT] END AS dst,
  CAST(to_timestamp(1717200000 + (n % 365) * 86400) AT TIME ZONE 'UTC' AS DATE) AS day
FROM r`,
  async (ctx, timed) => {
    const airports = await timed('reference airports', () => loadRefAirports(ctx.db, ctx.ref));
    const routes = await timed('routes', () => buildRoutes(ctx, airports));
    await timed('airframes', () => buildAirframes(ctx, routes.legs));
    await timed('refdata', async () => {
      await buildRefdata(ctx);
      await buildAirlines(ctx, routes.legs);
      await buildSchedules(ctx, routes.legs);
    });
  },
  silentProgress,
);
