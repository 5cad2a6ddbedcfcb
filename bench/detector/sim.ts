// the take-off/landing detector on the noisy simulation: the simulator's globe_history days (in
// memory, exactly the bytes `sim history` writes) through the product's trace reader and the log's
// own per-airframe step (build/log/legs.ts airframeLegs, a leg carried over midnight as the nightly
// carries it), with the nightly's airfields (build/log/airfields.ts: detector field heights, airports
// and runway ends placed by lib/reference/place.ts with the aircraft's class), scored against the
// simulator's truth (test/helpers/sim-score.ts): precision and recall at ±30 s, overall and per fault
// class, how often the airport is right, and the runway end where the simulator flew a known one.
//   npx tsx bench/detector/sim.ts [--days N] [--aircraft N] [--seed N] [--verbose] [fault flags]
// the fault flags and their defaults are the demo's (sim/fault-specs.ts); --help lists them.
import { runAsMain, runCommand, type Command, type Specs } from '../../lib/cli.ts';
import { parseTraceFull } from '../../lib/readsb-trace.ts';
import { loadAirfieldRows } from '../../lib/reference/fields.ts';
import { installed } from '../../lib/install.ts';
import { airfieldTables, logAirfields } from '../../build/log/airfields.ts';
import { DEFAULT_LEG_OPTIONS, airframeLegs, type Carry, type LegRow } from '../../build/log/legs.ts';
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
  const ref = loadAirfieldRows(c.ref);
  const af = logAirfields(airfieldTables(ref.airports, ref.runways, ref.types));
  const legOpts = { ...DEFAULT_LEG_OPTIONS, ...af.legs };
  say(`airfields: ${ref.airports.length} airports, ${ref.runways.length} runways (${((Date.now() - t0) / 1000).toFixed(0)} s)`);
  const truth: TruthEvent[] = [];
  const legs: LegRow[] = [];
  const carries = new Map<string, Carry>();
  let notLogged = 0;
  const first = Date.parse(`${c.start}T00:00:00Z`) / 1000;
  for (let d = 0; d < c.days; d++) {
    const dayEnd = first + (d + 1) * 86400;
    const h = historyDay(sky, first + d * 86400);
    truth.push(...h.events);
    const seen = new Set<string>();
    for (const tr of h.traces) {
      // the nightly's scan sets a ~ (non-ICAO, TIS-B) address aside (build/history/scan.ts listDay)
      if (tr.hex.startsWith('~')) {
        notLogged++;
        continue;
      }
      const p = parseTraceFull(JSON.parse(tr.text));
      seen.add(p.hex);
      const out = airframeLegs({ hex: p.hex, reg: p.reg, type: p.type, carry: carries.get(p.hex) ?? null, points: p.points, dayEnd }, af.locate, legOpts);
      legs.push(...out.rows);
      if (out.carry) carries.set(p.hex, out.carry);
      else carries.delete(p.hex);
    }
    // a carried airframe with no trace the next day: its leg as it stood (build/log/build.ts does the same)
    for (const [hex, carry] of carries) {
      if (seen.has(hex)) continue;
      const out = airframeLegs({ hex, reg: carry.reg, type: carry.type, carry, points: [], dayEnd }, af.locate, legOpts);
      legs.push(...out.rows);
      if (out.carry) carries.set(hex, out.carry);
      else carries.delete(hex);
    }
    say(
      `day ${d + 1}/${c.days}: ${h.traces.length} traces, ${h.events.length} events, ${legs.length} legs so far (${((Date.now() - t0) / 1000).toFixed(0)} s)`,
    );
  }
  for (const carry of carries.values()) legs.push(carry.row);
  const found: SimFound[] = [];
  for (const l of legs) {
    if (l.dep_ts !== null) found.push({ hex: l.hex, kind: 'dep', t: l.dep_ts, airport: l.org, runway: l.dep_runway });
    if (l.arr_ts !== null) found.push({ hex: l.hex, kind: 'arr', t: l.arr_ts, airport: l.dst, runway: l.arr_runway });
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
    ratio(x.runwayNamed, x.runwayKnown),
    ratio(x.runwayOk, x.runwayNamed),
  ];
  const rows = [
    ['class', 'truth', 'found', 'matched', 'precision', 'recall', 'airport ok', 'runway named', 'runway ok'],
    row('all', s.all),
    row('take-offs', s.byKind.dep),
    row('landings', s.byKind.arr),
  ];
  for (const [k, v] of Object.entries(s.byClass)) if (v.labelled || v.found) rows.push(row(k, v));
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  console.log(
    `noisy simulation: ${c.days} days from ${c.start}, seed ${c.seed}, ${sky.fleet.length} airframes; take-offs and landings within ±${SIM_TOLERANCE_S} s of the truth`,
  );
  console.log(
    `(${s.unobservable} truth events not heard low enough to count for recall; a class row counts every event it touched; ${notLogged} trace files under ~ addresses not logged, as the nightly's scan sets them aside)`,
  );
  console.log('(runway named: of the matched events whose runway the simulator knows, those given a runway end; runway ok: of those named, the end flown)\n');
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
