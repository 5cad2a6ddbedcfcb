// issue 12's second target, checked: is the `accuracy` the nightly publishes within 10 % of what an
// independent replay of real traffic through the real server measures for the same method?
//   npx tsx bench/accuracy-live.ts <path to traffic-lib switzerland.json.gz> [--swap] [--passes N] [--seed N]
// local measurement data: the file is never committed nor read by project code or tests.
//
// 1. half the aircraft (by a hash of the address) teach the flow and the paths; the routes table is
//    the shipped catalog's (bench/accuracy/published.ts). published as an artifact tree.
// 2. the nightly replay (build/accuracy/cli.ts, lib/estimate/accuracy.ts) runs on the other half,
//    written as a globe_history day, and its figures are published in the tree as `accuracy`.
// 3. the live replay (bench/accuracy/drive.ts): the real server on that tree, its clock pinned, fed
//    the whole day as aircraft.json every 10 s, each scored aircraft hidden for up to 30 minutes from
//    a seeded point (bench/accuracy/gaps.ts); every minute /v1/estimated is asked over HTTP and each
//    listed estimate is compared with where the aircraft was (bench/accuracy/score.ts).
// 4. per gap range: both medians, their ratio, and straight-line dead reckoning on the live samples.
//    the live medians weigh each sample by the number of points its gap was picked among (gaps.ts),
//    so they are over every cruising point alike as the nightly's are; the per-gap (unweighed)
//    medians are shown beside them.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { keys } from '../artifacts/keys.ts';
import type { Accuracy } from '../lib/estimate/accuracy.ts';
import { METHOD_ID } from '../lib/estimate/fly.ts';
import { chooseGaps } from './accuracy/gaps.ts';
import { runPass, type Violations } from './accuracy/drive.ts';
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
const path = argv.find((a, i) => !a.startsWith('--') && !['--passes', '--seed'].includes(argv[i - 1] ?? ''));
if (argv.includes('--help') || !path) {
  console.error(
    'usage: npx tsx bench/accuracy-live.ts <path to switzerland.json.gz> [--swap] [--passes N (10)] [--seed N (1)]\n' +
      '  replays the traffic through the real server (pinned clock, aircraft.json every 10 s), hiding each scored aircraft\n' +
      '  for up to 30 min from a seeded point per pass, scores /v1/estimated every minute against the truth, and compares\n' +
      '  per gap range with the accuracy the nightly replay publishes for the same aircraft and learned inputs.\n' +
      '  --swap: score the other half (the default scores half 1, as bench/accuracy-switzerland.ts does)\n' +
      '  a pass takes about a minute; 3 passes left the medians 10-20 % apart by chance, 10 settle them',
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
try {
  say(`${traffic.rows} rows, ${traffic.tracks.length} aircraft, ${day}; teaching with ${teachers.length}, scoring ${scored.length} (half ${scoredHalf})`);
  const taught = await teach(day, teachers);
  say(`learned: ${taught.paths} paths, ${taught.flowBins} flow bins; ${taught.routes} routes in the catalog's table`);
  const artifacts = join(scratch, 'artifacts');
  await publish(artifacts, 'learned', taught.docs);
  const history = join(scratch, 'history');
  writeHistory(history, day, scored);
  say('nightly replay (build/accuracy/cli.ts) on the scored half ...');
  const nightly = await runNightly(history, day, artifacts, (l) => say(`  ${l}`));
  await publish(artifacts, 'with-accuracy', new Map([...taught.docs, [keys.accuracy(), nightly]]));

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
    say(`live pass ${pass + 1} of ${passes}: ${gaps.size} aircraft hidden (seed ${seed})`);
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
  const fmt = (x: number) => (Number.isFinite(x) ? x.toFixed(2) : '-');
  console.log(`${METHOD_ID}, ${day}, scored half ${scoredHalf} (${scored.length} aircraft), ${passes} live passes seed ${seed}: ${samples.length} live samples; ${s} s, ${requests} requests`);
  console.log(`served accuracy is the nightly's file: ${served !== null && served.median_km === nightly.median_km && served.n === nightly.n}`);
  console.log('| gap (min) | live n | live median km | nightly n | nightly (published) median km | published / live | within 10 % | live straight-line median km | live method / straight | live median km, per gap | published / live per gap |');
  console.log('|---|---|---|---|---|---|---|---|---|---|---|');
  for (const key of [...RANGES.map((r) => r[0]), 'all']) {
    const l = live[key];
    const p = key === 'all' ? { n: published.n, median_km: published.median_km } : published.by_gap_min[key];
    if (!l && !p) continue;
    const a = l && p ? agreement(p.median_km, l.methodKm) : null;
    const within = a ? (a.within ? 'yes' : a.sameRounded ? 'rounds to it' : 'no') : '-';
    const few = (n: number | undefined) => (n !== undefined && n < 30 ? ' (few)' : '');
    console.log(`| ${key} | ${l?.n ?? 0}${few(l?.n)} | ${fmt(l?.methodKm ?? NaN)} | ${p?.n ?? 0}${few(p?.n)} | ${p?.median_km ?? '-'} | ${fmt(a?.ratio ?? NaN)} | ${within} | ${fmt(l?.straightKm ?? NaN)} | ${fmt(l ? l.methodKm / l.straightKm : NaN)} | ${fmt(l?.perGapMethodKm ?? NaN)} | ${fmt(l && p ? p.median_km / l.perGapMethodKm : NaN)} |`);
  }
  console.log(`listed estimates asked about: ${listed}; scored ${samples.length}; unscored (aircraft not hidden: they left the data, or no truth then) ${unscored}; last_seen not the feed's last point: ${mismatch}`);
  console.log(`issue 12 third target, violations: listed within 90 s of last heard ${violations.listedWithin90s}; in /v1/aircraft ${violations.inAircraft}; in /v2/point ${violations.inPoint}; in /v1/trace ${violations.inTrace}; live records the feed did not give ${violations.notFed}; answers failing their schema ${violations.schema}`);
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
