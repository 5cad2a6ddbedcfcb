// benchmark (run by hand, never a test): DuckDB's CPU on the airframes step's query (the one in
// build/steps/airframes/build.ts, copied here with switches) over the legs of one hex range, read into
// a table first so the file reads are not timed. Variants, alternated within each round:
//   shipped        the query as the step runs it (a leg's date by day arithmetic on its seconds)
//   utc timestamp  the date as before 2026-11-26: to_timestamp(...) AT TIME ZONE 'UTC', cast to DATE
//   concat json    each leg's JSON concatenated by hand (to_json of each string), not to_json of a struct
//   top 200        min_by(json, key, 200) instead of sorting the whole list and slicing it
//   no operator    the majority-prefix part left out (its regexp over every leg's callsign)
//   no sort        the list left unsorted (a different document: what the sort costs)
//   no json        no leg JSON at all (a different document: what the JSON costs)
// Each line ends with a digest of the output (rows, bytes, hashes): the same digest, the same documents.
// usage: npx tsx bench/airframes-sql.ts --log <dir> [--lo 000000] [--hi 0a0000] [--runs 2] [--threads 2]
import './help.ts';
import { DuckDBInstance } from '@duckdb/node-api';
import { sqlString } from '../build/steps/duck.ts';
import { flag, numberFlag } from './flags.ts';

const LOG = flag('log', '');
const LO = flag('lo', '000000');
const HI = flag('hi', '0a0000');
const RUNS = numberFlag('runs', 2);
if (!LOG) throw new Error('--log <flight log root> is required');

const db = await (await DuckDBInstance.create(':memory:', { threads: flag('threads', '2'), preserve_insertion_order: 'false', memory_limit: '4GB' })).connect();
// the routed legs as the step reads them, with the routes table empty (a leg's ends as heard)
await db.run(`CREATE TABLE b AS SELECT hex, upper(trim(callsign)) AS callsign, reg, type, first_ts, last_ts, dep_ts, arr_ts, day,
    org AS org_ident, dst AS dst_ident, org, dst, CASE WHEN org IS NOT NULL AND dst IS NOT NULL THEN 'observed' END AS route_source, NULL::VARCHAR AS table_source
  FROM read_parquet(${sqlString(`${LOG}/*/legs.parquet`)}, hive_partitioning = true, hive_types = {'day': DATE}) WHERE hex >= ${sqlString(LO)} AND hex < ${sqlString(HI)}`);
const legs = (await db.runAndReadAll('SELECT count(*) FROM b')).getRows()[0]![0];
console.log(`${legs} legs of hexes ${LO}..${HI}`);

const TS = 'coalesce(dep_ts, first_ts)';
const DATE_SHIPPED = `CAST(DATE '1970-01-01' + CAST(floor(${TS} / 86400) AS INTEGER) AS VARCHAR)`;
const DATE_UTC = `CAST(CAST(to_timestamp(${TS}) AT TIME ZONE 'UTC' AS DATE) AS VARCHAR)`;
const STRUCT_JSON = (date: string) => `to_json({date: ${date}, org: org, dst: dst, org_ident: org_ident, dst_ident: dst_ident, callsign: callsign,
  dep: dep_ts, arr: arr_ts, first_seen: first_ts, last_seen: last_ts, route_source: route_source, table_source: table_source})::VARCHAR`;
const str = (x: string) => `coalesce(to_json(${x})::VARCHAR, 'null')`;
const num = (x: string) => `coalesce(${x}::VARCHAR, 'null')`;
const CONCAT_JSON = `'{"date":"' || ${DATE_SHIPPED} || '","org":' || ${str('org')} || ',"dst":' || ${str('dst')} || ',"org_ident":' || ${str('org_ident')}
  || ',"dst_ident":' || ${str('dst_ident')} || ',"callsign":' || ${str('callsign')} || ',"dep":' || ${num('dep_ts')} || ',"arr":' || ${num('arr_ts')}
  || ',"first_seen":' || ${num('first_ts')} || ',"last_seen":' || ${num('last_ts')} || ',"route_source":' || ${str('route_source')} || ',"table_source":' || ${str('table_source')} || '}'`;

interface Variant {
  json?: string;
  topN?: boolean;
  operator?: boolean;
  sort?: boolean;
}

function query(v: Variant): string {
  const json = v.json ?? STRUCT_JSON(DATE_SHIPPED);
  const list = v.topN
    ? `list_transform(min_by(j, {k1: -first_ts, k2: -last_ts, j: j}, 200), x -> {j: x})`
    : `list_slice(${v.sort === false ? 'list' : 'list_sort(list'}({k1: -first_ts, k2: -last_ts, j: ${json}})${v.sort === false ? '' : ')'}, 1, 200)`;
  return `
WITH ops AS (
  SELECT hex, arg_max(p, (n, t)) AS operator_icao FROM (
    SELECT hex, substr(callsign, 1, 3) AS p, count(*) AS n, max(last_ts) AS t FROM b
    WHERE ${v.operator === false ? 'false' : `regexp_full_match(callsign, '[A-Z]{3}[0-9][A-Z0-9]{0,4}')`} GROUP BY hex, p)
  GROUP BY hex),
lg AS (
  SELECT hex,
    arg_max(reg, last_ts) FILTER (WHERE reg IS NOT NULL AND reg <> '') AS reg,
    arg_max(upper(type), last_ts) FILTER (WHERE type IS NOT NULL AND type <> '') AS type,
    ${list} AS l
  FROM ${v.topN ? `(SELECT *, ${json} AS j FROM b)` : 'b'} GROUP BY hex),
d AS (SELECT lg.*, ops.operator_icao, hash(lg.reg, lg.type, ops.operator_icao, lg.l)::VARCHAR AS digest FROM lg LEFT JOIN ops USING (hex))
SELECT d.hex, d.reg, d.type, d.operator_icao, d.digest, encode('[' || array_to_string(list_transform(d.l, x -> x.j), ',') || ']') AS legs FROM d`;
}

const variants: [string, Variant][] = [
  ['shipped', {}],
  ['utc timestamp', { json: STRUCT_JSON(DATE_UTC) }],
  ['concat json', { json: CONCAT_JSON }],
  ['top 200', { topN: true }],
  ['no operator', { operator: false }],
  ['no sort', { sort: false }],
  ['no json', { json: 'hex' }],
];
const cpu = () => {
  const c = process.cpuUsage();
  return (c.user + c.system) / 1e6;
};
for (let run = 1; run <= RUNS; run++) {
  for (const [name, v] of variants) {
    const t0 = performance.now();
    const c0 = cpu();
    const r = await db.runAndReadAll(
      `SELECT count(*), sum(octet_length(legs)), bit_xor(hash(legs)), bit_xor(hash(hex, operator_icao, reg, type)) FROM (${query(v)})`,
    );
    console.log(
      `run ${run} ${name.padEnd(13)} ${((performance.now() - t0) / 1000).toFixed(2)} s wall, ${(cpu() - c0).toFixed(2)} s CPU; output ${r.getRows()[0]!.join(' ')}`,
    );
  }
}
db.closeSync();
