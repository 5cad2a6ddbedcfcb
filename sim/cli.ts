// the simulator's commands (all output is SIMULATED traffic, in the real formats):
//   npx tsx sim/cli.ts live     --out var/demo/aircraft.json [--feeders F] [--http PORT]
//   npx tsx sim/cli.ts history  --days N --out <globe_history dir>
//   npx tsx sim/cli.ts snapshot --aircraft 15000 --out <aircraft.json>
//   npx tsx sim/cli.ts log      --days 365 --legs-per-day N --out <LOG dir>
// every command is deterministic from --seed and --start; `<command> --help` lists its options.
import { RUNNING, runAsMain, runSubcommand, type Command, type Specs } from '../lib/cli.ts';
import { isDay } from '../lib/localtime.ts';
import { FLEET_PER_AIRBORNE, aircraftJson, createSky, growSky, heardAt, type Sky } from './sky.ts';
import { startLive, writeAtomic } from './live.ts';
import { writeHistory } from './history.ts';
import { writeFastLog } from './log.ts';
import { loadWorld } from './world.ts';
import { installed } from '../lib/install.ts';
import { faultSpecs, faultsOf, type FaultFlags } from './fault-specs.ts';

interface Common {
  ref: string;
  seed: number;
  routeRows: number;
}
const common: Specs<Common> = {
  ref: {
    flag: 'ref',
    env: 'CONTRAIL_REF',
    kind: 'string',
    default: installed('data/ref'),
    help: 'reference data snapshot (airports, runways, routes, registry, blocks)',
  },
  seed: { flag: 'seed', env: 'CONTRAIL_SIM_SEED', kind: 'int', default: 1, help: 'random seed: same seed and start, same bytes' },
  routeRows: {
    flag: 'route-rows',
    env: 'CONTRAIL_SIM_ROUTE_ROWS',
    kind: 'int',
    default: 0,
    help: 'read only the first N catalog routes (faster start; 0 = all 618k)',
    check: (v) => (v >= 0 ? undefined : 'must be 0 or more'),
  },
};
const positive = (v: number) => (v > 0 ? undefined : 'must be greater than 0');
const timeCheck = (v: string) =>
  v === '' || Number.isFinite(Date.parse(v)) ? undefined : `expected an ISO time like 2025-06-02T14:00:00Z, got ${JSON.stringify(v)}`;
const dayCheck = (v: string) => (v === '' || isDay(v) ? undefined : `expected a day YYYY-MM-DD, got ${JSON.stringify(v)}`);

interface LiveConfig extends Common, FaultFlags {
  out: string;
  feeders: string;
  http: number;
  aircraft: number;
  start: string;
  intervalMs: number;
  catchUp: number;
}
export const liveSpecs: Specs<LiveConfig> = {
  ...common,
  ...faultSpecs,
  out: {
    flag: 'out',
    env: 'CONTRAIL_SIM_OUT',
    kind: 'string',
    default: installed('var/demo/aircraft.json'),
    help: 'aircraft.json rewritten atomically every interval (empty with --http: none)',
  },
  feeders: {
    flag: 'feeders',
    env: 'CONTRAIL_SIM_FEEDERS',
    kind: 'string',
    default: installed('var/demo/feeders.json'),
    help: 'connected-feeders list rewritten with it (empty: none)',
  },
  http: {
    flag: 'http',
    env: 'CONTRAIL_SIM_HTTP',
    kind: 'int',
    default: 0,
    help: 'also serve /aircraft.json and /feeders.json on 127.0.0.1:PORT (0: off)',
    check: (v) => (v >= 0 && v <= 65535 ? undefined : 'must be 0..65535'),
  },
  aircraft: {
    flag: 'aircraft',
    env: 'CONTRAIL_SIM_AIRCRAFT',
    kind: 'int',
    default: 400,
    help: 'about this many aircraft airborne at a busy hour',
    check: positive,
  },
  start: {
    flag: 'start',
    env: 'CONTRAIL_SIM_START',
    kind: 'string',
    default: '',
    help: 'simulated time of the first snapshot, then real time passes (empty: now)',
    check: timeCheck,
  },
  intervalMs: {
    flag: 'interval-ms',
    env: 'CONTRAIL_SIM_INTERVAL_MS',
    kind: 'int',
    default: 1000,
    help: 'milliseconds between snapshots',
    check: (v) => (v >= 100 ? undefined : 'must be at least 100'),
  },
  catchUp: {
    flag: 'catch-up',
    env: 'CONTRAIL_SIM_CATCH_UP',
    kind: 'int',
    default: 0,
    check: (v) => (v >= 0 && v <= 7200 ? undefined : 'must be 0..7200'),
    help: 'show an --http reader this many past simulated seconds first, one snapshot per GET (every aircraft that went quiet while cruising, the last 15 minutes every 55 s), so it starts with estimates and traces (0: off)',
  },
};

interface HistoryConfig extends Common, FaultFlags {
  out: string;
  days: number;
  start: string;
  aircraft: number;
}
export const historySpecs: Specs<HistoryConfig> = {
  ...common,
  ...faultSpecs,
  out: {
    flag: 'out',
    env: 'CONTRAIL_SIM_OUT',
    kind: 'string',
    default: installed('var/sim/globe_history'),
    help: 'globe_history root to write YYYY/MM/DD/traces/xx/trace_full_<hex>.json into',
  },
  days: { flag: 'days', env: 'CONTRAIL_SIM_DAYS', kind: 'int', default: 1, help: 'UTC days to write', check: positive },
  start: {
    flag: 'start',
    env: 'CONTRAIL_SIM_START',
    kind: 'string',
    default: '',
    help: 'first day YYYY-MM-DD (empty: the N days ending yesterday, UTC)',
    check: dayCheck,
  },
  aircraft: {
    flag: 'aircraft',
    env: 'CONTRAIL_SIM_AIRCRAFT',
    kind: 'int',
    default: 400,
    help: 'about this many aircraft airborne at a busy hour',
    check: positive,
  },
};

interface SnapshotConfig extends Common {
  out: string;
  aircraft: number;
  start: string;
}
export const snapshotSpecs: Specs<SnapshotConfig> = {
  ...common,
  out: { flag: 'out', env: 'CONTRAIL_SIM_OUT', kind: 'string', default: installed('var/sim/aircraft.json'), help: 'aircraft.json to write' },
  aircraft: {
    flag: 'aircraft',
    env: 'CONTRAIL_SIM_AIRCRAFT',
    kind: 'int',
    default: 15000,
    help: 'exactly this many aircraft in the snapshot',
    check: positive,
  },
  start: {
    flag: 'start',
    env: 'CONTRAIL_SIM_START',
    kind: 'string',
    default: '2025-06-02T14:00:00Z',
    help: 'the snapshot instant (a busy hour over Europe and North America)',
    check: timeCheck,
  },
};

interface LogConfig extends Common {
  out: string;
  days: number;
  start: string;
  legsPerDay: number;
  airframes: number;
  threads: number;
  tracks: boolean;
}
export const logSpecs: Specs<LogConfig> = {
  ...common,
  out: {
    flag: 'out',
    env: 'CONTRAIL_SIM_OUT',
    kind: 'string',
    default: installed('var/sim/flight-log'),
    help: 'flight log root (day=YYYY-MM-DD/legs.parquet)',
  },
  days: { flag: 'days', env: 'CONTRAIL_SIM_DAYS', kind: 'int', default: 365, help: 'days to write', check: positive },
  start: { flag: 'start', env: 'CONTRAIL_SIM_START', kind: 'string', default: '2025-01-01', help: 'first day YYYY-MM-DD', check: dayCheck },
  legsPerDay: {
    flag: 'legs-per-day',
    env: 'CONTRAIL_SIM_LEGS_PER_DAY',
    kind: 'int',
    default: 137000,
    help: 'legs per day (137,000 x 365 = 50 million)',
    check: positive,
  },
  airframes: { flag: 'airframes', env: 'CONTRAIL_SIM_AIRFRAMES', kind: 'int', default: 600000, help: 'distinct airframes', check: positive },
  threads: { flag: 'threads', env: 'CONTRAIL_DUCKDB_THREADS', kind: 'int', default: 2, help: 'DuckDB worker threads', check: positive },
  // about 140 points a leg, ~1 ms of CPU each (sim/log-tracks.ts): a year at 137,000 legs a day is ~7 billion points
  tracks: {
    flag: 'tracks',
    env: 'CONTRAIL_SIM_TRACKS',
    kind: 'bool',
    default: true,
    help: "write each leg's thinned track to points.parquet (--no-tracks for the year runs: billions of points)",
  },
};

const say = (line: string) => process.stderr.write(`sim: ${line}\n`);

/** a sky with exactly n aircraft heard at t (the fleet grows until it has them); the first n in fleet order */
export function skyWithAircraft(sky: Sky, n: number, t: number): { sky: Sky; doc: ReturnType<typeof aircraftJson> } {
  let s = sky;
  for (;;) {
    const seen = heardAt(s, t);
    if (seen.length >= n) return { sky: s, doc: aircraftJson(s, t, seen.slice(0, n)) };
    s = growSky(s, Math.ceil(s.fleet.length * Math.max(1.1, (n / Math.max(1, seen.length)) * 1.05)));
  }
}

const USAGE =
  'usage: npx tsx sim/cli.ts <live|history|snapshot|log> [options]   (<command> --help for its options)\nAll output is SIMULATED traffic written in the real readsb / flight-log formats.';

function commands(clock: () => number): Record<string, Command<any>> {
  const live: Command<LiveConfig> = {
    name: 'sim live',
    usage: 'usage: npx tsx sim/cli.ts live [options]\n\nSIMULATED live feed: a readsb aircraft.json and a feeder list, rewritten every interval.',
    specs: liveSpecs,
    run: async (c) => {
      if (c.catchUp && !c.http) {
        process.stderr.write('sim live: --catch-up is paced by an HTTP reader: give --http PORT too\n');
        return 2;
      }
      const sky = createSky({ ref: c.ref, seed: c.seed, fleet: Math.ceil(c.aircraft * FLEET_PER_AIRBORNE), routeRows: c.routeRows, faults: faultsOf(c) });
      return liveLoop(sky, c, clock);
    },
  };
  const history: Command<HistoryConfig> = {
    name: 'sim history',
    usage:
      "usage: npx tsx sim/cli.ts history --days N --out <dir> [options]\n\nSIMULATED readsb globe_history days, through the receiver faults below (sim/README.md), with each day's\nground truth beside its traces/ folder: YYYY/MM/DD/sim_truth.jsonl, one take-off, landing, go-around or low pass a line.",
    specs: historySpecs,
    run: async (c) => {
      const first = c.start || new Date((Math.floor(clock() / 86400000) - c.days) * 86400000).toISOString().slice(0, 10);
      const sky = createSky({ ref: c.ref, seed: c.seed, fleet: Math.ceil(c.aircraft * FLEET_PER_AIRBORNE), routeRows: c.routeRows, faults: faultsOf(c) });
      say(`simulated world loaded: ${sky.fleet.length} airframes; writing ${c.days} days from ${first}`);
      let done = 0;
      const r = writeHistory(sky, c.out, first, c.days, (day, files) => say(`history day ${++done}/${c.days} (${day}): ${files} trace files`));
      say(
        `simulated history: ${r.days.length} days, ${r.files} files, ${r.truth.length} flights${sky.faultsOn ? `, ${r.events} events in YYYY/MM/DD/sim_truth.jsonl` : ''} -> ${c.out}`,
      );
      return 0;
    },
  };
  const snapshot: Command<SnapshotConfig> = {
    name: 'sim snapshot',
    usage: 'usage: npx tsx sim/cli.ts snapshot --aircraft N --out <file> [options]\n\nOne SIMULATED readsb aircraft.json (for the live benchmark).',
    specs: snapshotSpecs,
    run: async (c) => {
      const t = Date.parse(c.start) / 1000;
      const sky = createSky({ ref: c.ref, seed: c.seed, fleet: Math.ceil(c.aircraft * FLEET_PER_AIRBORNE), routeRows: c.routeRows });
      const { doc } = skyWithAircraft(sky, c.aircraft, t);
      writeAtomic(c.out, JSON.stringify(doc));
      say(`simulated snapshot: ${doc.aircraft.length} aircraft at ${c.start} -> ${c.out}`);
      return 0;
    },
  };
  const log: Command<LogConfig> = {
    name: 'sim log',
    usage:
      'usage: npx tsx sim/cli.ts log --days 365 --legs-per-day N --out <dir> [options]\n\nA SIMULATED flight log written directly (the build benchmark input).',
    specs: logSpecs,
    run: async (c) => {
      const t0 = clock();
      const world = loadWorld({ ref: c.ref, routeRows: c.routeRows });
      const r = await writeFastLog(
        world,
        { out: c.out, seed: c.seed, start: c.start, days: c.days, legsPerDay: c.legsPerDay, airframes: c.airframes, threads: c.threads, tracks: c.tracks },
        (day, n) => {
          if (day.endsWith('-01')) say(`${day}: ${n} legs`);
        },
      );
      say(
        `simulated log: ${r.days} days, ${r.legs} legs (${r.points} track points), ${r.airframes} airframes, ${r.airports} airports, ${r.sectors} sectors in ${((clock() - t0) / 1000).toFixed(1)} s -> ${c.out}`,
      );
      return 0;
    },
  };
  return { live, history, snapshot, log };
}

/** run the simulator's command line; resolves to the exit code */
export async function run(argv: string[], clock: () => number = Date.now): Promise<number | typeof RUNNING> {
  return runSubcommand('sim', USAGE, commands(clock), argv);
}

/** the live loop: runs until SIGINT/SIGTERM */
function liveLoop(sky: Sky, c: LiveConfig, clock: () => number): Promise<number> {
  const handle = startLive(
    sky,
    { out: c.out, feeders: c.feeders, http: c.http, intervalMs: c.intervalMs, offsetMs: c.start ? Date.parse(c.start) - clock() : 0, catchUpS: c.catchUp },
    clock,
  );
  say(
    `SIMULATED live feed: ${handle.count} aircraft heard, ${sky.fleet.length} airframes, ${sky.coverage.receivers.length} stations -> ${c.out || '(no file)'}${c.http ? ` and http://127.0.0.1:${c.http}/aircraft.json` : ''} every ${c.intervalMs} ms`,
  );
  return new Promise((resolve) => {
    const stop = () => {
      handle.stop();
      resolve(0);
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
}

runAsMain(import.meta.url, () => run(process.argv.slice(2)));
