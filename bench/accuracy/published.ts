// what the nightly would have given the live server for the replayed traffic, made with the
// nightly's own code: the routes table of the shipped community catalog (computeRoutes with no
// log evidence: every route is the catalog's row that passes its checks) and the airport lookup,
// the traffic flow and paths learned from the teaching half, published as an artifact tree; the
// scored half written as a readsb globe_history day; and the nightly accuracy step run on it.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { refViewOf } from '../../artifacts/reference-view-adapter.ts';
import { indexReviews, parseReviewCsv } from '../../artifacts/catalog-review.ts';
import { decodeRoutesTable, destinationLookup, encodeLookup, encodeRoutesTable, type Destination } from '../../artifacts/meta.ts';
import { keys } from '../../artifacts/keys.ts';
import { main as nightlyAccuracy } from '../../build/accuracy/cli.ts';
import { computeRoutes } from '../../build/steps/routes/build.ts';
import { commit, stage } from '../../build/publish/publish.ts';
import { addDays } from '../../build/history/scan.ts';
import type { ObservedTrack } from '../../lib/estimate/accuracy.ts';
import { emptyFlow, encodeFlow, learnFlow } from '../../lib/estimate/flow.ts';
import { encodePaths, learnPaths } from '../../lib/estimate/paths.ts';
import { installed } from '../../lib/install.ts';
import { loadRefdata } from '../../lib/reference/index.ts';
import type { AccuracyFile } from '../../artifacts/estimate-accuracy.ts';

export interface Taught {
  /** the server's documents by key: routes table, lookup, flow, paths */
  docs: Map<string, unknown>;
  /** the live server's destination lookup over them */
  destinationOf: (callsign: string) => Destination | null;
  routes: number;
  paths: number;
  flowBins: number;
}

/**
 * The documents a night would publish, learned from `teachers`. Flow and paths are dated the day
 * before `day`: they were learned from other aircraft of the same day (the split keeps them from
 * the scored ones), and the nightly replay refuses what is dated the replayed day.
 */
export async function teach(day: string, teachers: readonly ObservedTrack[]): Promise<Taught> {
  const ref = refViewOf(await loadRefdata());
  const review = installed('data/catalog-review.csv');
  const reviews = indexReviews(parseReviewCsv(readFileSync(review), review).entries);
  const routesDoc = encodeRoutesTable(computeRoutes(new Map(), ref, reviews, 'auto').table);
  const lookup = encodeLookup(ref);
  const destinationOf = destinationLookup(decodeRoutesTable(routesDoc), lookup);
  const flow = emptyFlow();
  learnFlow(
    flow,
    teachers.map((t) => t.points),
  );
  const paths = learnPaths(day, teachers, destinationOf);
  const through = addDays(day, -1);
  const docs = new Map<string, unknown>([
    [keys.routesTable(), routesDoc],
    [keys.lookup(), lookup],
    [keys.flow(), encodeFlow(flow, through)],
    [keys.paths(), encodePaths(paths, through)],
  ]);
  return { docs, destinationOf, routes: Object.keys(routesDoc).length, paths: paths.length, flowBins: flow.bins.size };
}

/** Publish the documents as the current version `id` of the tree at `root`. */
export async function publish(root: string, id: string, docs: ReadonlyMap<string, unknown>): Promise<void> {
  const staged = stage(root, id);
  for (const [key, doc] of docs) staged.writer.put(key, doc);
  await staged.writer.flush();
  staged.writer.writeManifest({ build_id: id, built_at: new Date().toISOString(), archive_through: null, window_days: 0, counts: {} });
  await staged.writer.close();
  commit(root, staged);
}

/** The tracks as readsb writes a day of globe_history: one trace_full per aircraft, the callsign in a row's details when it changes. */
export function writeHistory(root: string, day: string, tracks: readonly ObservedTrack[]): void {
  const [y, m, d] = day.split('-');
  const midnight = Date.parse(`${day}T00:00:00Z`) / 1000;
  for (const { hex, points } of tracks) {
    let callsign: string | undefined;
    const trace = points.map((p) => {
      const details = p.callsign !== callsign ? { flight: p.callsign } : null;
      callsign = p.callsign;
      return [Math.round((p.t - midnight) * 100) / 100, p.lat, p.lon, p.alt ?? null, p.gs ?? null, p.track ?? null, 0, p.rate ?? null, details];
    });
    const dir = join(root, y!, m!, d!, 'traces', hex.slice(-2));
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, `trace_full_${hex}.json`), gzipSync(JSON.stringify({ icao: hex, timestamp: midnight, trace })));
  }
}

/** Run the nightly accuracy step (its command line, build/accuracy/cli.ts) on a history day with a published tree. */
export async function runNightly(history: string, day: string, artifacts: string, log: (line: string) => void): Promise<AccuracyFile> {
  const dir = mkdtempSync(join(history, '..', 'nightly-'));
  try {
    const out = join(dir, 'accuracy.json');
    const code = await nightlyAccuracy(['--history', history, '--day', day, '--artifacts', artifacts, '--out', out], log);
    if (code !== 0) throw new Error(`the nightly accuracy step ended with ${code}`);
    return JSON.parse(readFileSync(out, 'utf8')) as AccuracyFile;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
