// adapter: the roster on disk in --state, written whole to a temporary file and renamed (atomic).
// files: station-secret (the HMAC key, mode 0600) and stations.json (SavedStation rows: keyed hash,
// public id, coarse position, first/last seen). never a UUID, an IP or an exact position.
import { closeSync, existsSync, fsyncSync, linkSync, mkdirSync, openSync, readFileSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { PUBLIC_ID, SECRET_BYTES, type StationKeys } from './ids.ts';
import { MAX_UNIX_S } from './parse.ts';
import { coarse, type SavedStation } from './roster.ts';

export const SECRET_FILE = 'station-secret';
export const ROSTER_FILE = 'stations.json';
const FORMAT = 1;

export interface Loaded {
  stations: SavedStation[];
  /** rows that did not validate and were left out */
  skipped: number;
  /** why the saved roster was not used, in words fit for a log; null when it was (or there was none) */
  problem: string | null;
}

export class StationStore {
  constructor(readonly dir: string) {}

  /** The server secret, created (32 random bytes) on the first start. */
  loadSecret(): Buffer {
    const file = join(this.dir, SECRET_FILE);
    if (!existsSync(file)) {
      mkdirSync(this.dir, { recursive: true });
      // replicas sharing one --state may start together: the first secret written is everyone's
      createOnce(file, randomBytes(SECRET_BYTES).toString('hex') + '\n', 0o600);
    }
    const hex = readFileSync(file, 'utf8').trim();
    if (!/^[0-9a-f]{64,}$/.test(hex) || hex.length % 2) {
      throw new Error(`${file} is not a hex secret of at least ${SECRET_BYTES} bytes; delete it to make a new one (the station roster then starts afresh)`);
    }
    return Buffer.from(hex, 'hex');
  }

  /** The saved roster. A corrupt file is moved aside to stations.json.corrupt and the roster starts empty. */
  load(keys: StationKeys): Loaded {
    const file = join(this.dir, ROSTER_FILE);
    if (!existsSync(file)) return { stations: [], skipped: 0, problem: null };
    let doc: unknown;
    try {
      doc = JSON.parse(readFileSync(file, 'utf8'));
    } catch {
      renameSync(file, file + '.corrupt');
      return { stations: [], skipped: 0, problem: `${ROSTER_FILE} is not JSON; moved aside to ${ROSTER_FILE}.corrupt, roster starts empty` };
    }
    const d = doc as { version?: unknown; fingerprint?: unknown; stations?: unknown };
    if (typeof doc !== 'object' || doc === null || d.version !== FORMAT || !Array.isArray(d.stations)) {
      renameSync(file, file + '.corrupt');
      return {
        stations: [],
        skipped: 0,
        problem: `${ROSTER_FILE} is not a version-${FORMAT} roster; moved aside to ${ROSTER_FILE}.corrupt, roster starts empty`,
      };
    }
    // keys made with another secret can never match a UUID again: the roster is unusable
    if (d.fingerprint !== keys.fingerprint()) {
      renameSync(file, file + '.corrupt');
      return {
        stations: [],
        skipped: 0,
        problem: `${ROSTER_FILE} was written with another ${SECRET_FILE}; moved aside to ${ROSTER_FILE}.corrupt, roster starts empty`,
      };
    }
    const stations: SavedStation[] = [];
    let skipped = 0;
    for (const row of d.stations) {
      const s = savedStation(row, keys);
      if (s) stations.push(s);
      else skipped++;
    }
    return { stations, skipped, problem: null };
  }

  /** Write the roster whole, atomically. */
  save(stations: readonly SavedStation[], keys: StationKeys): void {
    mkdirSync(this.dir, { recursive: true });
    const doc = { version: FORMAT, fingerprint: keys.fingerprint(), stations };
    writeAtomic(join(this.dir, ROSTER_FILE), JSON.stringify(doc) + '\n', 0o644);
  }
}

/** A flushed temporary file of its own (replicas in containers share pids, so a random name too). */
function writeTemp(file: string, text: string, mode: number): string {
  const tmp = `${file}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`;
  const fd = openSync(tmp, 'w', mode);
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  return tmp;
}

/** Write to a temporary name, flush it to disk, then rename over the target: readers see the old file or the new one. */
function writeAtomic(file: string, text: string, mode: number): void {
  renameSync(writeTemp(file, text, mode), file);
}

/** Create `file` whole unless it exists: a hard link fails when another writer got there first. */
export function createOnce(file: string, text: string, mode: number): boolean {
  const tmp = writeTemp(file, text, mode);
  try {
    linkSync(tmp, file);
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw e;
  } finally {
    unlinkSync(tmp);
  }
}

const num = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

function savedStation(v: unknown, keys: StationKeys): SavedStation | null {
  if (typeof v !== 'object' || v === null) return null;
  const r = v as Record<string, unknown>;
  const { key, id, coarse_lat, coarse_lon, first_seen, last_seen, position_source } = r;
  if (typeof key !== 'string' || !/^[0-9a-f]{64}$/.test(key)) return null;
  if (typeof id !== 'string' || !PUBLIC_ID.test(id) || id !== keys.publicId(Buffer.from(key, 'hex'))) return null;
  if (!num(coarse_lat) || coarse_lat < -90 || coarse_lat > 90 || !num(coarse_lon) || coarse_lon < -180 || coarse_lon > 180) return null;
  if (!num(first_seen) || !num(last_seen) || first_seen <= 0 || last_seen < first_seen || last_seen > MAX_UNIX_S) return null;
  // a roster saved before readsb's estimates existed holds only reported positions
  if (position_source !== undefined && position_source !== 'reported' && position_source !== 'estimated') return null;
  // rebuilt field by field: nothing else in a hand-edited file is carried forward
  return { key, id, coarse_lat: coarse(coarse_lat), coarse_lon: coarse(coarse_lon), position_source: position_source ?? 'reported', first_seen, last_seen };
}
