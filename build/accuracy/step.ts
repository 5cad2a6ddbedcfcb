// the nightly accuracy step as a function (the cli and the nightly orchestrator both call it):
// read one day of readsb globe_history traces, replay the estimate method, return the artifact.
import { writeFileSync, renameSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { assertValid } from '../../schemas/index.ts';
import { evaluate, type ObservedTrack } from '../../lib/estimate/accuracy.ts';
import type { Learned } from '../../lib/estimate/fly.ts';
import { accuracyDocument, type AccuracyFile } from '../../artifacts/estimate-accuracy.ts';
import { listDay, listDays, readTrace, TraceReadError } from '../history/scan.ts';

export interface AccuracyStepResult {
  /** the artifact, or null when the day held no cruise stretch to score */
  doc: AccuracyFile | null;
  day: string;
  /** one line per file left out */
  skipped: string[];
  /** the day's tracks as read (the nightly learns the traffic flow from them) */
  tracks: ObservedTrack[];
}

/** The newest day in a globe_history tree, or null when it holds none. */
export async function newestDay(history: string): Promise<string | null> {
  const days = await listDays(history);
  return days[days.length - 1] ?? null;
}

/** what the replay may know of destinations: the live server's lookup over the routes it would serve */
export type DestinationOf = (callsign: string) => { lat: number; lon: number } | null;

/**
 * Replay one day, with what the live server had learned that day (the flow and paths learned before it, or none).
 * A bad file is counted and skipped, never fatal.
 */
export async function accuracyStep(
  history: string,
  day: string,
  destinationOf: DestinationOf = () => null,
  learned: Learned = {},
): Promise<AccuracyStepResult> {
  const listing = await listDay(history, day);
  const skipped = listing.skipped.map((s) => `${s.path}: ${s.reason} (${s.detail})`);
  const tracks: ObservedTrack[] = [];
  for (const f of listing.files) {
    try {
      const t = await readTrace(f.path);
      tracks.push({ hex: t.hex, points: t.points });
    } catch (e) {
      if (!(e instanceof TraceReadError)) throw e;
      skipped.push(`${e.path}: ${e.reason} (${e.message})`);
    }
  }
  const ev = evaluate(day, tracks, { destinationOf, ...learned });
  if (ev.method.n === 0) return { doc: null, day, skipped, tracks };
  const doc = accuracyDocument(ev, { read: tracks.length, skipped: skipped.length });
  assertValid('estimate-accuracy', doc);
  return { doc, day, skipped, tracks };
}

/** Write a document whole or not at all: a temporary name, then a rename. */
export function writeJsonAtomic(path: string, doc: unknown): void {
  mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.tmp-${process.pid}`;
  writeFileSync(tmp, JSON.stringify(doc, null, 1) + '\n');
  renameSync(tmp, path);
}
