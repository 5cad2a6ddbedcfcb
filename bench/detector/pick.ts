// picks the next Monterey grid aircraft to label by hand (test/fixtures/traffic/labels.json,
// source monterey-grid-2), by a rule that never runs the detector: of the aircraft no earlier
// source reviewed, those that come within 1,500 ft of a nearby field's elevation (a numeric
// altitude within the locator's 4 km of a field, or a ground flag there), lowest first, the first N.
//   npx tsx bench/detector/pick.ts [N]
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadProjectLocator, loadSource } from '../../test/helpers/detector-sources.ts';
import { TRAFFIC } from '../../test/helpers/traffic.ts';

const arg = process.argv[2];
if (arg === '--help' || (arg !== undefined && !/^\d+$/.test(arg))) {
  console.log('usage: npx tsx bench/detector/pick.ts [N]   (default 40)');
  process.exit(arg === '--help' ? 0 : 2);
}
const n = arg ? Number(arg) : 40;
const labels = JSON.parse(readFileSync(join(TRAFFIC, 'labels.json'), 'utf8')) as { sources: Record<string, { reviewed: 'all' | string[] }> };
const earlier = new Set(labels.sources['monterey-grid']!.reviewed as string[]);
const loc = loadProjectLocator();
const rows: [string, number, number][] = [];
for (const [hex, pts] of loadSource('monterey-grid').tracks) {
  if (earlier.has(hex)) continue;
  let low = Infinity;
  for (const p of pts) {
    const f = loc.nearest(p.lat, p.lon);
    if (!f) continue;
    const h = p.alt === 'ground' ? 0 : typeof p.alt === 'number' ? p.alt - (f.airport.elevation_ft ?? 0) : Infinity;
    low = Math.min(low, h);
  }
  if (low < 1500) rows.push([hex, low, pts.length]);
}
rows.sort((a, b) => a[1] - b[1] || a[0].localeCompare(b[0]));
console.log(`${rows.length} unread aircraft come within 1,500 ft of a field; the lowest ${Math.min(n, rows.length)}:`);
for (const [hex, low, len] of rows.slice(0, n)) console.log(`${hex}\t${low} ft\t${len} pts`);
