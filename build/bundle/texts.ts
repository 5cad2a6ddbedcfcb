// the text files of a researchers' bundle: LICENSE, CREDITS and README. pure apart from reading the
// shipped license and the reference-data source list; the field list comes from the contract
// (schemas/flight-log.schema.json), so the README cannot drift from the Parquet it describes.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadSchemas } from '../../schemas/index.ts';
import { FLIGHT_COLUMNS, POINT_COLUMNS_TEXT, type ColumnText } from './flight-columns.ts';

const HERE = dirname(fileURLToPath(import.meta.url));
const LICENSE_FILE = join(HERE, '../../data/licenses/ODbL-1.0.txt');

export interface Source {
  id: string;
  name: string;
  license: string;
  license_url?: string;
  credit: string;
  upstream?: string;
  retrieved?: string;
}

export interface BundleTexts {
  /** public base URL of the service, no trailing slash; '' when none is configured */
  base: string;
  /** credits page URL (spec 1 {credits_url}); '' when no absolute one is known */
  creditsUrl: string;
  /** the reference-data sources the published data draws on (usedSources) */
  sources: Source[];
  /** credits of recorded traffic the log was built from besides the network's feeders, one line each */
  traffic: string[];
}

/**
 * The reference sources the published files draw on, and only those: OurAirports names the
 * airports (org, dst, the airports table) when any leg has one; the Virtual Radar Server standing
 * data gives the catalog routes when the routes table holds one. the other sources (operators,
 * alliances) feed artifacts, not these files.
 */
export function usedSources(all: Source[], used: { airports: boolean; catalog: boolean }): Source[] {
  const want: Record<string, boolean> = { ourairports: used.airports, 'vrs-standing-data': used.catalog };
  return all.filter((s) => want[s.id] === true);
}

/** sha256sum's format: `<hash>  <path>` per line */
export const sumsText = (entries: [string, string][]): string => entries.map(([h, n]) => `${h}  ${n}\n`).join('');

const ODBL_URL = 'https://opendatacommons.org/licenses/odbl/1-0/';

export function licenseText(): string {
  return readFileSync(LICENSE_FILE, 'utf8');
}

/** Reads data/ref/sources.json (or a copy) as a list of sources; throws naming the file when malformed. */
export function readSources(file: string): Source[] {
  const list = JSON.parse(readFileSync(file, 'utf8')) as unknown;
  if (!Array.isArray(list)) throw new Error(`${file}: expected a JSON array of sources`);
  for (const s of list as Source[]) {
    if (typeof s?.name !== 'string' || typeof s.credit !== 'string' || typeof s.license !== 'string') {
      throw new Error(`${file}: every source needs name, license and credit strings; fix ${JSON.stringify(s).slice(0, 80)}`);
    }
  }
  return list as Source[];
}

export function creditsText(t: BundleTexts): string {
  const lines = [
    'CREDITS',
    '',
    `These files are licensed under the Open Database License 1.0 (LICENSE, ${ODBL_URL}).`,
    t.creditsUrl
      ? `Republishing them, or anything made from them, carries these credits and a link to ${t.creditsUrl}.`
      : 'Republishing them, or anything made from them, carries these credits and a link to the credits page of the service that published them.',
    '',
    'Observations',
    '',
    `- The network's feeders: the receiving stations${t.base ? ` listed at ${t.base}/v1/stations` : ''}, whose receivers heard every leg.`,
    ...t.traffic.map((c) => `- ${c}`),
    '',
  ];
  if (t.sources.length) lines.push('Reference data', '');
  for (const s of t.sources) {
    lines.push(`- ${s.name}: ${s.credit}`, `  license: ${s.license}${s.license_url ? ` (${s.license_url})` : ''}`);
    if (s.upstream) lines.push(`  source: ${s.upstream}${s.retrieved ? `, retrieved ${s.retrieved}` : ''}`);
  }
  return lines.join('\n') + '\n';
}

export interface ReadmeFacts {
  /** the log days published, oldest first */
  days: string[];
  legs: number;
  /** the artifact build the tables come from, null when none (no tables) */
  buildId: string | null;
  /** the days the tables cover */
  window: { from: string; to: string } | null;
}

const columnLines = (cols: readonly ColumnText[]) => cols.map(([n, t, what]) => `- ${n} (${t}): ${what}`);

export function readmeText(t: BundleTexts, f: ReadmeFacts): string {
  const schema = loadSchemas().get('flight-log') as { properties: Record<string, { type: unknown; description: string }> } | undefined;
  if (!schema) throw new Error('schemas/flight-log.schema.json is missing: the README lists its fields');
  const fields = Object.entries(schema.properties).map(([name, p]) => {
    const type = Array.isArray(p.type) ? p.type.join(' or ') : String(p.type);
    return `- ${name} (${type}): ${p.description}`;
  });
  const host = t.base || 'https://<this service>';
  const period = f.days.length ? `${f.days[0]} to ${f.days[f.days.length - 1]} (${f.days.length} days)` : 'no days yet';
  return [
    'Contrail flight data',
    '',
    `Observed flight legs heard by the network's receivers: ${f.legs} legs, ${period}.`,
    'License: ODbL 1.0 (LICENSE). Credit the feeders and every source in CREDITS when you republish.',
    ...(t.creditsUrl ? [`Credits page: ${t.creditsUrl}`] : []),
    `Index of every file with its size, rows and sha256: ${host}/v1/bundles`,
    '',
    'Files',
    '',
    '- log/day=YYYY-MM-DD/legs.parquet: the flight log, one file per UTC day, one row per observed leg,',
    '  Parquet (zstd), sorted by hex then first_ts. Hive-partitioned: the day is the folder name, not a',
    '  column of the file; read with hive_partitioning it is a DATE column `day`.',
    ...(f.buildId && f.window
      ? [
          `- tables/: derived tables of build ${f.buildId} over ${f.window.from} to ${f.window.to}, Parquet (zstd):`,
          '  airframes.parquet (one row per airframe, its legs in order in `history`), airports.parquet',
          '  (observed departures, arrivals, tails and days per OurAirports ident, circuits excluded),',
          "  routes.parquet (each callsign's route with its route_source).",
          '- tables/flights/date=YYYY-MM-DD/flights.parquet: one row per flight the network heard, the flights of',
          '  /v1/flights/{hex}/{date} with their ends flattened (columns below), one file per UTC day of the same',
          "  window, sorted by hex then first_seen. Hive-partitioned by `date` (the UTC day of the flight's first point).",
          "- tables/points/date=YYYY-MM-DD/points.parquet: the flights' tracks, thinned as the live trace is (turns,",
          '  climbs and ground changes kept), one row a point, sorted by hex, first_ts, t; join a point to its flight',
          '  on hex, date and first_ts = first_seen.',
        ]
      : []),
    '- README, LICENSE, CREDITS: this text and the terms.',
    '- SHA256SUMS: checksums of the files above; after downloading them, `sha256sum -c SHA256SUMS`.',
    '',
    'Reading it in place (DuckDB with its httpfs extension; nothing to download first)',
    '',
    '  One day:',
    `    SELECT org, dst, count(*) FROM '${host}/v1/bundles/log/day=${f.days[f.days.length - 1] ?? 'YYYY-MM-DD'}/legs.parquet'`,
    '      WHERE org <> dst GROUP BY ALL ORDER BY 3 DESC;',
    '  Every day (plain HTTP cannot list a folder: the index names the files):',
    `    SET VARIABLE files = (SELECT list('${host}' || f.path) FROM (SELECT unnest(log) AS f FROM read_json('${host}/v1/bundles')));`,
    "    SELECT day, count(*) FROM read_parquet(getvariable('files'), hive_partitioning = true) GROUP BY day ORDER BY day;",
    '  From an S3 copy of this folder a glob works:',
    "    SELECT count(*) FROM read_parquet('s3://<bucket>/v1/bundles/log/*/legs.parquet', hive_partitioning = true);",
    '  Spark discovers the partition itself: spark.read.parquet("s3a://<bucket>/v1/bundles/log").',
    '',
    ...(f.buildId
      ? [
          "  All landings on EGLL's runway 27R in March 2026 (from an S3 copy; over HTTP, the index's flights paths as above):",
          "    SELECT date, callsign, hex, arr_at FROM read_parquet('s3://<bucket>/v1/bundles/tables/flights/*/*.parquet',",
          "      hive_partitioning = true) WHERE dst_ident = 'EGLL' AND arr_runway = '27R'",
          "      AND date >= DATE '2026-03-01' AND date < DATE '2026-04-01' ORDER BY arr_at;",
          '  The track of one flight:',
          "    SELECT t, lat, lon, alt_baro, track FROM read_parquet('s3://<bucket>/v1/bundles/tables/points/*/*.parquet',",
          "      hive_partitioning = true) WHERE hex = '4b1814' AND date = DATE '2026-03-02' AND first_ts = <first_seen> ORDER BY t;",
          '',
        ]
      : []),
    'Files are replaced in place, atomically, and only when their content changes (the newest day when a',
    'leg still flying closes the next night; the tables each night). Each answer carries an ETag: a reader',
    'that sees it change between two requests has met a replacement and should start its query again.',
    '',
    'Columns of legs.parquet',
    '',
    ...fields,
    '',
    ...(f.buildId ? ['Columns of flights.parquet (the day is the partition `date`)', '', ...columnLines(FLIGHT_COLUMNS), ''] : []),
    ...(f.buildId ? ['Columns of points.parquet', '', ...columnLines(POINT_COLUMNS_TEXT), ''] : []),
    'Data honesty',
    '',
    "1. History is observation, never an official registry. A gap means the network's sources did not",
    '   hear the aircraft, nothing more.',
    '2. Every leg here was heard by a receiver. Airports (org, dst) are set only where the take-off or',
    '   landing was heard at an airport; null means it was not heard, not that the flight did not happen.',
    '3. In the artifacts, airport board rows carry their own source: observed, published (inferred from',
    '   timetables, not a receiver observation) or both.',
    "4. A flight's route_source is observed (both ends seen), observed+catalog (the community supplied the",
    '   end coverage never reached) or catalog (the community supplied both). Observation outranks the',
    '   catalog whenever it speaks.',
    '5. Estimated positions are never archived or exported: they are not in these files.',
    '',
    'A leg is in the day of its first heard point (UTC). A leg still flying after the newest day built has',
    "open = true (no landing yet, arr_ts and dst null); a later build closes it and replaces that day's file.",
    '',
  ].join('\n');
}
