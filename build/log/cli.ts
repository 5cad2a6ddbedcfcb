// the log step as a command:
//   npx tsx build/log/cli.ts --history <globe_history> --log <LOG> [--days N | --from D --to D]
// with no flags it builds every day of the bundled sample into var/flight-log.
import { ConfigError, runAsMain, runCommand, type Command, type Specs } from '../../lib/cli.ts';
import { airfieldTables, logAirfields } from './airfields.ts';
import { loadAirfieldRows } from '../../lib/reference/fields.ts';
import { MAX_LOG_WORKERS, defaultLogWorkers } from './leg-pool.ts';
import { consoleProgress } from '../progress.ts';
import { type DaySelection, historyProblem } from '../history/scan.ts';
import { isDay } from '../../lib/localtime.ts';
import { buildLog, type BuildLogResult } from './build.ts';
import { installed } from '../../lib/install.ts';

export { buildLog, type BuildLogOptions, type BuildLogResult } from './build.ts';

export interface LogConfig {
  history: string;
  log: string;
  ref: string;
  days: number;
  from: string;
  to: string;
  carryHours: number;
  threads: number;
  workers: number;
}

/** the log step's worker threads, shared by the log command and the nightly (the same variable) */
export const LOG_WORKERS_SPEC = {
  flag: 'workers',
  env: 'CONTRAIL_LOG_WORKERS',
  kind: 'int',
  default: defaultLogWorkers(),
  help: `threads that read, gunzip, parse and cut the traces (default: one per core, at most ${MAX_LOG_WORKERS}; 0: the main thread does it)`,
  check: (v: number) => (v >= 0 && v <= 64 ? undefined : 'must be 0..64'),
} as const;

const dayCheck = (v: string) => (v === '' || isDay(v) ? undefined : `expected a date YYYY-MM-DD, got ${JSON.stringify(v)}`);

export const LOG_SPECS: Specs<LogConfig> = {
  history: {
    flag: 'history',
    env: 'CONTRAIL_HISTORY',
    kind: 'string',
    default: installed('data/sample/globe_history'),
    help: 'readsb globe_history root (YYYY/MM/DD/traces/xx/trace_full_<hex>.json)',
    check: (v) => (v ? undefined : 'must not be empty'),
  },
  log: {
    flag: 'log',
    env: 'CONTRAIL_LOG',
    kind: 'string',
    default: installed('var/flight-log'),
    help: 'flight log root; gets day=YYYY-MM-DD/legs.parquet',
    check: (v) => (v ? undefined : 'must not be empty'),
  },
  ref: {
    flag: 'ref',
    env: 'CONTRAIL_REF',
    kind: 'string',
    default: installed('data/ref'),
    help: 'reference data folder (ourairports/airports.csv.gz and runways.csv.gz locate take-offs and landings)',
  },
  days: {
    flag: 'days',
    env: 'CONTRAIL_LOG_DAYS',
    kind: 'int',
    default: 0,
    help: 'build the newest N days of the history tree; 0 = every day (or --from/--to)',
    check: (v) => (v >= 0 ? undefined : 'must be 0 or more'),
  },
  from: { flag: 'from', env: 'CONTRAIL_LOG_FROM', kind: 'string', default: '', help: 'first day to build (YYYY-MM-DD, with --to)', check: dayCheck },
  to: { flag: 'to', env: 'CONTRAIL_LOG_TO', kind: 'string', default: '', help: 'last day to build, inclusive (YYYY-MM-DD, with --from)', check: dayCheck },
  carryHours: {
    flag: 'carry-hours',
    env: 'CONTRAIL_LOG_CARRY_HOURS',
    kind: 'number',
    default: 4,
    help: 'a leg with no landing heard whose last point is this close to midnight is finished by the next day',
    check: (v) => (v >= 0 && v < 12 ? undefined : 'must be between 0 and 12'),
  },
  threads: {
    flag: 'threads',
    env: 'CONTRAIL_DUCKDB_THREADS',
    kind: 'int',
    default: 2,
    help: 'DuckDB worker threads',
    check: (v) => (v >= 1 ? undefined : 'must be 1 or more'),
  },
  workers: LOG_WORKERS_SPEC,
};

const USAGE = 'usage: npx tsx build/log/cli.ts --history <globe_history dir> --log <LOG dir> [--days N | --from YYYY-MM-DD --to YYYY-MM-DD]';

/** The day selection a config asks for; throws ConfigError on a contradiction. */
export function selectionOf(c: LogConfig): DaySelection {
  if ((c.from === '') !== (c.to === '')) throw new ConfigError('--from and --to go together (see --help)');
  if (c.from !== '' && c.days > 0) throw new ConfigError('use either --days or --from/--to, not both');
  if (c.from !== '') {
    if (c.from > c.to) throw new ConfigError(`--from ${c.from} is after --to ${c.to}`);
    return { from: c.from, to: c.to };
  }
  return c.days > 0 ? { days: c.days } : { all: true };
}

export function summary(r: BuildLogResult): string {
  const skipped = Object.entries(r.skipped)
    .filter(([, n]) => n > 0)
    .map(([k, n]) => `${k} ${n}`)
    .join(', ');
  const dropped = r.droppedRows ? `; ${r.droppedRows} malformed trace rows left out` : '';
  return `log: ${r.days} days, ${r.files} files, ${r.legs} legs written (${r.open} open: still going after the last day read)${r.merged.length ? `, legs closing in ${r.merged.join(', ')} merged into that day` : ''}; skipped: ${skipped || 'none'}${dropped}`;
}

const airfieldsOf = (ref: string) => {
  const t = loadAirfieldRows(ref);
  return airfieldTables(t.airports, t.runways, t.types);
};

const logCommand: Command<LogConfig> = {
  name: 'log',
  usage: USAGE,
  specs: LOG_SPECS,
  check: (c) => {
    selectionOf(c);
    const problem = historyProblem(c.history);
    if (problem) throw new ConfigError(problem);
  },
  run: async (config) => {
    const result = await buildLog(
      {
        history: config.history,
        log: config.log,
        select: selectionOf(config),
        ...logAirfields(airfieldsOf(config.ref), config.carryHours * 3600),
        threads: config.threads,
        workers: config.workers,
      },
      consoleProgress(),
    );
    process.stderr.write(`${summary(result)}\n`);
    if (result.days === 0) process.stderr.write(`log: no day of ${config.history} matched the selection\n`);
    return 0;
  },
};

runAsMain(import.meta.url, () => runCommand(logCommand, process.argv.slice(2)));
