// adapter: the researchers' flights and points tables, one Parquet file per UTC day of the build's
// window (tables/flights/date=YYYY-MM-DD/flights.parquet, tables/points/date=.../points.parquet).
// a flights row is a flight of /v1/flights/{hex}/{date} flattened: the legs routed with the build's
// own routes table (its state/, the one its flights documents were routed with) by the nightly's
// SQL (routes/legs-routed.ts), so the ends and route_source are the documents'. the points are the
// log's own points.parquet of the day, linked as it is (the track is the document's, unthinned no
// further); a day logged before tracks gets an empty file, so a glob over the days still reads.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { loadRefAirports } from '../steps/duck.ts';
import { legsRoutedSql } from '../steps/routes/legs-routed.ts';
import { ROUTES_STATE } from '../steps/airframes/step.ts';
import { LEG_FILE_OPTIONS, POINT_COLUMNS, pointsFile, sqlString } from '../log/write.ts';
import type { OpenLog } from '../log/read.ts';
import type { AirportRef, RefView } from '../../artifacts/reference-view.ts';
import { readRefFile } from '../../lib/reference/index.ts';
import { indexAirports, parseAirports } from '../../lib/reference/airports.ts';
import { installed } from '../../lib/install.ts';
import { daysToWrite } from '../steps/reuse.ts';

export type BundleAirports = Pick<RefView, 'allAirports' | 'airport'>;

/** the airports of a reference-data folder (default the shipped data/ref), for a caller that has none loaded */
export async function refAirports(dir = installed('data/ref')): Promise<BundleAirports> {
  const index = indexAirports(parseAirports(await readRefFile(dir, 'ourairports/airports.csv.gz')).airports);
  return { allAirports: () => index.all as readonly AirportRef[], airport: (ident) => index.byIdent(ident) as AirportRef | null };
}

/** the routes table's columns legs_routed reads (routes/build.ts); an older build without the state gets an empty one */
const ROUTES_COLUMNS =
  'callsign VARCHAR, org VARCHAR, dst VARCHAR, org_ident VARCHAR, dst_ident VARCHAR, route_source VARCHAR, org_seen BOOLEAN, dst_seen BOOLEAN';

/**
 * Makes the view `bundle_routed` over the log's legs: `ref_airports` from `airports` (the build's
 * reference data), `routes_table` from the build in `versionDir`. Returns false when that build
 * saved no routes table (every leg is then routed by its heard ends alone).
 */
export async function prepareRouting(db: OpenLog, versionDir: string, airports: BundleAirports): Promise<boolean> {
  const c = db.connection;
  await loadRefAirports(c, airports);
  const state = join(versionDir, ROUTES_STATE);
  const have = existsSync(state);
  await c.run(
    have
      ? `CREATE OR REPLACE TEMP TABLE routes_table AS SELECT * FROM read_parquet(${sqlString(state)})`
      : `CREATE OR REPLACE TEMP TABLE routes_table (${ROUTES_COLUMNS})`,
  );
  await c.run(legsRoutedSql('bundle_routed', 'legs'));
  return have;
}

/** an end of the flights document (artifacts/flights-doc.ts `end`; its airport is org_ident or dst_ident): all of it, or null
 * when its time or place was not heard */
const end = (p: 'dep' | 'arr', ts: string) => {
  const heard = `(r.${ts} IS NOT NULL AND l.${p}_lat IS NOT NULL AND l.${p}_lon IS NOT NULL)`;
  return [
    `CASE WHEN ${heard} THEN r.${ts} END AS ${p}_at`,
    `CASE WHEN ${heard} THEN l.${p}_lat END AS ${p}_lat`,
    `CASE WHEN ${heard} THEN l.${p}_lon END AS ${p}_lon`,
    `CASE WHEN ${heard} THEN l.${p}_runway END AS ${p}_runway`,
  ].join(', ');
};

/** the columns of flights.parquet, in order (texts.ts describes each) */
const FLIGHT_SELECT = `r.hex, r.callsign, r.reg, r.type, r.org, r.dst, r.org_ident, r.dst_ident, r.route_source,
  ${end('dep', 'dep_ts')}, ${end('arr', 'arr_ts')},
  r.first_ts AS first_seen, r.last_ts AS last_seen, l.distance_km, l.max_alt_ft, coalesce(l.circuit, false) AS circuit, l."open"`;

/** what the bundle knows of the build whose flights it publishes and of the index it replaces */
export interface FlightsDaysInput {
  /** the build's window days the log holds, oldest first */
  inWindow: readonly string[];
  /** the days the previous index lists a flights file for; null without a previous index */
  listed: ReadonlySet<string> | null;
  /** the previous index was made from this same build */
  sameBuild: boolean;
  /** the build kept its closed days' flights documents (its counts' flights.kept): a night that reused the one before */
  keptClosedDays: boolean;
  /** the days whose log file changed since the previous index */
  changedLog: readonly string[];
}

/**
 * The window days whose flights file is made again (the rest keep the published one): a closed day
 * is frozen as its documents are (docs/api.md, "Researchers' flights"). Every day for a build that
 * wrote every day's documents (the first, a --rebuild); for the same build, the days whose log
 * changed; otherwise those, the days new to the index, and the day before the first of them.
 */
export function flightsDaysToMake(o: FlightsDaysInput): Set<string> {
  if (o.listed === null || (!o.sameBuild && !o.keptClosedDays)) return new Set(o.inWindow);
  const out = new Set(o.changedLog.filter((d) => o.inWindow.includes(d)));
  if (o.sameBuild) return out;
  const listed = o.listed;
  for (const d of daysToWrite(
    o.inWindow,
    o.inWindow.filter((d) => !listed.has(d)),
  ))
    out.add(d);
  return out;
}

interface DayFile {
  file: string;
  rows: number;
}

/** Writes one day's flights into `work` (prepareRouting first). */
export async function writeFlightsDay(db: OpenLog, work: string, day: string): Promise<DayFile> {
  const file = join(work, `flights-${day}.parquet`);
  await db.connection.run(`COPY (SELECT ${FLIGHT_SELECT}
    FROM bundle_routed r JOIN legs l ON l.hex = r.hex AND l.first_ts = r.first_ts AND l.day = r.day
    WHERE r.day = DATE ${sqlString(day)} ORDER BY r.hex, r.first_ts) TO ${sqlString(file)} ${LEG_FILE_OPTIONS}`);
  return { file, rows: await rowsOf(db, file) };
}

/** The day's points: the log's own file, or (a day logged before tracks) an empty one of its columns written into `work`. */
export async function pointsDay(db: OpenLog, log: string, work: string, day: string): Promise<DayFile> {
  let file = pointsFile(log, day);
  if (!existsSync(file)) {
    file = join(work, `points-${day}.parquet`);
    const cols = POINT_COLUMNS.map(([n, t]) => `NULL::${t} AS "${n}"`).join(', ');
    await db.connection.run(`COPY (SELECT ${cols} WHERE false) TO ${sqlString(file)} ${LEG_FILE_OPTIONS}`);
  }
  return { file, rows: await rowsOf(db, file) };
}

async function rowsOf(db: OpenLog, file: string): Promise<number> {
  const r = await db.rows(`SELECT coalesce(sum(num_rows), 0) AS n FROM parquet_file_metadata(${sqlString(file)})`);
  return Number(r[0]!.n);
}
