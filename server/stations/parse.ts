// the aggregator's connected-feeders list (format in README.md): parse and validate, pure.
// output objects are built field by field from a whitelist: an `ip` (or any other field) in the
// input is never copied, and a UUID is turned into its keyed hash the moment it is validated.
import { canonicalUuid, type StationKeys } from './ids.ts';

/** One feeder as the service keeps it: no UUID, no IP. */
export interface Feeder {
  /** HMAC of the canonical UUID (ids.ts) */
  key: Buffer;
  lat: number;
  lon: number;
  /** reported: the feeder's own position; estimated: readsb's, from the positions the receiver decoded (readsb.ts) */
  positionSource: 'reported' | 'estimated';
  connected: boolean;
  software: string | null;
  messages: number | null;
  positions: number | null;
  aircraft: number | null;
  /** unix seconds */
  connectedSince: number | null;
}

export interface FeederList {
  /** unix seconds the aggregator wrote the list */
  generatedAt: number;
  /** one per UUID */
  feeders: Feeder[];
  /** entries left out, by reason */
  skipped: Partial<Record<SkipReason, number>>;
  /** optional fields that were malformed and read as absent (the entry itself was kept) */
  ignoredFields: number;
}

/** why an entry was left out; the last four are readsb's (readsb.ts) */
export type SkipReason = 'not_object' | 'bad_uuid' | 'bad_position' | 'bad_connected' | 'duplicate_uuid' | 'not_row' | 'no_uuid' | 'no_position' | 'bad_extent';

type RejectReason = 'not_json' | 'not_object' | 'bad_generated_at' | 'bad_feeders' | 'too_many_feeders' | 'bad_receivers' | 'unknown_format';

export type ParseResult = { ok: true; list: FeederList } | { ok: false; reason: RejectReason; detail: string };

/** a list longer than this is refused whole: no real network is that big, a runaway writer may be */
export const MAX_FEEDERS = 200_000;
const MAX_SOFTWARE = 64;
/** 2100-01-01: a time past this is a broken clock or a unit mix-up (milliseconds), not a date */
export const MAX_UNIX_S = 4_102_444_800;
// a software string is free text from the feeder's operator: refuse anything that looks like an address
const IPV4ISH = /\d{1,3}(\.\d{1,3}){3}/;
const IPV6ISH = /[0-9a-f]{0,4}:[0-9a-f]{0,4}:[0-9a-f]{0,4}/i;
const PRINTABLE = /^[\x20-\x7e]+$/;

const reject = (reason: RejectReason, detail: string): ParseResult => ({ ok: false, reason, detail });

/** Parse the text of a feeder list. A malformed file is rejected with a reason; malformed entries are skipped and counted. */
export function parseFeederList(text: string, keys: StationKeys): ParseResult {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    return reject('not_json', 'the feeder list is not JSON');
  }
  return parseFeederDoc(doc, keys);
}

/** parseFeederList after JSON.parse */
export function parseFeederDoc(doc: unknown, keys: StationKeys): ParseResult {
  if (!isObject(doc)) return reject('not_object', 'the feeder list must be a JSON object {generated_at, feeders}');
  const gen = doc.generated_at;
  if (typeof gen !== 'number' || !Number.isFinite(gen) || gen <= 0 || gen > MAX_UNIX_S) {
    return reject('bad_generated_at', 'generated_at must be unix seconds (a positive number before the year 2100)');
  }
  const raw = doc.feeders;
  if (!Array.isArray(raw)) return reject('bad_feeders', 'feeders must be an array');
  if (raw.length > MAX_FEEDERS) return reject('too_many_feeders', `more than ${MAX_FEEDERS} feeders in one list`);

  let ignoredFields = 0;
  const entries = raw.map((e: unknown): Feeder | SkipReason => {
    if (!isObject(e)) return 'not_object';
    const uuid = typeof e.uuid === 'string' ? canonicalUuid(e.uuid) : null;
    if (uuid === null) return 'bad_uuid';
    const key = keys.key(uuid);
    const { lat, lon } = e;
    if (!isLat(lat) || !isLon(lon) || (lat === 0 && lon === 0)) return 'bad_position';
    if (typeof e.connected !== 'boolean') return 'bad_connected';
    const opt = <T>(v: T | null, present: boolean): T | null => {
      if (v === null && present) ignoredFields++;
      return v;
    };
    return {
      key,
      lat,
      lon,
      positionSource: 'reported',
      connected: e.connected,
      software: opt(software(e.software), e.software !== undefined && e.software !== null),
      messages: opt(count(e.messages), e.messages !== undefined && e.messages !== null),
      positions: opt(count(e.positions), e.positions !== undefined && e.positions !== null),
      aircraft: opt(count(e.aircraft), e.aircraft !== undefined && e.aircraft !== null),
      connectedSince: opt(since(e.connected_since, gen), e.connected_since !== undefined && e.connected_since !== null),
    };
  });
  return { ok: true, list: collectFeeders(gen, entries, ignoredFields) };
}

/** The list from parsed entries: skips counted by reason, one feeder per key (a connected entry wins). */
export function collectFeeders(generatedAt: number, entries: readonly (Feeder | SkipReason)[], ignoredFields = 0): FeederList {
  const skipped: Partial<Record<SkipReason, number>> = {};
  const skip = (r: SkipReason) => {
    skipped[r] = (skipped[r] ?? 0) + 1;
  };
  const byKey = new Map<string, number>();
  const feeders: Feeder[] = [];
  for (const f of entries) {
    if (typeof f === 'string') {
      skip(f);
      continue;
    }
    // one entry per feeder: an aggregator may list a feeder twice (two connections); the connected one wins
    const hex = f.key.toString('hex');
    const prev = byKey.get(hex);
    if (prev === undefined) {
      byKey.set(hex, feeders.length);
      feeders.push(f);
    } else {
      skip('duplicate_uuid');
      if (!feeders[prev]!.connected && f.connected) feeders[prev] = f;
    }
  }
  return { generatedAt, feeders, skipped, ignoredFields };
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

const isLat = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && v >= -90 && v <= 90;
const isLon = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && v >= -180 && v <= 180;

function count(v: unknown): number | null {
  return typeof v === 'number' && Number.isSafeInteger(v) && v >= 0 ? v : null;
}

function software(v: unknown): string | null {
  if (typeof v !== 'string') return null;
  const s = v.trim();
  if (!s || s.length > MAX_SOFTWARE || !PRINTABLE.test(s) || IPV4ISH.test(s) || IPV6ISH.test(s)) return null;
  return s;
}

// a connect time after the list was written is a clock problem on the aggregator: read as absent
function since(v: unknown, gen: number): number | null {
  return typeof v === 'number' && Number.isFinite(v) && v > 0 && v <= gen ? v : null;
}
