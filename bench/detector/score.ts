// prints the take-off/landing detector's precision and recall per source against the hand-labelled
// real traces (test/fixtures/traffic/labels.json; scoring in test/helpers/detector-score.ts).
//   npx tsx bench/detector/score.ts [--verbose] [--baseline] [source ...]
// --verbose lists every miss, false detection and wrong airport; --runways the airport and runway end
// placed for every matched event; --baseline runs the detector
// without airfield knowledge (as it was before it had any). naming sources scores only those (a
// held-out source is scored once, when the detector is done: leave it out while tuning).
import { SOURCE_NAMES, loadProjectLocator, type SourceName } from '../../test/helpers/detector-sources.ts';
import { scoreSource, TOLERANCE_S } from '../../test/helpers/detector-score.ts';

const args = process.argv.slice(2);
const isSource = (a: string): a is SourceName => (SOURCE_NAMES as readonly string[]).includes(a);
if (args.includes('--help') || args.some((a) => !['--verbose', '--baseline', '--runways'].includes(a) && !isSource(a))) {
  console.log(`usage: npx tsx bench/detector/score.ts [--verbose] [--baseline] [--runways] [${SOURCE_NAMES.join('|')} ...]`);
  process.exit(args.includes('--help') ? 0 : 2);
}
const named = args.filter(isSource);
const locator = loadProjectLocator();
const scores = (named.length ? named : SOURCE_NAMES).map((n) => scoreSource(n, locator, args.includes('--baseline')));
if (args.includes('--verbose')) for (const s of scores) for (const n of s.notes) console.log(n);
// --runways: the airport and runway end the log records for every matched event
if (args.includes('--runways'))
  for (const s of scores)
    for (const p of s.placed)
      console.log(`${s.name} ${p.hex} ${p.kind} ${new Date(p.t * 1000).toISOString().slice(11, 19)} ${p.airport ?? '-'} ${p.runway ?? '-'}`);
const ratio = (a: number, b: number) => (b ? (a / b).toFixed(3) : '-');
const rows = [['source', 'held out', 'labelled', 'found', 'matched', 'precision', 'recall', 'airport ok', 'runway named', 'median |dt| s']];
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
    ratio(s.runways, s.matched),
    s.dts.length ? String(Math.round(s.dts[s.dts.length >> 1]!)) : '-',
  ]);
}
const sum = (k: 'labelled' | 'found' | 'matched' | 'airportOk' | 'runways') => scores.reduce((n, s) => n + s[k], 0);
rows.push([
  'all',
  '',
  String(sum('labelled')),
  String(sum('found')),
  String(sum('matched')),
  ratio(sum('matched'), sum('found')),
  ratio(sum('matched'), sum('labelled')),
  ratio(sum('airportOk'), sum('matched')),
  ratio(sum('runways'), sum('matched')),
  '',
]);
const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
console.log(`take-offs and landings within ±${TOLERANCE_S} s of the hand label\n`);
for (const r of rows) console.log(r.map((c, i) => c.padEnd(widths[i]!)).join('  '));
