// where the researchers' data lives, shared by the build that writes it (build/bundle) and the
// servers that list and serve it (server/handlers/bundles.ts, deploy/nginx); no dependencies, so
// the live server never loads the build's engine (DuckDB) to serve a file.
//
// the layout below <bundles> is the URL layout below /v1/bundles:
//   index.json                       GET /v1/bundles (schemas/bundles-index)
//   log/day=YYYY-MM-DD/legs.parquet  the flight log, Hive-partitioned by day
//   tables/<name>.parquet            the derived tables of the current artifact build
//   tables/flights/date=YYYY-MM-DD/flights.parquet  one row per flight of the build's window, by UTC day
//   tables/points/date=YYYY-MM-DD/points.parquet    their thinned tracks, one row a point
//   README LICENSE CREDITS SHA256SUMS

export const INDEX_FILE = 'index.json';
/** the URL the index answers; the files live below it */
export const BUNDLES_URL = '/v1/bundles';
export const LOG_DIR = 'log';
export const TABLES_DIR = 'tables';
export const LOG_FILE = 'legs.parquet';
export const TABLES = ['airframes', 'airports', 'routes'] as const;
export type TableName = (typeof TABLES)[number];
/** the tables written one file per UTC day, Hive-partitioned by `date` (docs/api.md "Researchers' flights") */
export const DAY_TABLES = ['flights', 'points'] as const;
export type DayTableName = (typeof DAY_TABLES)[number];
export const DOCS = ['README', 'LICENSE', 'CREDITS', 'SHA256SUMS'] as const;
export type DocName = (typeof DOCS)[number];

/** a partition folder of the log: day=YYYY-MM-DD (a real calendar date is checked apart) */
export const DAY_PART = /^day=(\d{4}-\d{2}-\d{2})$/;

/** a partition folder of a day table: date=YYYY-MM-DD (the flights document's `date`) */
export const DATE_PART = /^date=(\d{4}-\d{2}-\d{2})$/;

/** the file's path below <bundles> (and its URL below /v1/bundles) */
export const logPath = (day: string) => `${LOG_DIR}/day=${day}/${LOG_FILE}`;
export const tablePath = (name: TableName) => `${TABLES_DIR}/${name}.parquet`;
export const dayTablePath = (name: DayTableName, day: string) => `${TABLES_DIR}/${name}/date=${day}/${name}.parquet`;
export const urlOf = (relative: string) => `${BUNDLES_URL}/${relative}`;

/** IANA's type for Parquet (registered 2024) */
export const PARQUET_TYPE = 'application/vnd.apache.parquet';
export const TEXT_TYPE = 'text/plain; charset=utf-8';

/**
 * Cache-Control of the data files: the URLs are stable (a Hive tree needs day=.../legs.parquet),
 * and a file is replaced only when its content changed (the newest day when an open leg closes,
 * the tables each night). an hour, as the history artifacts (spec 8); ETag and Last-Modified let a
 * cache revalidate and a range reader notice a replacement between its requests.
 */
export const DATA_CACHE = 'public, max-age=3600, s-maxage=3600';
