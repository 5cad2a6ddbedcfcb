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
import { allRows, sqlString, streamRows } from './duck.ts';
import { refViewFor } from './refview.ts';

/** legs per batch of hexes: bounds DuckDB's working set whatever the size of the log */
export const LEGS_PER_BATCH = 2_000_000;

/**
 * Hex ranges [lo, hi) holding at most about `maxLegs` legs each, cut from the real distribution:
 * addresses are far from uniform (the US block alone holds a large share of the world's fleet),
 * so fixed ranges would put most of the log in one batch.
 */
export async function hexBatches(db: DuckDBConnection, maxLegs = LEGS_PER_BATCH): Promise<[string, string | null][]> {
  const counts = await allRows<{ p: string; n: number | bigint }>(
    db,
    `SELECT substr(hex, 1, 3) AS p, count(*) AS n FROM legs_routed WHERE regexp_full_match(hex, '[0-9a-f]{6}') GROUP BY p ORDER BY p`,
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

/** per airframe of a hex range: the latest reg/type heard and the majority airline prefix */
export function identitySql(lo: string, hi: string | null): string {
  return `
WITH b AS (SELECT hex, callsign, reg, type, last_ts FROM legs_routed WHERE ${rangeWhere(lo, hi)}),
ops AS (
  SELECT hex, arg_max(p, (n, t)) AS operator_icao FROM (
    SELECT hex, substr(callsign, 1, 3) AS p, count(*) AS n, max(last_ts) AS t FROM b
    WHERE regexp_full_match(callsign, '[A-Z]{3}[0-9][A-Z0-9]{0,4}') GROUP BY hex, p)
  GROUP BY hex),
ids AS (
  SELECT hex, arg_max(reg, last_ts) FILTER (WHERE reg IS NOT NULL AND reg <> '') AS reg,
         arg_max(upper(type), last_ts) FILTER (WHERE type IS NOT NULL AND type <> '') AS type
  FROM b GROUP BY hex)
SELECT ids.hex, ids.reg, ids.type, ops.operator_icao FROM ids LEFT JOIN ops USING (hex) ORDER BY ids.hex`;
}

/**
 * the newest MAX_LEGS legs of each airframe of a hex range, newest first, sorted by hex so the
 * caller groups them as they stream (an ordered list() aggregate in SQL holds every group in
 * memory at once: it ran out of 4 GB on a year's log)
 */
export function legsSql(lo: string, hi: string | null): string {
  return `
SELECT hex,
  CAST(CAST(to_timestamp(coalesce(dep_ts, first_ts)) AT TIME ZONE 'UTC' AS DATE) AS VARCHAR) AS date,
  org, dst, org_ident, dst_ident, callsign, dep_ts AS dep, arr_ts AS arr, first_ts AS first_seen, last_ts AS last_seen,
  route_source, table_source
FROM legs_routed WHERE ${rangeWhere(lo, hi)}
QUALIFY row_number() OVER (PARTITION BY hex ORDER BY first_ts DESC, last_ts DESC) <= ${MAX_LEGS}
ORDER BY hex, first_ts DESC, last_ts DESC`;
}

interface IdRow extends LogIdentity {
  hex: string;
}

type LegRow = AirframeLeg & { hex: string };

function put(ctx: BuildContext, ref: RefView, hex: string, log: LogIdentity | null, legs: AirframeLeg[] | null): void {
  const id = airframeIdentity(hex, log, ref);
  ctx.writer.put(keys.airframe(hex), airframeDoc(id, legs), 'airframe');
  ctx.counts.airframes = (ctx.counts.airframes ?? 0) + 1;
  if (id.reg || id.type) {
    ctx.writer.put(keys.refAircraft(hex), refAircraftDoc(id), 'refdata-aircraft');
    ctx.counts['refdata.aircraft'] = (ctx.counts['refdata.aircraft'] ?? 0) + 1;
  }
}

export async function writeAirframes(ctx: BuildContext, db: DuckDBConnection = ctx.db, maxLegs = LEGS_PER_BATCH): Promise<number> {
  const ref = refViewFor(ctx);
  const seen = new Set<string>();
  ctx.progress.start('airframes', 0);
  for (const [lo, hi] of await hexBatches(db, maxLegs)) {
    const ids = new Map<string, IdRow>();
    for await (const rows of streamRows<IdRow>(db, identitySql(lo, hi))) for (const r of rows) ids.set(r.hex, r);
    let hex: string | null = null;
    let legs: AirframeLeg[] = [];
    const flush = () => {
      if (hex !== null && /^[0-9a-f]{6}$/.test(hex)) {
        seen.add(hex);
        put(ctx, ref, hex, ids.get(hex) ?? { reg: null, type: null, operator_icao: null }, legs);
        ctx.progress.tick();
      }
    };
    for await (const rows of streamRows<LegRow>(db, legsSql(lo, hi))) {
      for (const { hex: h, ...leg } of rows) {
        if (h !== hex) {
          flush();
          hex = h;
          legs = [];
        }
        legs.push(leg);
      }
    }
    flush();
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
