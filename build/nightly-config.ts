// the nightly's options: one typed object with its flags, environment variables and defaults
// (lib/cli.ts; the table in docs/operating.md is made from it, npm run docs). build/nightly.ts runs them.
import { httpUrlOrEmpty, type Specs } from '../lib/cli.ts';
import { installed } from '../lib/install.ts';
import { LOG_WORKERS_SPEC } from './log/cli.ts';
import { defaultWriteWorkers } from './publish/write-pool.ts';

export interface NightlyConfig {
  history: string;
  log: string;
  artifacts: string;
  bundles: string;
  ref: string;
  timetables: string;
  catalogRouteFiles: boolean;
  days: number;
  windowDays: number;
  keep: number;
  skipLog: boolean;
  accuracy: boolean;
  threads: number;
  logWorkers: number;
  memoryLimit: string;
  baseUrl: string;
  creditsUrl: string;
  writeWorkers: number;
  validateAll: boolean;
  rebuild: boolean;
  verify: boolean;
}

const dirSet = (v: string) => (v ? undefined : 'must not be empty');

export const NIGHTLY_SPECS: Specs<NightlyConfig> = {
  history: {
    flag: 'history',
    env: 'CONTRAIL_HISTORY',
    kind: 'string',
    default: installed('data/sample/globe_history'),
    help: 'readsb globe_history root (YYYY/MM/DD/traces/xx/trace_full_<hex>.json)',
    check: dirSet,
  },
  log: {
    flag: 'log',
    env: 'CONTRAIL_LOG',
    kind: 'string',
    default: installed('var/flight-log'),
    help: 'flight log root (day=YYYY-MM-DD/legs.parquet)',
    check: dirSet,
  },
  artifacts: {
    flag: 'artifacts',
    env: 'CONTRAIL_ARTIFACTS',
    kind: 'string',
    default: installed('var/artifacts'),
    help: 'artifact tree root: versions/<build>/ and the `current` link the server follows',
    check: dirSet,
  },
  bundles: {
    flag: 'bundles',
    env: 'CONTRAIL_BUNDLES',
    kind: 'string',
    default: installed('var/bundles'),
    help: "researchers' data: the flight log as a Hive Parquet tree, the tables, README/LICENSE/CREDITS, index.json (served at /v1/bundles); empty: none",
  },
  ref: {
    flag: 'ref',
    env: 'CONTRAIL_REF',
    kind: 'string',
    default: installed('data/ref'),
    help: 'reference data snapshot (see data/ref/SOURCES.md)',
    check: dirSet,
  },
  timetables: {
    flag: 'timetables',
    env: 'CONTRAIL_TIMETABLES',
    kind: 'string',
    default: '',
    help: 'published timetables folder (artifacts/TIMETABLES.md); empty: boards are observed only',
  },
  // off: the live server answers the catalog-only routes from its routes table; 575,588 files that
  // cost a first build 110 s (docs/perf-log/demo-startup.md). a bucket-only deployment needs them
  catalogRouteFiles: {
    flag: 'catalog-route-files',
    env: 'CONTRAIL_CATALOG_ROUTE_FILES',
    kind: 'bool',
    default: false,
    help: 'write v1/route/<callsign> for callsigns never heard too (both ends from the catalog), for a CDN whose origin is the bucket alone (docs/operating.md)',
  },
  // a night adds the newest day; a first run or a rebuild takes every day (0)
  days: {
    flag: 'days',
    env: 'CONTRAIL_NIGHTLY_DAYS',
    kind: 'int',
    default: 0,
    help: 'log step: build the newest N days of the history tree (0 = every day)',
    check: (v) => (v >= 0 ? undefined : 'must be 0 or more'),
  },
  // spec 8: the airframe log depth is about a year
  windowDays: {
    flag: 'window-days',
    env: 'CONTRAIL_WINDOW_DAYS',
    kind: 'int',
    default: 365,
    help: 'days of log the artifacts cover, ending at the newest day',
    check: (v) => (v >= 1 && v <= 3660 ? undefined : 'must be 1..3660'),
  },
  keep: {
    flag: 'keep',
    env: 'CONTRAIL_KEEP_VERSIONS',
    kind: 'int',
    default: 3,
    help: 'published versions kept besides the current one',
    check: (v) => (v >= 0 ? undefined : 'must be 0 or more'),
  },
  skipLog: { flag: 'skip-log', env: 'CONTRAIL_SKIP_LOG', kind: 'bool', default: false, help: 'do not read traces; build artifacts from the log as it is' },
  accuracy: {
    flag: 'accuracy',
    env: 'CONTRAIL_ACCURACY',
    kind: 'bool',
    default: true,
    help: 'replay the estimate method on the newest history day (--no-accuracy to skip)',
  },
  threads: {
    flag: 'threads',
    env: 'CONTRAIL_DUCKDB_THREADS',
    kind: 'int',
    default: 2,
    help: 'DuckDB worker threads',
    check: (v) => (v >= 1 ? undefined : 'must be 1 or more'),
  },
  logWorkers: { ...LOG_WORKERS_SPEC, flag: 'log-workers', help: `log step: ${LOG_WORKERS_SPEC.help}` },
  // the main thread builds, validates (a sample), serialises and hashes; the workers gzip and write.
  // one worker beside the main thread fills a 2-core machine (bench/docs.ts)
  writeWorkers: {
    flag: 'write-workers',
    env: 'CONTRAIL_WRITE_WORKERS',
    kind: 'int',
    default: defaultWriteWorkers(),
    help: 'threads that gzip and write the documents (0: the main thread does it)',
    docDefault: 'one per core, at most 2',
    check: (v) => (v >= 0 && v <= 16 ? undefined : 'must be 0..16'),
  },
  validateAll: {
    flag: 'validate-all',
    env: 'CONTRAIL_VALIDATE_ALL',
    kind: 'bool',
    default: false,
    help: 'validate every document against its schema (default: the first of each kind and a seeded sample; docs/operating.md, "What is validated when")',
  },
  rebuild: {
    flag: 'rebuild',
    env: 'CONTRAIL_REBUILD',
    kind: 'bool',
    default: false,
    help: "build even when the inputs (code, reference data, the window's log files, options) equal those of the published build",
  },
  // every night each published object's size and mtime are checked; this hashes every one too (build/publish/verify.ts)
  verify: {
    flag: 'verify',
    env: 'CONTRAIL_VERIFY',
    kind: 'bool',
    default: false,
    help: 'gunzip and hash every object of the published build before it is reused (also with --rebuild); damaged ones are written again',
  },
  // 3.5 GB, not 4: the year's first build peaked at 6.01 and 6.08 GB in the schedules' first count
  // (DuckDB at its limit) and at 5.68 and 5.63 GB with 3.5, in no more time (docs/perf-log/nightly-steady-state.md, night 7)
  memoryLimit: {
    flag: 'memory-limit',
    env: 'CONTRAIL_DUCKDB_MEMORY',
    kind: 'string',
    default: '3.5GB',
    help: 'DuckDB memory limit (it spills to disk beyond it)',
  },
  // the same variables as the server's: the researchers' README and CREDITS carry absolute links
  baseUrl: {
    flag: 'base-url',
    env: 'CONTRAIL_BASE_URL',
    kind: 'string',
    default: '',
    help: "public base URL of the service, for the absolute links in the researchers' README and CREDITS (empty: none)",
    check: httpUrlOrEmpty,
  },
  creditsUrl: {
    flag: 'credits-url',
    env: 'CONTRAIL_CREDITS_URL',
    kind: 'string',
    default: '',
    help: 'credits page republishers link (empty: {base-url}/v1/credits)',
    check: httpUrlOrEmpty,
  },
};
