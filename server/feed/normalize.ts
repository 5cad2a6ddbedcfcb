// the per-record rules of the feed, shared by both readers of aircraft.json (parse.ts, the
// JSON.parse reference, and scan.ts, the byte scanner): one copy, so they cannot drift.
// pure: no clock, no i/o.
//
// whole-file problems reject the snapshot (the caller keeps the last good one);
// per-record problems drop the bad field, or the record when its `hex` is unusable,
// and are counted by kind. the policy per field:
//   hex        not 6 hex digits -> record dropped ('bad_hex'); a readsb `~` address
//              (TIS-B / MLAT anonymous, not an ICAO address) -> record dropped and not
//              counted anywhere ('non_icao_hex'); a repeated hex -> later record dropped
//   lat, lon   a pair: either one missing, non-finite or out of range -> both dropped,
//              with seen_pos ('bad_position'); the aircraft stays, without a position
//   others     a bad value drops that field only ('bad_<field>'); null counts as absent
// strings (flight, t, r) must be printable ASCII: readsb only writes such, and it keeps
// every prepared body ASCII, so byte offsets equal string offsets (see live/snapshot.ts).
import type { AircraftRecord, FeedSnapshot } from './record.ts';

/** counts by problem kind; callers may keep one across parses */
export type FeedCounters = Record<string, number>;

export interface ParseOk {
  ok: true;
  snapshot: FeedSnapshot;
  dropped: FeedCounters;
  /** records left out by the aircraft cap where the parse ran (server/feed/cap.ts) */
  capped?: number;
}

const EMERGENCY = new Set(['none', 'general', 'lifeguard', 'minfuel', 'nordo', 'unlawful', 'downed', 'reserved']);
const HEX = /^[0-9a-f]{6}$/;
const SQUAWK = /^[0-7]{4}$/;
const CATEGORY = /^[A-D][0-7]$/;
// printable ASCII; a callsign is at most 8 characters (ICAO Doc 4444 item 7)
const CALLSIGN = /^[\x20-\x7e]{1,8}$/;
const TEXT = /^[\x20-\x7e]{1,32}$/;
// outside these the value is not a measurement but a decoding fault
const ALT_FT = [-2000, 100000] as const;
const GS_KT = 4000;
const RATE_FPM = 60000;
// `now` later than 2100 is not unix seconds (probably milliseconds)
const NOW_MAX = 4102444800;

const isNum = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

function bump(c: FeedCounters, kind: string): void {
  c[kind] = (c[kind] ?? 0) + 1;
}

/** `now` as the feed must give it: unix seconds, positive, before 2100. */
export const goodNow = (now: unknown): now is number => isNum(now) && now > 0 && now <= NOW_MAX;

/** Normalises records in feed order, drops repeated hexes, and counts what it drops. */
export class Collector {
  readonly dropped: FeedCounters = {};
  readonly aircraft: AircraftRecord[] = [];
  // one bit per ICAO address (2^24, 2 MB): a kept hex is 6 hex digits, and a bit test is
  // cheaper than hashing 12,000 fresh strings into a Set
  private readonly seen = new Uint32Array(1 << 19);

  /** The kept record, or null when it was dropped (bad, non-ICAO or a repeated hex). */
  add(raw: unknown): AircraftRecord | null {
    const rec = normalizeRecord(raw, this.dropped);
    if (!rec) return null;
    const addr = parseInt(rec.hex, 16);
    const bit = 1 << (addr & 31);
    if (this.seen[addr >>> 5]! & bit) {
      bump(this.dropped, 'duplicate_hex');
      return null;
    }
    this.seen[addr >>> 5]! |= bit;
    this.aircraft.push(rec);
    return rec;
  }

  /** The snapshot; `counters`, when given, accumulates the dropped kinds. */
  finish(now: number, messages: unknown, counters?: FeedCounters): ParseOk {
    const snapshot: FeedSnapshot = { now, aircraft: this.aircraft };
    if (isNum(messages) && messages >= 0) snapshot.messages = Math.floor(messages);
    if (counters) for (const [k, n] of Object.entries(this.dropped)) counters[k] = (counters[k] ?? 0) + n;
    return { ok: true, snapshot, dropped: this.dropped };
  }
}

/** One decoder record -> a 2.1 record, or null when it has no usable ICAO address. */
function normalizeRecord(raw: unknown, dropped: FeedCounters): AircraftRecord | null {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    bump(dropped, 'bad_record');
    return null;
  }
  const a = raw as Record<string, unknown>;
  if (typeof a.hex !== 'string') {
    bump(dropped, 'bad_hex');
    return null;
  }
  if (a.hex.startsWith('~')) {
    bump(dropped, 'non_icao_hex');
    return null;
  }
  const hex = a.hex.toLowerCase();
  if (!HEX.test(hex)) {
    bump(dropped, 'bad_hex');
    return null;
  }
  // fields are assigned in the spec 2.1 order, so JSON.stringify writes them in that order
  const r: AircraftRecord = { hex };
  if (a.flight != null) {
    const f = typeof a.flight === 'string' ? a.flight.trimEnd() : null;
    if (f === '') {
      // blank callsign: not broadcast, absent (not a fault)
    } else if (f !== null && CALLSIGN.test(f)) r.flight = f;
    else bump(dropped, 'bad_flight');
  }
  text(a, 't', r, dropped);
  text(a, 'r', r, dropped);
  const hasLat = a.lat != null;
  const hasLon = a.lon != null;
  if (hasLat || hasLon) {
    const { lat, lon } = a;
    if (isNum(lat) && isNum(lon) && lat >= -90 && lat <= 90 && lon >= -180 && lon <= 180) {
      r.lat = lat;
      r.lon = lon;
    } else bump(dropped, 'bad_position');
  }
  // dump1090-mutability's older names stand in when the new one is absent
  const alt = a.alt_baro ?? a.altitude;
  if (alt != null) {
    if (alt === 'ground') r.alt_baro = 'ground';
    else if (isNum(alt) && alt >= ALT_FT[0] && alt <= ALT_FT[1]) r.alt_baro = Math.round(alt);
    else bump(dropped, 'bad_alt_baro');
  }
  const gs = a.gs ?? a.speed;
  if (gs != null) {
    if (isNum(gs) && gs >= 0 && gs <= GS_KT) r.gs = gs;
    else bump(dropped, 'bad_gs');
  }
  if (a.track != null) {
    if (isNum(a.track) && a.track >= 0 && a.track <= 360) r.track = a.track;
    else bump(dropped, 'bad_track');
  }
  pattern(a, 'category', CATEGORY, r, dropped);
  pattern(a, 'squawk', SQUAWK, r, dropped);
  if (a.seen != null) {
    if (isNum(a.seen) && a.seen >= 0) r.seen = a.seen;
    else bump(dropped, 'bad_seen');
  }
  if (r.lat != null && a.seen_pos != null) {
    if (isNum(a.seen_pos) && a.seen_pos >= 0) r.seen_pos = a.seen_pos;
    else bump(dropped, 'bad_seen_pos');
  }
  // no fallback to readsb's geom_rate: the wire name promises a barometric rate
  const rate = a.baro_rate ?? a.vert_rate;
  if (rate != null) {
    if (isNum(rate) && Math.abs(rate) <= RATE_FPM) r.baro_rate = Math.round(rate);
    else bump(dropped, 'bad_baro_rate');
  }
  if (a.emergency != null) {
    if (typeof a.emergency === 'string' && EMERGENCY.has(a.emergency)) r.emergency = a.emergency;
    else bump(dropped, 'bad_emergency');
  }
  return r;
}

function text(a: Record<string, unknown>, key: 't' | 'r', r: AircraftRecord, dropped: FeedCounters): void {
  const v = a[key];
  if (v == null) return;
  const s = typeof v === 'string' ? v.trim() : null;
  if (s === '') return;
  if (s !== null && TEXT.test(s)) r[key] = s;
  else bump(dropped, `bad_${key}`);
}

function pattern(a: Record<string, unknown>, key: 'category' | 'squawk', re: RegExp, r: AircraftRecord, dropped: FeedCounters): void {
  const v = a[key];
  if (v == null) return;
  if (typeof v === 'string' && re.test(v)) r[key] = v;
  else bump(dropped, `bad_${key}`);
}
