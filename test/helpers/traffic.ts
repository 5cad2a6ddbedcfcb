// loads the real-traffic fixtures of test/fixtures/traffic (see its CREDITS.md).
import { readFileSync, readdirSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { join } from 'node:path';
import { parseTraceFull, type ParsedTrace } from '../../lib/readsb-trace.ts';
import type { TrackPoint } from '../../lib/detector.ts';

export const TRAFFIC = join(import.meta.dirname, '..', 'fixtures', 'traffic');
// the globe_history sample is the project's bundled sample input (data/sample), one copy for all
const SAMPLE = join(import.meta.dirname, '..', '..', 'data', 'sample', 'globe_history', '2023', '08', '30', 'traces');

/** gunzips when the bytes are gzip (readsb writes gzip under a .json name) */
export function readMaybeGzip(path: string): string {
  const b = readFileSync(path);
  return (b[0] === 0x1f && b[1] === 0x8b ? gunzipSync(b) : b).toString('utf8');
}

/** one trace_full of the globe_history sample, by hex */
export function sampleTrace(hex: string): ParsedTrace {
  return parseTraceFull(JSON.parse(readMaybeGzip(join(SAMPLE, hex.slice(-2), `trace_full_${hex}.json`))));
}

/** the hexes of every file in the globe_history sample */
export function sampleHexes(): string[] {
  return readdirSync(SAMPLE)
    .flatMap((d) => readdirSync(join(SAMPLE, d)))
    .map((f) => /^trace_full_([0-9a-f]{6})\.json$/.exec(f)?.[1])
    .filter((h): h is string => h !== undefined)
    .sort();
}

export function ac671b(): ParsedTrace {
  return parseTraceFull(JSON.parse(readMaybeGzip(join(TRAFFIC, 'trace_full_ac671b.json.gz'))));
}

/** a position stream (one JSON line per position: now, hex, alt_baro, gscp, lat, lon, track),
 * grouped per aircraft, oldest first. 88nv writes ground as altitude 0 (a number, kept as one: the
 * detector knows the field is at 3,912 ft); the Monterey grid writes the string "0", read as the
 * ground flag it stands for, and its speed 0 with no track is the recorder's "no velocity", read as unknown. */
export type StreamName = '88nv_20230829_1hr' | '88nv_20230830_20min' | 'grid_20250601_36_-122' | 'grid_20250602_36_-122' | 'kwvi_20251213_5nm';

/** the grid recorder's days and the KWVI day (both eastham's readsb-trace converter) share its conventions */
export function positionStream(name: StreamName): Map<string, TrackPoint[]> {
  const by = new Map<string, TrackPoint[]>();
  const grid = name.startsWith('grid') || name.startsWith('kwvi');
  for (const line of readMaybeGzip(join(TRAFFIC, `${name}.jsonl.gz`)).split('\n')) {
    if (!line.trim()) continue;
    const r = JSON.parse(line) as Record<string, unknown>;
    if (typeof r.hex !== 'string' || typeof r.lat !== 'number' || typeof r.lon !== 'number' || typeof r.now !== 'number') continue;
    const a = by.get(r.hex) ?? [];
    by.set(r.hex, a);
    a.push({
      t: r.now,
      lat: r.lat,
      lon: r.lon,
      alt: typeof r.alt_baro === 'number' ? r.alt_baro : typeof r.alt_baro === 'string' ? 'ground' : null,
      // the grid recorder writes gs 0 with no track when a message carried no velocity
      gs: typeof r.gscp === 'number' && !(grid && r.gscp === 0 && r.track == null) ? r.gscp : null,
      track: typeof r.track === 'number' ? r.track : null,
    });
  }
  for (const a of by.values()) a.sort((x, y) => x.t - y.t);
  return by;
}
