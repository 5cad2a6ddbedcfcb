// the `today` roll: each airport's `today` is the board it publishes for its *local* day (spec
// 2.6), and local midnight comes at 24 different hours of the UTC day. the nightly fixes `today` at
// its own clock; this small command, run every 15 minutes (deploy/systemd/contrail-roll.timer),
// rewrites only the airport documents whose local day has changed since, and publishes them as a
// new version like the nightly does (hard-linked from the current one, manifest last, one rename).
//   npm run --silent roll -- --artifacts /srv/contrail --timetables /srv/timetables
import { readdirSync } from 'node:fs';
import { ConfigError, runAsMain, runCommand, type Command, type Specs } from '../lib/cli.ts';
import { installed } from '../lib/install.ts';
import { keys } from '../artifacts/keys.ts';
import { currentTable, readObject } from '../artifacts/tree.ts';
import { rollAirport } from '../artifacts/airport-roll.ts';
import { localDayAt } from '../artifacts/timetable-file.ts';
import type { AirportDoc } from '../artifacts/airport-doc.ts';
import { abandon, commit, lockRoot, newBuildId, stage } from './publish/publish.ts';
import { readTimetable } from './steps/airports/timetables.ts';

export interface RollConfig {
  artifacts: string;
  timetables: string;
  keep: number;
}

export const ROLL_SPECS: Specs<RollConfig> = {
  artifacts: {
    flag: 'artifacts',
    env: 'CONTRAIL_ARTIFACTS',
    kind: 'string',
    default: installed('var/artifacts'),
    help: "artifact tree root (the nightly's --artifacts)",
    check: (v) => (v ? undefined : 'must not be empty'),
  },
  // the same folder the nightly reads (artifacts/TIMETABLES.md)
  timetables: {
    flag: 'timetables',
    env: 'CONTRAIL_TIMETABLES',
    kind: 'string',
    default: '',
    help: 'published timetables folder (<IATA>/<local YYYY-MM-DD>.json); empty: nothing to roll',
  },
  keep: {
    flag: 'keep',
    env: 'CONTRAIL_KEEP_VERSIONS',
    kind: 'int',
    default: 3,
    help: 'published versions kept besides the current one',
    check: (v) => (v >= 0 ? undefined : 'must be 0 or more'),
  },
};

export interface RollResult {
  /** airports (IATA) whose document was rewritten, sorted */
  rolled: string[];
  /** the new version, or null when no airport's day changed (nothing published) */
  buildId: string | null;
}

/** Rolls every airport with a timetable folder to its local day at `nowMs`; publishes only when one changed. */
export function runRoll(c: RollConfig, nowMs: number, say: (line: string) => void): RollResult {
  const release = lockRoot(c.artifacts);
  try {
    // its objects as a table (object-table.ts): a year's manifest read by JSON.parse was 4 s and 446 MB every 15 minutes
    const current = currentTable(c.artifacts);
    if (!current) throw new ConfigError(`nothing is published under ${c.artifacts}: run the nightly first`);
    if (!c.timetables) return { rolled: [], buildId: null };
    let folders: string[];
    try {
      folders = readdirSync(c.timetables).sort();
    } catch (e) {
      throw new ConfigError(`cannot read --timetables ${c.timetables}: ${(e as Error).message}`);
    }
    const blocks = readObject(current.dir, keys.boardBlocks()) as { minutes: Record<string, number> } | null;
    const blockMinutes = (org: string, dst: string) => blocks?.minutes[`${org}-${dst}`] ?? null;
    const objects = current.objects;
    const changed: { keys: string[]; doc: AirportDoc }[] = [];
    for (const iata of folders) {
      const key = keys.airport(iata);
      const at = objects.indexOf(key);
      if (at < 0) continue; // a folder that names no published airport
      const doc = readObject(current.dir, key) as AirportDoc;
      const tt = readTimetable(c.timetables, iata, localDayAt(nowMs, doc.tz), say);
      const rolled = rollAirport(doc, tt === 'rejected' ? null : tt, blockMinutes);
      if (JSON.stringify(rolled) === JSON.stringify(doc)) continue;
      // the ICAO spelling is the same object stored twice (build/steps/airports/build.ts)
      const icao = keys.airport(doc.ident);
      const both = icao !== key && objects.get(icao)?.sha256 === objects.shaAt(at) ? [key, icao] : [key];
      changed.push({ keys: both, doc: rolled });
    }
    if (changed.length === 0) return { rolled: [], buildId: null };

    const staged = stage(c.artifacts, newBuildId(c.artifacts, nowMs), { keep: c.keep, current });
    try {
      for (const x of changed) for (const k of x.keys) staged.writer.put(k, x.doc);
      staged.writer.keepTheRest();
      const m = current.header;
      staged.writer.writeManifest({
        build_id: staged.id,
        built_at: new Date(nowMs).toISOString(),
        archive_through: m.archive_through,
        window_days: m.window_days,
        counts: { ...m.counts, airports_rolled: changed.length },
      });
      commit(c.artifacts, staged, c.keep);
    } catch (e) {
      abandon(staged);
      throw e;
    }
    const rolled = changed.map((x) => x.doc.iata).sort();
    say(
      `roll: ${rolled.length} airports to their new local day (${rolled.slice(0, 10).join(', ')}${rolled.length > 10 ? ', ...' : ''}); published ${staged.id}`,
    );
    return { rolled, buildId: staged.id };
  } finally {
    release();
  }
}

const USAGE = `Usage: npm run --silent roll -- [--artifacts DIR] [--timetables DIR]

Rolls each airport's \`today\` (spec 2.6: the board as the airport publishes it for its local
day) to the airport's current local date: for every airport with a timetable folder whose local
day changed since the published document was made, the document takes that day's timetable (or
none) and its boards merge it, as the nightly would. Publishes a new version only when an airport
changed. Run it every 15 minutes (time zones with :30 and :45 offsets).`;

const roll: Command<RollConfig> = {
  name: 'roll',
  usage: USAGE,
  specs: ROLL_SPECS,
  run: async (c) => {
    const r = runRoll(c, Date.now(), (l) => console.error(l));
    if (!r.buildId)
      console.error(c.timetables ? "roll: no airport's local day changed; nothing published" : 'roll: no --timetables: every `today` is null; nothing to roll');
    return 0;
  },
  onFailure: () => 'the published tree is unchanged',
};

runAsMain(import.meta.url, () => runCommand(roll, process.argv.slice(2)));
