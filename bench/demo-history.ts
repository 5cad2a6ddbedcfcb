// the demo's four history targets (issue 43), counted on a built demo: fixed-wing legs at a heliport,
// seaplane base or balloonport; observed legs missing from either airport's board; legs with both
// ends heard at a field and route_source null; airlines whose name and country come from different
// rows (test/helpers/demo-history.ts says how each is counted).
//   npx tsx bench/demo-history.ts [--dir var/demo]                  a demo already built (`make demo`)
//   npx tsx bench/demo-history.ts --build --dir /tmp/d [--days 2]   simulate and build one first, as the
//     demo does (sim history, then the real nightly build; the days end yesterday, UTC), seeded
import { join, resolve } from 'node:path';
import { runAsMain, runCommand, type Command, type Specs } from '../lib/cli.ts';
import { installed } from '../lib/install.ts';
import { faultArgs, faultSpecs, type FaultFlags } from '../sim/fault-specs.ts';
import { buildDemoHistory, checkHistory, historyRef } from '../test/helpers/demo-history.ts';

interface Config extends FaultFlags {
  dir: string;
  build: boolean;
  days: number;
  aircraft: number;
  seed: number;
  ref: string;
  verbose: boolean;
}
const specs: Specs<Config> = {
  dir: {
    flag: 'dir',
    env: 'CONTRAIL_DEMO_DIR',
    kind: 'string',
    default: installed('var/demo'),
    help: "the demo's working folder: its log/ and artifacts/ are read (with --build, its globe_history/, log/ and artifacts/ are rewritten)",
  },
  build: { flag: 'build', env: 'CONTRAIL_BENCH_BUILD', kind: 'bool', default: false, help: 'simulate the history and run the nightly build into --dir first' },
  days: {
    flag: 'days',
    env: 'CONTRAIL_BENCH_DAYS',
    kind: 'int',
    default: 2,
    help: "with --build: days of history, ending yesterday (the demo's 14; 2 builds in a few minutes)",
    check: (v) => (v >= 1 && v <= 60 ? undefined : 'must be 1..60'),
  },
  aircraft: {
    flag: 'aircraft',
    env: 'CONTRAIL_BENCH_AIRCRAFT',
    kind: 'int',
    default: 120,
    help: "with --build: about this many aircraft airborne at a busy hour (the demo's 120)",
    check: (v) => (v >= 10 ? undefined : 'must be at least 10'),
  },
  seed: { flag: 'seed', env: 'CONTRAIL_SIM_SEED', kind: 'int', default: 1, help: "with --build: simulator seed (the demo's 1)" },
  ref: {
    flag: 'ref',
    env: 'CONTRAIL_REF',
    kind: 'string',
    default: installed('data/ref'),
    help: "reference data snapshot (the build's, and what the checks read)",
  },
  verbose: { flag: 'verbose', env: 'CONTRAIL_BENCH_VERBOSE', kind: 'bool', default: false, help: 'list a few examples of each failure' },
  // with --build: the receiver faults of the simulated history, the demo's by default
  ...faultSpecs,
};

const say = (s: string) => process.stderr.write(`demo-history: ${s}\n`);

async function main(c: Config): Promise<number> {
  const t0 = Date.now();
  const dir = resolve(c.dir);
  const ref = resolve(c.ref);
  const p = (name: string) => join(dir, name);
  if (c.build) {
    say(`simulating ${c.days} days and running the nightly build into ${dir}`);
    await buildDemoHistory({ dir, days: c.days, ref, simArgs: ['--seed', String(c.seed), '--aircraft', String(c.aircraft), ...faultArgs(c)] });
  }
  say(`checking ${p('artifacts')} and ${p('log')} (${((Date.now() - t0) / 1000).toFixed(0)} s)`);
  const r = await checkHistory(p('artifacts'), p('log'), await historyRef(ref));
  if (c.verbose) for (const e of r.examples) console.log(e);
  const rows: [string, number, number][] = [
    ['fixed-wing legs beginning or ending at a heliport, seaplane base or balloonport', r.fixedWingAtPad, r.fixedWingLegs],
    ["observed legs missing from either airport's board", r.missingFromBoard, r.observedLegs],
    ['  of them not on the origin board', r.missingFromDepartures, r.observedLegs],
    ['  of them not in the destination arrivals', r.missingFromArrivals, r.observedLegs],
    ['  of them flown on 2 days or more (the board lists slots of 2 days or more)', r.missingFlownTwice, r.observedLegs],
    ['legs with both ends heard at a field and route_source null', r.bothHeardNull, r.bothHeardAtFields],
    ['airframes whose airline name and country come from different rows', r.mixedAirline, r.airframesWithAirline],
  ];
  console.log(`demo history checks on ${dir} (${r.legs} legs in the log); target 0 for each\n`);
  const w = Math.max(...rows.map(([s]) => s.length));
  for (const [s, n, of] of rows) console.log(`${s.padEnd(w)}  ${String(n).padStart(6)} of ${of}`);
  say(`${((Date.now() - t0) / 1000).toFixed(0)} s`);
  return 0;
}

const command: Command<Config> = {
  name: 'bench/demo-history',
  usage:
    "usage: npx tsx bench/demo-history.ts [options]\n\nThe demo's four history targets (issue 43) counted on a built demo, or on one it builds with --build.",
  specs,
  run: main,
};

runAsMain(import.meta.url, () => runCommand(command, process.argv.slice(2)));
