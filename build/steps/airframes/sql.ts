// the SQL of the airframes step (airframes/build.ts): the batches of hexes, a leg in document form, the
// aggregate of an airframe's legs (the full build's, and the increment's for a day's legs:
// airframes/fold.ts), the operator's counts. one shape for each, so the documents a night splices
// and the ones a full build aggregates are made of the same text.
import type { DuckDBConnection } from '@duckdb/node-api';
import { MAX_LEGS } from '../../../artifacts/airframe-doc.ts';
import { allRows, sqlString } from '../duck.ts';

/**
 * Hex ranges [lo, hi) holding at most about `maxLegs` legs each, cut from the real distribution:
 * addresses are far from uniform (the US block alone holds a large share of the world's fleet),
 * so fixed ranges would put most of the log in one batch.
 */
export async function hexBatches(db: DuckDBConnection, source: string, maxLegs: number): Promise<[string, string | null][]> {
  const counts = await allRows<{ p: string; n: number | bigint }>(
    db,
    `SELECT substr(hex, 1, 3) AS p, count(*) AS n FROM ${source} WHERE ${VALID_HEX} GROUP BY p ORDER BY p`,
  );
  return packRanges(
    counts.map((c) => [c.p, Number(c.n)]),
    maxLegs,
  );
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

/** an ICAO address: the only hexes that get documents (the log also holds TIS-B's `~` addresses) */
export const VALID_HEX = `regexp_full_match(hex, '[0-9a-f]{6}')`;

const rangeWhere = (lo: string, hi: string | null) => `hex >= ${sqlString(lo)}${hi ? ` AND hex < ${sqlString(hi)}` : ''}`;

/**
 * a routed leg (legs_routed's columns) as its JSON in document form (AirframeLeg's fields in order,
 * no spaces). its UTC date is day arithmetic on its unix seconds, not a timestamp taken to UTC: the
 * same text, and the conversion was 15-30 % of the query's CPU on a batch of the year (1.69 M legs:
 * 2.3-2.9 s against 2.9-3.9 s, bench/airframes-sql.ts)
 */
const LEG_JSON = `to_json({
  date: CAST(DATE '1970-01-01' + CAST(floor(coalesce(dep_ts, first_ts) / 86400) AS INTEGER) AS VARCHAR),
  org: org, dst: dst, org_ident: org_ident, dst_ident: dst_ident, callsign: callsign,
  dep: dep_ts, arr: arr_ts, first_seen: first_ts, last_seen: last_ts,
  route_source: route_source, table_source: table_source,
  flights_date: CAST(DATE '1970-01-01' + CAST(floor(first_ts / 86400) AS INTEGER) AS VARCHAR)})::VARCHAR`;

/** 2^64: a sum of 64-bit hashes is kept modulo this */
const WRAP = '18446744073709551616';

/**
 * SQL: per airframe of `source` (routed legs) that passes `where`: how many legs (n), the sum of
 * their texts' hashes (s, a HUGEINT: an order-free digest of the legs that a night can add a day's
 * to and take a day's from), the latest reg and type heard with the time of the leg that said them
 * (reg_ts, type_ts), and the newest MAX_LEGS legs as texts, newest first (l, a list of structs
 * whose j is the text). each leg's JSON is made once, per row: making the JSON of a list of
 * structs per airframe cost 25 % more of DuckDB's time. the legs are an unordered list() sorted by
 * list_sort on a leading descending key: an ordered list(... ORDER BY) aggregate keeps a sort state
 * per group and ran out of 4 GB on a year's log; this holds a batch of 4 M legs in about 1.3 GB.
 */
export const legsAggSql = (source: string, where = 'true') => `
  SELECT hex, count(*) AS n, sum(hash(j)::HUGEINT) AS s,
    arg_max(reg, last_ts) FILTER (WHERE reg IS NOT NULL AND reg <> '') AS reg,
    max(last_ts) FILTER (WHERE reg IS NOT NULL AND reg <> '') AS reg_ts,
    arg_max(upper(type), last_ts) FILTER (WHERE type IS NOT NULL AND type <> '') AS type,
    max(last_ts) FILTER (WHERE type IS NOT NULL AND type <> '') AS type_ts,
    list_slice(list_sort(list({k1: -first_ts, k2: -last_ts, j: j})), 1, ${MAX_LEGS}) AS l
  FROM (SELECT *, ${LEG_JSON} AS j FROM ${source} WHERE ${where}) GROUP BY hex`;

/** SQL: a HUGEINT sum of hashes (possibly negative, after a night's subtraction) as the UBIGINT the state keeps */
export const wrapSum = (s: string) => `(((${s}) % ${WRAP} + ${WRAP}) % ${WRAP})::UBIGINT`;

/** SQL: a list of legs (legsAggSql's l, or a slice of it) as the text between a legs array's brackets */
export const joinedLegs = (l: string) => `array_to_string(list_transform(${l}, x -> x.j), ',')`;

/** an airline-shaped callsign, whose first three letters count towards the airframe's operator */
const AIRLINE_CALLSIGN = `regexp_full_match(callsign, '[A-Z]{3}[0-9][A-Z0-9]{0,4}')`;

/**
 * SQL: per (airframe, callsign prefix) of `source`'s legs (the log's rows: the callsign is
 * normalised here as legs_routed does), how many legs (n) and the last time heard (t): the operator
 * is the prefix of most legs, the latest breaking a tie (operatorSql). a night folds a day's into
 * the saved ones (airframes/fold.ts)
 */
export const operatorCountsSql = (source: string, where = 'true') => `
  SELECT hex, substr(callsign, 1, 3) AS p, count(*) AS n, max(last_ts) AS t
  FROM (SELECT hex, upper(trim(callsign)) AS callsign, last_ts FROM ${source} WHERE ${where} AND ${VALID_HEX})
  WHERE ${AIRLINE_CALLSIGN} GROUP BY hex, p`;

/** SQL: the operator of each airframe of a (hex, p, n, t) table */
export const operatorSql = (counts: string, where = 'true') =>
  `SELECT hex, arg_max(p, (n, t)) AS operator_icao FROM ${counts} WHERE ${where} AND n > 0 GROUP BY hex`;

/**
 * one row per airframe (an ICAO address: VALID_HEX) of a hex range of `source` (routed legs): the
 * latest reg/type heard, the operator (from `af_ops`, operatorCountsSql of the same legs), the
 * counts the state keeps, and the newest MAX_LEGS legs as JSON, newest first, in document form
 * (written as it is: airframeBytes).
 * the JSON text is made only where the airframe's legs or identity differ from the previous build's
 * (`af_prev`, airframes/state.ts), so an unchanged airframe costs its hashes, not a document.
 */
export function airframesSql(source: string, lo: string, hi: string | null): string {
  return `
WITH lg AS (${legsAggSql(source, `${rangeWhere(lo, hi)} AND ${VALID_HEX}`)}),
d AS (SELECT lg.*, ${wrapSum('lg.s')} AS legsum, o.operator_icao FROM lg LEFT JOIN (${operatorSql('af_ops', rangeWhere(lo, hi))}) o USING (hex))
SELECT d.hex, d.reg, d.type, d.operator_icao, d.n::INTEGER AS n, d.legsum::VARCHAR AS legsum, d.reg_ts, d.type_ts,
  CASE WHEN p.hex IS NULL OR p.legsum IS DISTINCT FROM d.legsum OR p.reg IS DISTINCT FROM d.reg
    OR p.type IS DISTINCT FROM d.type OR p.operator_icao IS DISTINCT FROM d.operator_icao
  THEN encode('[' || ${joinedLegs('d.l')} || ']') END AS legs
FROM d LEFT JOIN af_prev p USING (hex)`;
}
