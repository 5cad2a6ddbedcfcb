// builder: one v1/airframes/<hex> per airframe heard in the window (and per registry row never
// heard, with legs []), plus v1/refdata/aircraft/<hex> where reg or type is known. DuckDB does the
// work per batch of hexes (bounded memory): the newest 200 legs as one JSON string per hex, the
// majority callsign prefix, the latest reg/type heard. needs `legs_routed` (routes builder).
import type { DuckDBConnection } from '@duckdb/node-api';
import type { Builder, BuildContext } from './context.ts';
import { keys } from '../../artifacts/keys.ts';
import { MAX_LEGS, airframeDoc, airframeIdentity, type AirframeLeg, type LogIdentity } from '../../artifacts/airframe.ts';
import { refAircraftDoc } from '../../artifacts/refdata.ts';
import type { RefView } from '../../artifacts/refview.ts';
import { sqlString, streamRows } from './duck.ts';
import { refViewFor } from './refview.ts';

/** hex ranges processed one at a time: 16 = by first hex digit */
export const HEX_BATCHES = 16;

function batchBounds(i: number, n: number): [string, string | null] {
  const lo = Math.floor((i * 0x1000000) / n).toString(16).padStart(6, '0');
  const hi = i + 1 < n ? Math.floor(((i + 1) * 0x1000000) / n).toString(16).padStart(6, '0') : null;
  return [lo, hi];
}

export function airframesSql(lo: string, hi: string | null): string {
  const where = `hex >= ${sqlString(lo)}${hi ? ` AND hex < ${sqlString(hi)}` : ''}`;
  return `
WITH b AS (SELECT * FROM legs_routed WHERE ${where}),
ops AS (
  SELECT hex, arg_max(p, (n, t)) AS operator_icao FROM (
    SELECT hex, substr(callsign, 1, 3) AS p, count(*) AS n, max(last_ts) AS t FROM b
    WHERE regexp_full_match(callsign, '[A-Z]{3}[0-9][A-Z0-9]{0,4}') GROUP BY hex, p)
  GROUP BY hex),
ids AS (
  SELECT hex, arg_max(reg, last_ts) FILTER (WHERE reg IS NOT NULL AND reg <> '') AS reg,
         arg_max(upper(type), last_ts) FILTER (WHERE type IS NOT NULL AND type <> '') AS type
  FROM b GROUP BY hex),
lg AS (
  SELECT hex, to_json(list({
    date: CAST(CAST(to_timestamp(coalesce(dep_ts, first_ts)) AT TIME ZONE 'UTC' AS DATE) AS VARCHAR),
    org: org, dst: dst, org_ident: org_ident, dst_ident: dst_ident, callsign: callsign,
    dep: dep_ts, arr: arr_ts, first_seen: first_ts, last_seen: last_ts,
    route_source: route_source, table_source: table_source
  } ORDER BY first_ts DESC, last_ts DESC))::VARCHAR AS legs
  FROM (SELECT * FROM b QUALIFY row_number() OVER (PARTITION BY hex ORDER BY first_ts DESC, last_ts DESC) <= ${MAX_LEGS})
  GROUP BY hex)
SELECT ids.hex, ids.reg, ids.type, ops.operator_icao, lg.legs
FROM ids JOIN lg USING (hex) LEFT JOIN ops USING (hex)`;
}

interface HexRow extends LogIdentity {
  hex: string;
  legs: string;
}

function put(ctx: BuildContext, ref: RefView, hex: string, log: LogIdentity | null, legs: AirframeLeg[] | null): void {
  const id = airframeIdentity(hex, log, ref);
  ctx.writer.put(keys.airframe(hex), airframeDoc(id, legs), 'airframe');
  ctx.counts.airframes = (ctx.counts.airframes ?? 0) + 1;
  if (id.reg || id.type) {
    ctx.writer.put(keys.refAircraft(hex), refAircraftDoc(id), 'refdata-aircraft');
    ctx.counts['refdata.aircraft'] = (ctx.counts['refdata.aircraft'] ?? 0) + 1;
  }
}

export async function writeAirframes(ctx: BuildContext, db: DuckDBConnection = ctx.db, batches = HEX_BATCHES): Promise<number> {
  const ref = refViewFor(ctx);
  const seen = new Set<string>();
  ctx.progress.start('airframes', 0);
  for (let i = 0; i < batches; i++) {
    const [lo, hi] = batchBounds(i, batches);
    for await (const rows of streamRows<HexRow>(db, airframesSql(lo, hi))) {
      for (const r of rows) {
        if (!/^[0-9a-f]{6}$/.test(r.hex)) continue;
        seen.add(r.hex);
        put(ctx, ref, r.hex, r, JSON.parse(r.legs) as AirframeLeg[]);
      }
      ctx.progress.tick(rows.length);
    }
  }
  // registry rows never heard: known airframes, not seen in the window (null legs when no log is loaded)
  const noLegs = ctx.archiveThrough === null ? null : [];
  for (const row of ref.allRegistry()) {
    if (seen.has(row.hex)) continue;
    seen.add(row.hex);
    put(ctx, ref, row.hex, null, noLegs);
  }
  ctx.progress.done(`${seen.size} airframes`);
  return seen.size;
}

export const buildAirframes: Builder = async (ctx) => {
  await writeAirframes(ctx);
};
