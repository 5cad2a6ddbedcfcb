// the nightly accuracy step as a function (the cli and the nightly orchestrator both call it):
// read one day of readsb globe_history traces a file at a time, replay the estimate method, return the artifact.
import { writeFileSync, renameSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { assertValid } from '../../schemas/index.ts';
import { accuracyFold, type ObservedTrack } from '../../lib/estimate/accuracy.ts';
import type { Learned } from '../../lib/estimate/fly.ts';
import { accuracyDocument, type AccuracyFile } from '../../artifacts/estimate-accuracy.ts';
import { listDay, listDays, readTrace, TraceReadError } from '../history/scan.ts';
import { silentProgress, type Progress } from '../progress.ts';

export interface AccuracyStepResult {
  /** the artifact, or null when the day held no cruise stretch to score */
  doc: AccuracyFile | null;
  day: string;
  /** one line per file left out */
  skipped: string[];
  /** trace files read */
  read: number;
}

/** The newest day in a globe_history tree, or null when it holds none. */
export async function newestDay(history: string): Promise<string | null> {
  const days = await listDays(history);
  return days[days.length - 1] ?? null;
}

/** what the replay may know of destinations: the live server's lookup over the routes it would serve */
export type DestinationOf = (callsign: string) => { lat: number; lon: number } | null;

export interface ReplayOptions {
  /** what the live server had learned that day (the flow and paths learned before it, or none) */
  learned?: Learned;
  /** hears each track once it is replayed (the nightly learns the traffic flow and paths from it), in file order */
  visit?: (track: ObservedTrack) => void;
  /** the step's progress: started with the day's file count, a tick per file (a bad one too); the caller says done */
  progress?: Progress;
}

type Read = { track: ObservedTrack } | { error: TraceReadError };

async function readOne(path: string): Promise<Read> {
  try {
    const t = await readTrace(path);
    return { track: { hex: t.hex, points: t.points } };
  } catch (e) {
    if (!(e instanceof TraceReadError)) throw e;
    return { error: e };
  }
}

/**
 * Replay one day, a trace file at a time: each is read, replayed and folded into the figures
 * (accuracyFold keeps only the errors' bins), handed to `visit`, and dropped, so memory stays
 * bounded whatever the day's size. the next file is read while one is replayed.
 * A bad file is counted and skipped, never fatal.
 */
export async function accuracyStep(
  history: string,
  day: string,
  destinationOf: DestinationOf = () => null,
  options: ReplayOptions = {},
): Promise<AccuracyStepResult> {
  const { learned = {}, visit, progress = silentProgress } = options;
  const listing = await listDay(history, day);
  const skipped = listing.skipped.map((s) => `${s.path}: ${s.reason} (${s.detail})`);
  const fold = accuracyFold(day, { destinationOf, ...learned });
  const files = listing.files;
  progress.start(`accuracy ${day}`, files.length);
  let read = 0;
  let next = files.length ? readOne(files[0]!.path) : null;
  for (let i = 0; next; i++) {
    const r = await next;
    next = i + 1 < files.length ? readOne(files[i + 1]!.path) : null;
    if ('error' in r) skipped.push(`${r.error.path}: ${r.error.reason} (${r.error.message})`);
    else {
      read++;
      fold.add(r.track);
      visit?.(r.track);
    }
    progress.tick();
  }
  const ev = fold.result();
  if (ev.method.n === 0) return { doc: null, day, skipped, read };
  const doc = accuracyDocument(ev, { read, skipped: skipped.length });
  assertValid('estimate-accuracy', doc);
  return { doc, day, skipped, read };
}

/** Write a document whole or not at all: a temporary name, then a rename. */
export function writeJsonAtomic(path: string, doc: unknown): void {
  mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.tmp-${process.pid}`;
  writeFileSync(tmp, JSON.stringify(doc, null, 1) + '\n');
  renameSync(tmp, path);
}
