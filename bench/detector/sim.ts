// the take-off/landing detector on the noisy simulation: the simulator's globe_history days (in
// memory, exactly the bytes `sim history` writes) through the product's trace reader and the
// detector with airfield knowledge, as the nightly runs it, scored against the simulator's truth
// (test/helpers/sim-score.ts): precision and recall at ±30 s, overall and per fault class, and how
// often the airport is right.
//   npx tsx bench/detector/sim.ts [--days N] [--aircraft N] [--seed N] [--verbose] [fault flags]
// the fault flags and their defaults are the demo's (sim/fault-specs.ts); --help lists them.
import { runAsMain, runCommand, type Command, type Specs } from '../../lib/cli.ts';
import { cutLegs, type TrackPoint } from '../../lib/detector.ts';
import { parseTraceFull } from '../../lib/readsb-trace.ts';
import { fieldsOf } from '../../lib/reference/fields.ts';
import { installed } from '../../lib/install.ts';
import { faultSpecs, faultsOf, type FaultFlags } from '../../sim/fault-specs.ts';
import { historyDay } from '../../sim/history.ts';
import { FLEET_PER_AIRBORNE, createSky } from '../../sim/sky.ts';
import type { TruthEvent } from '../../sim/truth.ts';
import { scoreSim, SIM_TOLERANCE_S, type ClassScore, type SimFound } from '../../test/helpers/sim-score.ts';

interface Config extends FaultFlags {
  days: number;
  start: string;
  aircraft: number;
  seed: number;
  ref: string;
  routeRows: number;
  verbose: boolean;
}
const specs: Specs<Config> = {
  days: {
    flag: 'days',
    env: 'CONTRAIL_BENCH_DAYS',
    kind: 'int',
    default: 14,
    help: "days of history (the demo's 14)",
    check: (v) => (v >= 1 && v <= 60 ? undefined : 'must be 1..60'),
  },
  start: {
    flag: 'start',
    env: 'CONTRAIL_BENCH_START',
    kind: 'string',
    default: '2025-06-02',
    help: 'first day',
    check: (v) => (/^\d{4}-\d{2}-\d{2}$/.test(v) ? undefined : 'expected YYYY-MM-DD'),
  },
  aircraft: {
    flag: 'aircraft',
    env: 'CONTRAIL_BENCH_AIRCRAFT',
    kind: 'int',
    default: 120,
    help: "about this many aircraft airborne at a busy hour (the demo's 120)",
    check: (v) => (v > 0 ? undefined : 'must be more than 0'),
  },
  seed: { flag: 'seed', env: 'CONTRAIL_SIM_SEED', kind: 'int', default: 1, help: "simulator seed (the demo's 1)" },
  ref: { flag: 'ref', env: 'CONTRAIL_REF', kind: 'string', default: installed('data/ref'), help: 'reference data snapshot' },
  routeRows: {
    flag: 'route-rows',
    env: 'CONTRAIL_SIM_ROUTE_ROWS',
    kind: 'int',
    default: 0,
    help: 'read only the first N catalog routes (0 = all, as the demo)',
    check: (v) => (v >= 0 ? undefined : 'must be 0 or more'),
  },
  verbose: { flag: 'verbose', env: 'CONTRAIL_BENCH_VERBOSE', kind: 'bool', default: false, help: 'list every miss, false detection and wrong airport' },
  ...faultSpecs,
};

const say = (s: string) => process.stderr.write(`${s}\n`);

async function main(c: Config): Promise<number> {
  const t0 = Date.now();
  const sky = createSky({ ref: c.ref, seed: c.seed, fleet: Math.ceil(c.aircraft * FLEET_PER_AIRBORNE), routeRows: c.routeRows, faults: faultsOf(c) });
  say(
    `simulated world: ${sky.fleet.length} airframes (${sky.fleet.filter((a) => a.kind === 'ga').length} GA), faults ${sky.faultsOn ? 'on' : 'off'} (${((Date.now() - t0) / 1000).toFixed(0)} s)`,
  );
  const points = new Map<string, TrackPoint[]>();
  const truth: TruthEvent[] = [];
  const first = Date.parse(`${c.start}T00:00:00Z`) / 1000;
  for (let d = 0; d < c.days; d++) {
    const h = historyDay(sky, first + d * 86400);
    truth.push(...h.events);
    for (const tr of h.traces) {
      const p = parseTraceFull(JSON.parse(tr.text)).points;
      const have = points.get(tr.hex);
      if (have) for (const x of p) have.push(x);
      else points.set(tr.hex, p);
    }
    say(`day ${d + 1}/${c.days}: ${h.traces.length} traces, ${h.events.length} events (${((Date.now() - t0) / 1000).toFixed(0)} s)`);
  }
  const fields = fieldsOf(sky.world.locator);
  const found: SimFound[] = [];
  for (const [hex, pts] of points) {
    for (const leg of cutLegs(pts, { fields })) {
      for (const [kind, e] of [
        ['dep', leg.departure],
        ['arr', leg.arrival],
      ] as const) {
        if (e) found.push({ hex, kind, t: e.at, airport: sky.world.locator.locate(e.lat, e.lon)?.ident ?? null });
      }
    }
  }
  const s = scoreSim(truth, found);
  if (c.verbose) for (const n of s.notes) console.log(n);
  const ratio = (a: number, b: number) => (b ? (a / b).toFixed(3) : '-');
  const row = (name: string, x: ClassScore) => [
    name,
    String(x.labelled),
    String(x.found),
    String(x.matched),
    ratio(x.correct, x.found),
    ratio(x.matched, x.labelled),
    ratio(x.airportOk, x.correct),
  ];
  const rows = [
    ['class', 'truth', 'found', 'matched', 'precision', 'recall', 'airport ok'],
    row('all', s.all),
    row('take-offs', s.byKind.dep),
    row('landings', s.byKind.arr),
  ];
  for (const [k, v] of Object.entries(s.byClass)) if (v.labelled || v.found) rows.push(row(k, v));
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  console.log(
    `noisy simulation: ${c.days} days from ${c.start}, seed ${c.seed}, ${sky.fleet.length} airframes; take-offs and landings within ±${SIM_TOLERANCE_S} s of the truth`,
  );
  console.log(`(${s.unobservable} truth events not heard low enough to count for recall; a class row counts every event it touched)\n`);
  for (const r of rows) console.log(r.map((x, i) => (i ? x.padStart(widths[i]!) : x.padEnd(widths[i]!))).join('  '));
  say(`${((Date.now() - t0) / 1000).toFixed(0)} s`);
  return 0;
}

const command: Command<Config> = {
  name: 'bench/detector/sim',
  usage:
    "usage: npx tsx bench/detector/sim.ts [options]\n\nThe detector on the noisy simulation (the demo's faults by default), scored against the simulator's truth.",
  specs,
  run: main,
};

runAsMain(import.meta.url, () => runCommand(command, process.argv.slice(2)));
