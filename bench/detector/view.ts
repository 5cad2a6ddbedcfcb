// prints every low-level episode of a source as text, to label take-offs and landings by hand
// (test/fixtures/traffic/labels.json). it never runs the detector: what you label is what the
// trace shows, not what the code found.
//   npx tsx bench/detector/view.ts [--fine] <source> [hex [from to]]
// --fine (how the circuits round's sources were labelled): only what happens within 800 ft of a field it
// is near: every point below 300 ft above it, and above that each 100 ft step, each gap over 20 s and
// the first and last point of each such run; the flight between runs is one line. a touch-and-go's few
// points near the runway are all there, and a day of circuits stays readable.
import type { TrackPoint } from '../../lib/detector.ts';
import { loadProjectLocator, loadSource, SOURCE_NAMES, type SourceName } from '../../test/helpers/detector-sources.ts';

const argv = process.argv.slice(2);
const fine = argv[0] === '--fine';
const [name, only, fromS, toS] = fine ? argv.slice(1) : argv;
// with a time range (unix seconds): every point in it, unabridged
const from = fromS ? Number(fromS) : -Infinity;
const to = toS ? Number(toS) : Infinity;
if (!name || !SOURCE_NAMES.includes(name as SourceName)) {
  console.error(`usage: npx tsx bench/detector/view.ts [--fine] <${SOURCE_NAMES.join('|')}> [hex [from to]]`);
  process.exit(name === '--help' ? 0 : 2);
}
const src = loadSource(name as SourceName);
const loc = loadProjectLocator();
const hhmmss = (t: number) => new Date(t * 1000).toISOString().slice(11, 19);

for (const [hex, pts] of [...src.tracks].sort()) {
  if (only && hex !== only) continue;
  if (fine) {
    fineView(hex, pts);
    continue;
  }
  // a point is "low" when it says ground or is within 1,500 ft of a field it is near (for
  // monterey-grid-3, picked by altitude alone, also when it is below 3,000 ft above sea level)
  const low = pts.map((p) => {
    if (p.alt === 'ground') return true;
    if (name === 'monterey-grid-3' && typeof p.alt === 'number' && p.alt < 3000) return true;
    const f = loc.nearest(p.lat, p.lon);
    return typeof p.alt === 'number' && f !== null && p.alt - (f.airport.elevation_ft ?? 0) < 1500;
  });
  if (!low.some(Boolean)) continue;
  console.log(`\n=== ${hex} ${pts.length} pts ${hhmmss(pts[0]!.t)}-${hhmmss(pts[pts.length - 1]!.t)}`);
  let lastPrinted = -Infinity;
  let lastAlt: number | string | null = null;
  let lastBand = -1;
  const band = (gs: number | null | undefined) => (gs == null ? -1 : gs < 10 ? 0 : gs < 40 ? 1 : gs < 80 ? 2 : 3);
  for (let i = 0; i < pts.length; i++) {
    const near = low.slice(Math.max(0, i - 3), i + 4).some(Boolean);
    const p = pts[i]!;
    const gap = i > 0 ? p.t - pts[i - 1]!.t : 0;
    const changed = typeof p.alt !== typeof lastAlt || (typeof p.alt === 'number' && Math.abs(p.alt - (lastAlt as number)) >= 150) || band(p.gs) !== lastBand;
    const edge = i === 0 || i === pts.length - 1;
    if (p.t < from || p.t > to) continue;
    if (from === -Infinity && !edge && gap < 60 && (near ? !changed && p.t - lastPrinted < 60 : p.t - lastPrinted < 600)) continue;
    lastAlt = p.alt;
    lastBand = band(p.gs);
    const f = loc.nearest(p.lat, p.lon);
    const fs = f ? `${f.airport.ident}(${f.airport.elevation_ft ?? '?'}) ${f.km.toFixed(2)}km` : '-';
    console.log(
      `${i}\t${hhmmss(p.t)}\t${p.t}\t${p.alt}\t${p.gs ?? '-'}\t${p.track != null ? Math.round(p.track) : '-'}\t${fs}${gap > 60 ? `\tgap ${Math.round(gap)}s` : ''}${near ? '' : '\t(...)'}`,
    );
    lastPrinted = p.t;
  }
}

/** --fine: see the top of the file */
function fineView(hex: string, pts: TrackPoint[]): void {
  const height = (p: TrackPoint): [number, string] | null => {
    const f = loc.nearest(p.lat, p.lon);
    if (!f) return null;
    const h = p.alt === 'ground' ? 0 : typeof p.alt === 'number' ? p.alt - (f.airport.elevation_ft ?? 0) : null;
    return h !== null && h < 800 ? [h, `${f.airport.ident}(${f.airport.elevation_ft ?? '?'}) ${f.km.toFixed(2)}km`] : null;
  };
  const low = pts.map(height);
  if (!low.some(Boolean)) return;
  console.log(`\n=== ${hex} ${pts.length} pts ${hhmmss(pts[0]!.t)}-${hhmmss(pts[pts.length - 1]!.t)}`);
  let lastAlt: number | string | null = null;
  let away: number[] = [];
  const flushAway = () => {
    if (!away.length) return;
    const alts = away.map((i) => pts[i]!.alt).filter((a): a is number => typeof a === 'number');
    const a = pts[away[0]!]!;
    const b = pts[away[away.length - 1]!]!;
    console.log(`  ... ${away.length} pts ${hhmmss(a.t)}-${hhmmss(b.t)} away/high${alts.length ? ` ${Math.min(...alts)}-${Math.max(...alts)} ft` : ''}`);
    away = [];
  };
  for (let i = 0; i < pts.length; i++) {
    const p = pts[i]!;
    if (p.t < from || p.t > to) continue;
    const l = low[i];
    if (!l) {
      away.push(i);
      lastAlt = null;
      continue;
    }
    flushAway();
    const gap = i > 0 ? p.t - pts[i - 1]!.t : 0;
    const runEdge = !low[i - 1] || !low[i + 1];
    const step = typeof p.alt !== 'number' || typeof lastAlt !== 'number' || Math.abs(p.alt - lastAlt) >= 100;
    if (!(l[0] < 300 || runEdge || step || gap > 20)) continue;
    lastAlt = p.alt;
    console.log(
      `${i}\t${hhmmss(p.t)}\t${p.t}\t${p.alt}\t${p.gs ?? '-'}\t${p.track != null ? Math.round(p.track) : '-'}\t${l[1]}${gap > 20 ? `\tgap ${Math.round(gap)}s` : ''}`,
    );
  }
  flushAway();
}
