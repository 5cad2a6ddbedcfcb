// prints the take-off/landing detector's precision and recall per source against the hand-labelled
// real traces (test/fixtures/traffic/labels.json; scoring in test/helpers/detector-score.ts).
//   npx tsx bench/detector/score.ts [--verbose] [--baseline] [source ...]
// --verbose lists every miss, false detection and wrong airport; --baseline runs the detector
// without airfield knowledge (as it was before it had any). naming sources scores only those (a
// held-out source is scored once, when the detector is done: leave it out while tuning).
import { SOURCE_NAMES, loadProjectLocator, type SourceName } from '../../test/helpers/detector-sources.ts';
import { scoreSource, TOLERANCE_S } from '../../test/helpers/detector-score.ts';

const args = process.argv.slice(2);
const isSource = (a: string): a is SourceName => (SOURCE_NAMES as readonly string[]).includes(a);
if (args.includes('--help') || args.some((a) => !['--verbose', '--baseline'].includes(a) && !isSource(a))) {
  console.log(`usage: npx tsx bench/detector/score.ts [--verbose] [--baseline] [${SOURCE_NAMES.join('|')} ...]`);
  process.exit(args.includes('--help') ? 0 : 2);
}
const named = args.filter(isSource);
const locator = loadProjectLocator();
const scores = (named.length ? named : SOURCE_NAMES).map((n) => scoreSource(n, locator, args.includes('--baseline')));
if (args.includes('--verbose')) for (const s of scores) for (const n of s.notes) console.log(n);
const ratio = (a: number, b: number) => (b ? (a / b).toFixed(3) : '-');
const rows = [['source', 'held out', 'labelled', 'found', 'matched', 'precision', 'recall', 'airport ok', 'median |dt| s']];
for (const s of scores) {
  rows.push([
    s.name,
    s.heldOut ? 'yes' : 'no',
    String(s.labelled),
    String(s.found),
    String(s.matched),
    ratio(s.matched, s.found),
    ratio(s.matched, s.labelled),
    ratio(s.airportOk, s.matched),
    s.dts.length ? String(Math.round(s.dts[s.dts.length >> 1]!)) : '-',
  ]);
}
const sum = (k: 'labelled' | 'found' | 'matched' | 'airportOk') => scores.reduce((n, s) => n + s[k], 0);
rows.push([
  'all',
  '',
  String(sum('labelled')),
  String(sum('found')),
  String(sum('matched')),
  ratio(sum('matched'), sum('found')),
  ratio(sum('matched'), sum('labelled')),
  ratio(sum('airportOk'), sum('matched')),
  '',
]);
const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
console.log(`take-offs and landings within ±${TOLERANCE_S} s of the hand label\n`);
for (const r of rows) console.log(r.map((c, i) => c.padEnd(widths[i]!)).join('  '));
