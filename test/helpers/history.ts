// globe_history trees for the flight-log tests, made from the real traces in data/sample and test/fixtures/traffic.
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync, gzipSync } from 'node:zlib';
import type { Locate } from '../../build/log/legs.ts';

export const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'traffic');
/** the eastham sample: 22 real files in 2023/08/30 (filed under the day of their points) */
export const SAMPLE_TREE = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'data', 'sample', 'globe_history');

// reference points from OurAirports airports.csv.gz (data/ref/ourairports, Unlicense):
// ident, latitude_deg, longitude_deg
export const TEST_AIRPORTS: readonly [string, number, number][] = [
  ['KMSP', 44.880081, -93.221741], // Minneapolis-Saint Paul International
  ['KDEN', 39.860027, -104.673792], // Denver International
  ['88NV', 40.757303, -119.212861], // Black Rock City Airport
];

/** a tiny locator: the nearest test airport within 5 km of the point (equirectangular distance); no runway */
export const testLocate: Locate = ({ lat, lon }) => {
  let best: string | null = null;
  let bestKm = 5;
  for (const [ident, alat, alon] of TEST_AIRPORTS) {
    const x = (alon - lon) * 111.195 * Math.cos((lat * Math.PI) / 180);
    const y = (alat - lat) * 111.195;
    const km = Math.hypot(x, y);
    if (km <= bestKm) {
      best = ident;
      bestKm = km;
    }
  }
  return best === null ? null : { ident: best, runway: null };
};

export type TraceDoc = { icao: string; timestamp: number; trace: unknown[][] } & Record<string, unknown>;

/** the Delta 737-900 ac671b, 2025-02-04 21:13 to 2025-02-05 19:54 UTC, as one trace_full document */
export function ac671b(): TraceDoc {
  return JSON.parse(gunzipSync(readFileSync(join(FIXTURES, 'trace_full_ac671b.json.gz'))).toString('utf8')) as TraceDoc;
}

/** One trace_full split at each UTC midnight, as readsb's globe_history writes one file per day. */
export function splitByDay(doc: TraceDoc): Map<string, TraceDoc> {
  const out = new Map<string, TraceDoc>();
  for (const row of doc.trace) {
    const t = doc.timestamp + (row[0] as number);
    const day = new Date(t * 1000).toISOString().slice(0, 10);
    const midnight = Date.parse(`${day}T00:00:00Z`) / 1000;
    let part = out.get(day);
    if (!part) out.set(day, (part = { ...doc, timestamp: midnight, trace: [] }));
    part.trace.push([Math.round((t - midnight) * 100) / 100, ...row.slice(1)]);
  }
  return out;
}

export function tempDir(prefix = 'contrail-log-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** path of a trace file in a globe_history tree */
export function tracePath(root: string, day: string, hex: string): string {
  const [y, m, d] = day.split('-');
  return join(root, y!, m!, d!, 'traces', hex.slice(-2), `trace_full_${hex}.json`);
}

/** Writes raw bytes (or a document, gzipped as readsb does) at a path in the tree, folders made. */
export function putFile(path: string, content: Buffer | string | TraceDoc): string {
  mkdirSync(dirname(path), { recursive: true });
  const bytes = Buffer.isBuffer(content) || typeof content === 'string' ? content : gzipSync(JSON.stringify(content));
  writeFileSync(path, bytes);
  return path;
}

/** the ac671b trace split at midnight into a two-day tree (2025-02-04, 2025-02-05); returns the root */
export function midnightTree(root = tempDir()): string {
  for (const [day, part] of splitByDay(ac671b())) putFile(tracePath(root, day, 'ac671b'), part);
  return root;
}
