// adapter: reads readsb's globe_history tree, YYYY/MM/DD/traces/xx/trace_full_<hex>.json.
// the files hold gzip bytes under a .json name (readsb writes them pre-compressed for nginx);
// plain JSON is accepted too. a bad file is reported once, counted and skipped: never a crash.
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { parseTraceFull, type ParsedTrace } from '../../lib/readsb-trace.ts';
import { isDay } from '../../lib/localtime.ts';
import { statSync } from 'node:fs';

/** why a file was left out of the log */
export type SkipReason = 'bad_name' | 'non_icao' | 'unreadable' | 'corrupt' | 'not_trace';
export const SKIP_REASONS: readonly SkipReason[] = ['bad_name', 'non_icao', 'unreadable', 'corrupt', 'not_trace'];

export interface TraceFile {
  /** YYYY-MM-DD, from the folder */
  day: string;
  /** lowercase, from the file name */
  hex: string;
  path: string;
}

export interface Skipped {
  path: string;
  reason: SkipReason;
  detail: string;
}

export interface DayListing {
  day: string;
  /** sorted by hex */
  files: TraceFile[];
  /** names that are not trace_full_<hex>.json */
  skipped: Skipped[];
}

export type DaySelection = { days: number } | { from: string; to: string } | { all: true };

const FILE = /^trace_full_(~?)([0-9a-fA-F]{6})\.json$/;

/** unix seconds of the day's first second (UTC) */
export function dayStart(day: string): number {
  return Date.parse(`${day}T00:00:00Z`) / 1000;
}

/** the day before / after, YYYY-MM-DD */
export function addDays(day: string, n: number): string {
  return new Date((dayStart(day) + n * 86400) * 1000).toISOString().slice(0, 10);
}

async function dirNames(path: string): Promise<string[]> {
  try {
    return (await readdir(path, { withFileTypes: true })).filter((e) => e.isDirectory()).map((e) => e.name);
  } catch {
    return [];
  }
}

/** The days present in the tree (folders YYYY/MM/DD with a traces/ folder), oldest first. */
/** the history root must be a folder: a missing one is a mistake, never an empty build */
export function historyProblem(root: string): string | null {
  try {
    return statSync(root).isDirectory() ? null : `--history ${root} is not a folder`;
  } catch {
    return `--history ${root}: no such folder (the readsb globe_history root, YYYY/MM/DD/traces/...)`;
  }
}

export async function listDays(root: string): Promise<string[]> {
  const out: string[] = [];
  for (const y of (await dirNames(root)).filter((n) => /^\d{4}$/.test(n))) {
    for (const m of (await dirNames(join(root, y))).filter((n) => /^\d{2}$/.test(n))) {
      for (const d of (await dirNames(join(root, y, m))).filter((n) => /^\d{2}$/.test(n))) {
        const day = `${y}-${m}-${d}`;
        if (isDay(day) && (await dirNames(join(root, y, m, d))).includes('traces')) out.push(day);
      }
    }
  }
  return out.sort();
}

/** Picks days from those present: the newest N, an inclusive range, or all. */
export function selectDays(present: readonly string[], sel: DaySelection): string[] {
  const sorted = [...present].sort();
  if ('all' in sel) return sorted;
  if ('days' in sel) return sel.days <= 0 ? [] : sorted.slice(-sel.days);
  return sorted.filter((d) => d >= sel.from && d <= sel.to);
}

/** folder of one day: root/YYYY/MM/DD/traces */
function tracesDir(root: string, day: string): string {
  return join(root, day.slice(0, 4), day.slice(5, 7), day.slice(8, 10), 'traces');
}

/** Lists one day's trace files (sorted by hex), with the names that are not trace files. */
export async function listDay(root: string, day: string): Promise<DayListing> {
  const base = tracesDir(root, day);
  const files: TraceFile[] = [];
  const skipped: Skipped[] = [];
  for (const sub of (await dirNames(base)).sort()) {
    let entries;
    try {
      entries = await readdir(join(base, sub), { withFileTypes: true });
    } catch (e) {
      skipped.push({ path: join(base, sub), reason: 'unreadable', detail: (e as Error).message });
      continue;
    }
    for (const e of entries) {
      const path = join(base, sub, e.name);
      if (!e.isFile()) continue;
      const m = FILE.exec(e.name);
      if (!m) skipped.push({ path, reason: 'bad_name', detail: 'expected trace_full_<6 hex digits>.json' });
      // readsb prefixes non-ICAO addresses (TIS-B, anonymous) with ~: they have no airframe to log
      else if (m[1] === '~') skipped.push({ path, reason: 'non_icao', detail: 'non-ICAO address (~)' });
      // readsb files each address under its last two hex digits: anything else is misfiled
      else if (m[2]!.slice(-2).toLowerCase() !== sub) skipped.push({ path, reason: 'bad_name', detail: `filed under traces/${sub}/` });
      else files.push({ day, hex: m[2]!.toLowerCase(), path });
    }
  }
  files.sort((a, b) => (a.hex < b.hex ? -1 : a.hex > b.hex ? 1 : 0));
  return { day, files, skipped };
}

export class TraceReadError extends Error {
  constructor(
    readonly reason: SkipReason,
    readonly path: string,
    detail: string,
  ) {
    super(`${path}: ${detail}`);
    this.name = 'TraceReadError';
  }
}

/** gzip magic bytes 1f 8b */
export function isGzip(bytes: Uint8Array): boolean {
  return bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b;
}

/** Decodes one file's bytes into a parsed trace. Throws TraceReadError (corrupt / not_trace). */
export function decodeTrace(bytes: Buffer, path: string): ParsedTrace {
  let text: string;
  try {
    text = (isGzip(bytes) ? gunzipSync(bytes) : bytes).toString('utf8');
  } catch (e) {
    throw new TraceReadError('corrupt', path, `gzip: ${(e as Error).message}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new TraceReadError('corrupt', path, `JSON: ${(e as Error).message}`);
  }
  try {
    return parseTraceFull(json);
  } catch (e) {
    throw new TraceReadError('not_trace', path, (e as Error).message);
  }
}

/** Reads and decodes one file. Throws TraceReadError (unreadable / corrupt / not_trace). */
export async function readTrace(path: string): Promise<ParsedTrace> {
  let bytes: Buffer;
  try {
    bytes = await readFile(path);
  } catch (e) {
    throw new TraceReadError('unreadable', path, (e as Error).message);
  }
  return decodeTrace(bytes, path);
}
