// nightly step: the measured accuracy of the estimate method on one day of real traces.
//   npx tsx build/accuracy/cli.ts --history <globe_history dir> [--day YYYY-MM-DD] --out <file.json>
// exit 0: written; 2: bad arguments or input; 3: the day held nothing to score (nothing written,
// so the previously published figures stay).
import { ConfigError, RUNNING, runAsMain, runCommand, type Command, type Specs } from '../../lib/cli.ts';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { isDay } from '../../lib/localtime.ts';
import { currentHeader, readObject, type VersionHeader } from '../../artifacts/tree.ts';
import { fileOf, keys } from '../../artifacts/keys.ts';
import { decodeLookup, decodeRoutesTable, destinationLookup } from '../../artifacts/meta.ts';
import { accuracyStep, newestDay, writeJsonAtomic } from './step.ts';
import { learnedOf } from '../../artifacts/learned.ts';
import { consoleProgress, withPeakRss, type Progress } from '../progress.ts';

export interface AccuracyConfig {
  history: string;
  day: string;
  out: string;
  artifacts: string;
}

export const accuracyOptions: Specs<AccuracyConfig> = {
  history: {
    flag: 'history',
    env: 'CONTRAIL_HISTORY',
    kind: 'string',
    default: '',
    help: 'readsb globe_history directory (YYYY/MM/DD/traces/xx/trace_full_<hex>.json)',
  },
  // empty: the newest day present in the tree
  day: {
    flag: 'day',
    env: 'CONTRAIL_ACCURACY_DAY',
    kind: 'string',
    default: '',
    help: 'UTC day to replay, YYYY-MM-DD (empty: the newest day in --history)',
    check: (v) => (v === '' || isDay(v) ? undefined : `expected a calendar day YYYY-MM-DD, got ${JSON.stringify(v)}`),
  },
  // the routes the live server serves: without them every replayed estimate holds its track
  artifacts: {
    flag: 'artifacts',
    env: 'CONTRAIL_ARTIFACTS',
    kind: 'string',
    default: '',
    help: 'published artifact tree whose routes table and airport positions give the destinations, as the live server would (empty: none)',
  },
  out: {
    flag: 'out',
    env: 'CONTRAIL_ACCURACY_OUT',
    kind: 'string',
    default: '',
    help: 'output file (schemas/estimate-accuracy.schema.json), written atomically',
  },
};

const usage =
  'Usage: npx tsx build/accuracy/cli.ts --history <dir> [--day YYYY-MM-DD] --out <file.json>\n\n' +
  'Replays the estimate method of /v1/estimated on a day of real traces (hidden gaps where the aircraft\n' +
  'was heard throughout) and writes the accuracy figures, beside plain straight-line dead reckoning.';

/** the published version whose tables the replay reads (its header only: a year's manifest is large) */
function publishedVersion(root: string): VersionHeader {
  const v = currentHeader(root);
  if (!v) throw new ConfigError(`nothing is published under ${root}: check --artifacts`);
  return v;
}

/** the destination lookup of the live server over a published tree's meta/routes and meta/lookup */
function publishedDestinations(v: VersionHeader): (callsign: string) => { lat: number; lon: number } | null {
  const routes = readObject(v.dir, keys.routesTable());
  const lookup = readObject(v.dir, keys.lookup());
  return destinationLookup(decodeRoutesTable(routes ?? {}), lookup === null ? null : decodeLookup(lookup));
}

function accuracyCommand(log: (line: string) => void, progress: Progress): Command<AccuracyConfig> {
  return {
    name: 'accuracy',
    usage,
    specs: accuracyOptions,
    check: (c) => {
      if (!c.history) throw new ConfigError('--history is required: the readsb globe_history directory');
      if (!c.out) throw new ConfigError('--out is required: where to write the accuracy JSON');
    },
    run: async (config) => {
      const day = config.day || (await newestDay(config.history));
      if (!day) throw new ConfigError(`no day folder YYYY/MM/DD/traces under ${config.history}: check --history`);
      const v = config.artifacts ? publishedVersion(config.artifacts) : null;
      const destinationOf = v ? publishedDestinations(v) : () => null;
      if (!v) log('accuracy: no --artifacts: no routes known, every estimate holds its track');
      // what the live server had learned while `day` was flown: before it, never from it
      const learned = v ? learnedOf(v.dir, (m) => log(`accuracy: ${m}`), day) : {};
      const res = await accuracyStep(config.history, day, destinationOf, { learned, progress });
      progress.done(`${res.read} traces replayed, ${res.skipped.length} skipped`);
      for (const s of res.skipped) log(`skipped ${s}`);
      if (!res.doc) {
        log(`accuracy ${day}: no cruise stretch to score in ${config.history}; nothing written`);
        return 3;
      }
      writeJsonAtomic(config.out, res.doc);
      const d = res.doc;
      log(
        `accuracy ${day}: n=${d.n} median ${d.median_km} km (${d.method}); straight line ${d.baseline.median_km} km; ${d.traces.read} traces -> ${config.out}`,
      );
      return 0;
    },
  };
}

/** the command line; `log` hears every line it would write to stderr, `progress` the step's counts, rate, time left and peak RSS */
export async function main(
  argv: string[],
  log: (line: string) => void = (l) => process.stderr.write(l + '\n'),
  progress: Progress = withPeakRss(consoleProgress()),
): Promise<number> {
  const code = await runCommand(accuracyCommand(log, progress), argv, process.env, { out: (l) => process.stdout.write(`${l}\n`), err: log });
  return code === RUNNING ? 0 : code;
}

runAsMain(import.meta.url, () => main(process.argv.slice(2)));
