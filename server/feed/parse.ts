// a decoder's aircraft.json (readsb, dump1090-fa, dump1090-mutability) -> FeedSnapshot of
// exactly the spec 2.1 wire fields. pure: no clock, no i/o.
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

export type RejectReason = 'invalid_json' | 'not_object' | 'missing_aircraft' | 'bad_now';

/** counts by problem kind; callers may keep one across parses */
export type FeedCounters = Record<string, number>;

export type ParseResult =
  | { ok: true; snapshot: FeedSnapshot; dropped: FeedCounters }
  | { ok: false; reason: RejectReason; detail: string };

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

/** Parse one aircraft.json. `counters`, when given, accumulates the dropped-record kinds too. */
export function parseFeed(text: string | Buffer, counters?: FeedCounters): ParseResult {
  let doc: unknown;
  try {
    doc = JSON.parse(typeof text === 'string' ? text : text.toString('utf8'));
  } catch (e) {
    return { ok: false, reason: 'invalid_json', detail: `not valid JSON (truncated write?): ${(e as Error).message}` };
  }
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) {
    return { ok: false, reason: 'not_object', detail: 'the top level is not a JSON object {now, aircraft}' };
  }
  const d = doc as Record<string, unknown>;
  const now = d.now;
  if (!isNum(now) || now <= 0 || now > NOW_MAX) {
    return { ok: false, reason: 'bad_now', detail: `"now" must be unix seconds, got ${JSON.stringify(now) ?? 'nothing'}` };
  }
  if (!Array.isArray(d.aircraft)) {
    return { ok: false, reason: 'missing_aircraft', detail: '"aircraft" is missing or not an array' };
  }
  const dropped: FeedCounters = {};
  const seen = new Set<string>();
  const aircraft: AircraftRecord[] = [];
  for (const raw of d.aircraft as unknown[]) {
    const rec = normalizeRecord(raw, dropped);
    if (!rec) continue;
    if (seen.has(rec.hex)) {
      bump(dropped, 'duplicate_hex');
      continue;
    }
    seen.add(rec.hex);
    aircraft.push(rec);
  }
  const snapshot: FeedSnapshot = { now, aircraft };
  if (isNum(d.messages) && d.messages >= 0) snapshot.messages = Math.floor(d.messages);
  if (counters) for (const [k, n] of Object.entries(dropped)) counters[k] = (counters[k] ?? 0) + n;
  return { ok: true, snapshot, dropped };
}

/** One decoder record -> a 2.1 record, or null when it has no usable ICAO address. */
export function normalizeRecord(raw: unknown, dropped: FeedCounters): AircraftRecord | null {
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
