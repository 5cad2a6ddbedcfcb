// one airframe's trace files of one day -> its legs: read, decode, check, cut. the one place the
// in-thread path (build.ts) and the leg workers (leg-worker.ts) both do it, so the two cannot
// differ. a file that cannot be read is a skip, never an error: the night goes on without it.
import { readFile } from 'node:fs/promises';
import { TraceReadError, decodeTrace, type Skipped, type TraceFile } from '../history/scan.ts';
import type { ParsedTrace } from '../../lib/readsb-trace.ts';
import { airframeLegs, type Carry, type LegOptions, type LegRow, type Locate } from './legs.ts';

/** the files of one airframe in a day listing: usually one; more when names differ only in case */
export interface AirframeFiles {
  hex: string;
  files: TraceFile[];
}

export interface AirframeCut {
  hex: string;
  /** files read for it */
  files: number;
  rows: LegRow[];
  /** the leg left open at midnight, for the next day; null when none */
  carry: Carry | null;
  /** the leg carried into the day was taken (a file decoded); when false it is still the caller's */
  consumed: boolean;
  skipped: Skipped[];
  /** malformed rows left out of the files that decoded */
  dropped: number;
}

/** Groups a listing sorted by hex into its airframes, in order. */
export function* byAirframe(files: readonly TraceFile[]): Generator<AirframeFiles> {
  let group: AirframeFiles | null = null;
  for (const f of files) {
    if (group && group.hex === f.hex) group.files.push(f);
    else {
      if (group) yield group;
      group = { hex: f.hex, files: [f] };
    }
  }
  if (group) yield group;
}

/** A file's bytes, or the TraceReadError that says why they could not be read. */
export function readBytes(file: TraceFile): Promise<Buffer | TraceReadError> {
  return readFile(file.path).catch((e: Error) => new TraceReadError('unreadable', file.path, e.message));
}

/**
 * Cuts one airframe's day. `bytes` are its files' contents in the order of `a.files`; `carry` is
 * its leg still open at the previous midnight. The first file that decodes takes the carry; a
 * later one (a second name for the same airframe) starts afresh, and the last open leg wins.
 */
export function cutAirframe(
  a: AirframeFiles,
  bytes: readonly (Buffer | TraceReadError)[],
  carry: Carry | null,
  dayEnd: number,
  locate: Locate,
  legOpts: LegOptions,
): AirframeCut {
  const out: AirframeCut = { hex: a.hex, files: a.files.length, rows: [], carry: null, consumed: false, skipped: [], dropped: 0 };
  a.files.forEach((file, i) => {
    const trace = decode(file, bytes[i]!, out.skipped);
    if (!trace) return;
    const own = out.consumed ? null : carry;
    out.consumed = true;
    out.dropped += trace.dropped;
    const cut = airframeLegs({ hex: trace.hex, reg: trace.reg, type: trace.type, carry: own, points: trace.points, dayEnd }, locate, legOpts);
    for (const r of cut.rows) out.rows.push(r);
    if (cut.carry) out.carry = cut.carry;
  });
  return out;
}

function decode(file: TraceFile, bytes: Buffer | TraceReadError, skipped: Skipped[]): ParsedTrace | null {
  try {
    if (bytes instanceof TraceReadError) throw bytes;
    const trace = decodeTrace(bytes, file.path);
    if (trace.hex !== file.hex) {
      throw new TraceReadError('not_trace', file.path, `icao ${trace.hex} does not match the file name (${file.hex})`);
    }
    return trace;
  } catch (e) {
    if (!(e instanceof TraceReadError)) throw e;
    skipped.push({ path: file.path, reason: e.reason, detail: e.message.slice(file.path.length + 2) });
    return null;
  }
}
