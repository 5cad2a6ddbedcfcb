// issue 12's second target, checked: is the `accuracy` the nightly publishes within 10 % of what an
// independent replay of real traffic through the real server measures for the same method? and
// issue 43's: with no learned history (a new network, a new route), is the method at least as
// good as straight-line dead reckoning?
//   npx tsx bench/accuracy-live.ts <path to traffic-lib switzerland.json.gz> [--swap] [--passes N] [--seed N] [--cases with,without]
// local measurement data: the file is never committed nor read by project code or tests.
//
// 1. half the aircraft (by a hash of the address) teach the flow and the paths; the routes table is
//    the shipped catalog's (bench/accuracy/published.ts). published as an artifact tree: case
//    `with`. case `without` is the same tree with the flow and the paths left out (nothing learned
//    yet, as on a new network or a new route: the method's curve toward the destination, curve.ts).
// 2. the nightly replay (build/accuracy/cli.ts, lib/estimate/accuracy.ts) runs on the other half,
//    written as a globe_history day, and its figures are published in the tree as `accuracy`.
// 3. the live replay (bench/accuracy/drive.ts): the real server on that tree, its clock pinned, fed
//    the whole day as aircraft.json every 10 s, each scored aircraft hidden for up to 30 minutes from
//    a seeded point (bench/accuracy/gaps.ts); every minute /v1/estimated is asked over HTTP and each
//    listed estimate is compared with where the aircraft was (bench/accuracy/score.ts). both cases
//    hide the same gaps (same seed and pass), so their ratios are on the same aircraft.
// 4. per case and gap range: both medians, their ratio, and straight-line dead reckoning on the live
//    samples. the live medians weigh each sample by the number of points its gap was picked among
//    (gaps.ts), so they are over every cruising point alike as the nightly's are; the per-gap
//    (unweighed) medians are shown beside them. then the two cases side by side, as ratios to dead
//    reckoning.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { keys } from '../artifacts/keys.ts';
import type { Accuracy } from '../lib/estimate/accuracy.ts';
import { METHOD_ID } from '../lib/estimate/fly.ts';
import { chooseGaps } from './accuracy/gaps.ts';
import { runPass, type Violations } from './accuracy/drive.ts';
import type { AccuracyFile } from '../artifacts/estimate-accuracy.ts';
import { publish, runNightly, teach, writeHistory } from './accuracy/published.ts';
import { agreement, byRange, RANGES, type LiveSample } from './accuracy/score.ts';
import { halfOf, readTrafficLib } from './accuracy/traffic-lib.ts';

const argv = process.argv.slice(2);
const arg = (name: string, d: number) => {
  const i = argv.indexOf(name);
  const v = i >= 0 ? Number(argv[i + 1]) : d;
  if (!Number.isInteger(v) || v < 0) {
    console.error(`${name} expects a whole number, got ${JSON.stringify(argv[i + 1])}`);
    process.exit(2);
  }
  return v;
};
const path = argv.find((a, i) => !a.startsWith('--') && !['--passes', '--seed', '--cases'].includes(argv[i - 1] ?? ''));
const CASES = ['with', 'without'] as const;
type Case = (typeof CASES)[number];
const casesArg = argv.includes('--cases') ? (argv[argv.indexOf('--cases') + 1] ?? '') : CASES.join(',');
const cases = casesArg.split(',').filter((c): c is Case => (CASES as readonly string[]).includes(c));
if (argv.includes('--help') || !path || !cases.length || cases.length !== casesArg.split(',').length) {
  console.error(
    'usage: npx tsx bench/accuracy-live.ts <path to switzerland.json.gz> [--swap] [--passes N (10)] [--seed N (1)] [--cases with,without]\n' +
      '  replays the traffic through the real server (pinned clock, aircraft.json every 10 s), hiding each scored aircraft\n' +
      '  for up to 30 min from a seeded point per pass, scores /v1/estimated every minute against the truth, and compares\n' +
      '  per gap range with the accuracy the nightly replay publishes for the same aircraft and learned inputs.\n' +
      '  --swap: score the other half (the default scores half 1, as bench/accuracy-switzerland.ts does)\n' +
      '  --cases: with = the flow and paths learned from the other half; without = none learned (a new network); both by default\n' +
      '  a pass takes about a minute on a quiet machine (a case runs its own passes); 3 passes left the medians 10-20 % apart\n' +
      '  by chance, 10 settle them',
  );
  process.exit(argv.includes('--help') ? 0 : 2);
}
const passes = arg('--passes', 10);
const seed = arg('--seed', 1);
const scoredHalf = argv.includes('--swap') ? 0 : 1;
const say = (line: string) => process.stderr.write(line + '\n');

const traffic = readTrafficLib(path);
const { day } = traffic;
const scored = traffic.tracks.filter((t) => halfOf(t.hex) === scoredHalf);
const teachers = traffic.tracks.filter((t) => halfOf(t.hex) !== scoredHalf);
const scratch = mkdtempSync(join(tmpdir(), 'accuracy-live-'));
const fmt = (x: number) => (Number.isFinite(x) ? x.toFixed(2) : '-');

interface CaseResult {
  live: ReturnType<typeof byRange>;
}

/** One case: its tree published, the nightly replayed on it, the live passes, its table printed. */
async function runCase(name: Case, docs: ReadonlyMap<string, unknown>, history: string): Promise<CaseResult> {
  const artifacts = join(scratch, `artifacts-${name}`);
  await publish(artifacts, 'learned', docs);
  say(`case ${name}: nightly replay (build/accuracy/cli.ts) on the scored half ...`);
  const nightly: AccuracyFile = await runNightly(history, day, artifacts, (l) => say(`  ${l}`));
  await publish(artifacts, 'with-accuracy', new Map([...docs, [keys.accuracy(), nightly]]));

  const samples: LiveSample[] = [];
  const violations: Violations = { listedWithin90s: 0, inAircraft: 0, inPoint: 0, inTrace: 0, notFed: 0, schema: 0 };
  let listed = 0;
  let mismatch = 0;
  let unscored = 0;
  let requests = 0;
  let served: Accuracy | null = null;
  const started = performance.now();
  for (let pass = 0; pass < passes; pass++) {
    const gaps = chooseGaps(scored, seed, pass);
    say(`case ${name}, live pass ${pass + 1} of ${passes}: ${gaps.size} aircraft hidden (seed ${seed})`);
    const r = await runPass({ artifacts, scratch, tracks: traffic.tracks, gaps, stepS: 10, askEveryS: 60, progress: say });
    samples.push(...r.samples);
    for (const k of Object.keys(violations) as (keyof Violations)[]) violations[k] += r.violations[k];
    listed += r.listed;
    mismatch += r.lastSeenMismatch;
    unscored += r.unscored;
    requests += r.requests;
    served = r.served;
  }
  const s = Math.round((performance.now() - started) / 1000);

  const live = byRange(samples);
  const published: Pick<Accuracy, 'n' | 'median_km' | 'by_gap_min'> = served ?? { by_gap_min: {}, n: 0, median_km: NaN };
  const what = name === 'with' ? 'flow and paths learned from the other half' : 'nothing learned';
  console.log(
    `\ncase ${name} (${what}): ${METHOD_ID}, ${day}, scored half ${scoredHalf} (${scored.length} aircraft), ${passes} live passes seed ${seed}: ${samples.length} live samples; ${s} s, ${requests} requests`,
  );
  console.log(`served accuracy is the nightly's file: ${served !== null && served.median_km === nightly.median_km && served.n === nightly.n}`);
  console.log(
    '| gap (min) | live n | live median km | nightly n | nightly (published) median km | published / live | within 10 % | live straight-line median km | live method / straight | live median km, per gap | published / live per gap |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|---|---|');
  for (const key of [...RANGES.map((r) => r[0]), 'all']) {
    const l = live[key];
    const p = key === 'all' ? { n: published.n, median_km: published.median_km } : published.by_gap_min[key];
    if (!l && !p) continue;
    const a = l && p ? agreement(p.median_km, l.methodKm) : null;
    const within = a ? (a.within ? 'yes' : a.sameRounded ? 'rounds to it' : 'no') : '-';
    const few = (n: number | undefined) => (n !== undefined && n < 30 ? ' (few)' : '');
    console.log(
      `| ${key} | ${l?.n ?? 0}${few(l?.n)} | ${fmt(l?.methodKm ?? NaN)} | ${p?.n ?? 0}${few(p?.n)} | ${p?.median_km ?? '-'} | ${fmt(a?.ratio ?? NaN)} | ${within} | ${fmt(l?.straightKm ?? NaN)} | ${fmt(l ? l.methodKm / l.straightKm : NaN)} | ${fmt(l?.perGapMethodKm ?? NaN)} | ${fmt(l && p ? p.median_km / l.perGapMethodKm : NaN)} |`,
    );
  }
  console.log(
    `listed estimates asked about: ${listed}; scored ${samples.length}; unscored (aircraft not hidden: they left the data, or no truth then) ${unscored}; last_seen not the feed's last point: ${mismatch}`,
  );
  console.log(
    `issue 12 third target, violations: listed within 90 s of last heard ${violations.listedWithin90s}; in /v1/aircraft ${violations.inAircraft}; in /v2/point ${violations.inPoint}; in /v1/trace ${violations.inTrace}; live records the feed did not give ${violations.notFed}; answers failing their schema ${violations.schema}`,
  );
  return { live };
}

try {
  say(`${traffic.rows} rows, ${traffic.tracks.length} aircraft, ${day}; teaching with ${teachers.length}, scoring ${scored.length} (half ${scoredHalf})`);
  say(`cases: ${cases.join(', ')}`);
  const taught = await teach(day, teachers);
  say(`learned: ${taught.paths} paths, ${taught.flowBins} flow bins; ${taught.routes} routes in the catalog's table`);
  const history = join(scratch, 'history');
  writeHistory(history, day, scored);
  const docsOf = (c: Case) => (c === 'with' ? taught.docs : new Map([...taught.docs].filter(([k]) => k !== keys.flow() && k !== keys.paths())));
  const results = new Map<Case, CaseResult>();
  for (const c of cases) results.set(c, await runCase(c, docsOf(c), history));

  // issue 43: the cases side by side, each as its ratio to straight-line dead reckoning on its own samples
  console.log(`\n${METHOD_ID}, scored half ${scoredHalf}, seed ${seed}, ${passes} passes: the method against straight-line dead reckoning`);
  console.log(`| gap (min) | ${cases.map((c) => `${c}: n | ${c}: method km | ${c}: straight km | ${c}: method / straight`).join(' | ')} |`);
  console.log(`|---|${cases.map(() => '---|---|---|---').join('|')}|`);
  for (const key of [...RANGES.map((r) => r[0]), 'all']) {
    const cells = cases.map((c) => {
      const l = results.get(c)!.live[key];
      return l ? `${l.n} | ${fmt(l.methodKm)} | ${fmt(l.straightKm)} | ${fmt(l.methodKm / l.straightKm)}` : '0 | - | - | -';
    });
    if (cases.every((c) => !results.get(c)!.live[key])) continue;
    console.log(`| ${key} | ${cells.join(' | ')} |`);
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
