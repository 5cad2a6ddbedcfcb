// measure the estimate method against plain dead reckoning on real cruise traffic over switzerland
// (traffic library sample, 10 s sampling, one day in 2018). local measurement only: the file is not
// part of the project; pass its path.
//   npx tsx bench/accuracy-switzerland.ts <path to traffic-lib switzerland.json.gz> (local measurement data, never committed)
// destinations come from what a live server would know for this traffic: the shipped community
// route catalog (data/ref), looked up by callsign as broadcast, else in the catalog's spelling; the
// route's last airport. never the flight's own observed end (that would flatter the turn).
import { loadRefdata } from '../lib/reference/index.ts';
import { refViewOf } from '../artifacts/reference-view-adapter.ts';
import { evaluate } from '../lib/estimate/accuracy.ts';
import { BASELINE_ID, METHOD_ID } from '../lib/estimate/fly.ts';
import { emptyFlow, learnFlow } from '../lib/estimate/flow.ts';
import { learnPaths, pathSet } from '../lib/estimate/paths.ts';
import { halfOf, readTrafficLib } from './accuracy/traffic-lib.ts';

const path = process.argv[2];
if (!path || path === '--help') {
  console.error(
    'usage: npx tsx bench/accuracy-switzerland.ts <path to switzerland.json.gz> [--swap] [--no-flow] [--no-paths]\n' +
      '  the flow and the paths are learned from half the aircraft and scored on the other half (--swap: the other way round);\n' +
      '  --no-flow, --no-paths: without them',
  );
  process.exit(path ? 0 : 2);
}

const { day, rows, tracks } = readTrafficLib(path);

const ref = refViewOf(await loadRefdata());
let asked = 0;
let known = 0;
const seen = new Set<string>();
const destinationOf = (cs: string) => {
  const stops = ref.catalogRoute(cs) ?? ((k) => (k ? ref.catalogRoute(k) : null))(ref.catalogKey(cs));
  const a = stops ? ref.airportByCode(stops[stops.length - 1]!) : null;
  if (!seen.has(cs)) {
    seen.add(cs);
    asked++;
    if (a) known++;
  }
  return a ? { lat: a.lat, lon: a.lon } : null;
};
const gapsMin = [2, 5, 10, 15, 20, 25];
// the traffic flow may not see the aircraft it is scored on: half the aircraft (by a hash of the
// address) teach it, the other half are scored, and the table says which half
const scoredHalf = process.argv.includes('--swap') ? 0 : 1;
const learners = tracks.filter((t) => halfOf(t.hex) !== scoredHalf);
const scored = tracks.filter((t) => halfOf(t.hex) === scoredHalf);
const flow = emptyFlow();
const learned = learnFlow(
  flow,
  learners.map((t) => [...t.points].sort((a, b) => a.t - b.t)),
);
const paths = pathSet(learnPaths(day, learners, destinationOf));
// the callsign count below is of the scored half only
[asked, known] = [0, 0];
seen.clear();
const started = performance.now();
const res = evaluate(day, scored, {
  gapsMin,
  strideS: 60,
  destinationOf,
  flow: process.argv.includes('--no-flow') ? null : flow,
  paths: process.argv.includes('--no-paths') ? null : paths,
});
const ms = performance.now() - started;

console.log(`${rows} rows, ${tracks.length} aircraft, day ${day}; gaps tried (min): ${gapsMin.join(', ')}; ${ms.toFixed(0)} ms`);
console.log(
  `flow and paths learned from ${learners.length} aircraft (${learned} cruise points, ${flow.bins.size} bins; ${paths.paths.length} paths); scored on the other ${scored.length} (half ${scoredHalf})`,
);
console.log(`callsigns with a catalog destination: ${known} of ${asked}`);
console.log(`| gap (min) | n | ${METHOD_ID} median km | ${BASELINE_ID} median km | ratio |`);
console.log('|---|---|---|---|---|');
for (const key of Object.keys(res.method.by_gap_min)) {
  const m = res.method.by_gap_min[key]!;
  const s = res.straight.by_gap_min[key]!;
  console.log(`| ${key} | ${m.n} | ${m.median_km} | ${s.median_km} | ${(m.median_km / s.median_km).toFixed(2)} |`);
}
console.log(`| all | ${res.method.n} | ${res.method.median_km} | ${res.straight.median_km} | ${(res.method.median_km / res.straight.median_km).toFixed(2)} |`);
