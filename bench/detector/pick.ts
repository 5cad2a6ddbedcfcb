// picks the next Monterey grid aircraft to label by hand (test/fixtures/traffic/labels.json), by a
// rule that never runs the detector.
//   npx tsx bench/detector/pick.ts [N]          monterey-grid-2: of the aircraft monterey-grid did
//     not review, those that come within 1,500 ft of a nearby field's elevation (a numeric altitude
//     within the locator's 4 km of a field, or a ground flag there), lowest first, the first N.
//   npx tsx bench/detector/pick.ts --rest [N]   monterey-grid-3: of the aircraft neither monterey-grid
//     nor monterey-grid-2 reviewed, those heard below 3,000 ft above sea level anywhere (a numeric
//     altitude, or a ground flag as 0), lowest first, the first N.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadProjectLocator, loadSource } from '../../test/helpers/detector-sources.ts';
import { TRAFFIC } from '../../test/helpers/traffic.ts';

const args = process.argv.slice(2);
const rest = args[0] === '--rest';
const arg = rest ? args[1] : args[0];
if (args.includes('--help') || (arg !== undefined && !/^\d+$/.test(arg)) || args.length > (rest ? 2 : 1)) {
  console.log('usage: npx tsx bench/detector/pick.ts [--rest] [N]   (default 40; --rest: the monterey-grid-3 rule)');
  process.exit(args.includes('--help') ? 0 : 2);
}
const n = arg ? Number(arg) : 40;
const labels = JSON.parse(readFileSync(join(TRAFFIC, 'labels.json'), 'utf8')) as { sources: Record<string, { reviewed: 'all' | string[] }> };
const reviewed = (name: string) => (labels.sources[name]?.reviewed ?? []) as string[];
const earlier = new Set([...reviewed('monterey-grid'), ...(rest ? reviewed('monterey-grid-2') : [])]);
const loc = loadProjectLocator();
const limit = rest ? 3000 : 1500;
const rows: [string, number, number][] = [];
for (const [hex, pts] of loadSource('monterey-grid').tracks) {
  if (earlier.has(hex)) continue;
  let low = Infinity;
  for (const p of pts) {
    if (rest) {
      if (p.alt === 'ground' || typeof p.alt === 'number') low = Math.min(low, p.alt === 'ground' ? 0 : p.alt);
      continue;
    }
    const f = loc.nearest(p.lat, p.lon);
    if (!f) continue;
    const h = p.alt === 'ground' ? 0 : typeof p.alt === 'number' ? p.alt - (f.airport.elevation_ft ?? 0) : Infinity;
    low = Math.min(low, h);
  }
  if (low < limit) rows.push([hex, low, pts.length]);
}
rows.sort((a, b) => a[1] - b[1] || a[0].localeCompare(b[0]));
console.log(
  `${rows.length} unread aircraft come within ${limit.toLocaleString('en')} ft ${rest ? 'of sea level' : 'of a field'}; the lowest ${Math.min(n, rows.length)}:`,
);
for (const [hex, low, len] of rows.slice(0, n)) console.log(`${hex}\t${low} ft\t${len} pts`);
