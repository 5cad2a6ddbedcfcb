// readsb's own outputs as a feeder list, pure: what an aggregator running readsb with --net-ingest
// writes to its --write-json folder every 10 s, so an operator needs no glue of their own.
//
//   clients.json   (readsb json_out.c, generateClientsJson; written with --net-ingest)
//     {"now": 1795435200.123, "format": [...], "clients": [[receiverId, "host:port", kbit/s,
//      conn time s, messages/s, positions/s, reduce_signal, rtt ms, positions], ...]}
//     receiverId is the full UUID the feeder sent (8-4-4-4-12). a feeder that sent none gets an id
//     readsb made up (random, or a hash of its address) whose last 64 bits are zero: not a station.
//   receivers.json (readsb receiver.c, generateReceiversJson; written with --write-receiver-id-json)
//     {"now": 1795435200.1, "receivers": [[id, positions/s, timeouts/h, latMin, latMax, lonMin,
//      lonMax, badExtent, latCenter, lonCenter], ...]}
//     id is only the first 64 bits of the UUID (8-4-4). the box spans the aircraft positions the
//     receiver decoded (airborne ADS-B, reliable, within 800 km); its centre is readsb's estimate of
//     where the receiver is. badExtent 1: a position far outside the box was seen, the box is not trusted.
//
// the two are joined by the first 64 bits of the UUID. "host:port" (an address) is never read.
import { canonicalUuid, type StationKeys } from './ids.ts';
import { collectFeeders, MAX_FEEDERS, MAX_UNIX_S, type Feeder, type ParseResult, type SkipReason } from './parse.ts';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const finite = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
/** the 16 hex digits readsb keys receivers.json by */
const firstHalf = (uuid: string) => uuid.slice(0, 18);

/** a readsb clients.json, told apart from Contrail's own feeder list by its `clients` array */
export const isReadsbClients = (doc: unknown): boolean => isObject(doc) && Array.isArray(doc.clients) && doc.feeders === undefined;

interface Centre {
  lat: number;
  lon: number;
  badExtent: boolean;
}

/** receivers.json rows by the first 64 bits of the UUID; null with a reason when the file is unusable */
function centres(text: string): { ok: true; byId: Map<string, Centre> } | { ok: false; detail: string } {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    return { ok: false, detail: 'receivers.json is not JSON' };
  }
  if (!isObject(doc) || !Array.isArray(doc.receivers)) return { ok: false, detail: 'receivers.json must be an object with a receivers array' };
  if (doc.receivers.length > MAX_FEEDERS) return { ok: false, detail: `more than ${MAX_FEEDERS} rows in receivers.json` };
  const byId = new Map<string, Centre>();
  for (const r of doc.receivers) {
    // a malformed row is left out here; the client it belongs to is then counted as no_position
    if (!Array.isArray(r) || r.length < 10 || typeof r[0] !== 'string' || !/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}$/i.test(r[0])) continue;
    const [, , , , , , , bad, lat, lon] = r as unknown[];
    if (!finite(lat) || !finite(lon) || lat < -90 || lat > 90 || lon < -180 || lon > 180) continue;
    byId.set(r[0].toLowerCase(), { lat, lon, badExtent: bad === 1 });
  }
  return { ok: true, byId };
}

/** Parse readsb's clients.json (doc, already JSON) with the text of its receivers.json beside it. */
export function parseReadsbClients(doc: unknown, receiversText: string, keys: StationKeys): ParseResult {
  if (!isObject(doc)) return { ok: false, reason: 'not_object', detail: 'clients.json must be a JSON object {now, clients}' };
  const now = doc.now;
  if (!finite(now) || now <= 0 || now > MAX_UNIX_S)
    return { ok: false, reason: 'bad_generated_at', detail: 'clients.json: now must be unix seconds (a positive number before the year 2100)' };
  const rows = doc.clients;
  if (!Array.isArray(rows)) return { ok: false, reason: 'bad_feeders', detail: 'clients.json: clients must be an array' };
  if (rows.length > MAX_FEEDERS) return { ok: false, reason: 'too_many_feeders', detail: `more than ${MAX_FEEDERS} clients in one list` };
  const rec = centres(receiversText);
  if (!rec.ok) return { ok: false, reason: 'bad_receivers', detail: rec.detail };

  const entries: (Feeder | SkipReason)[] = rows.map((row): Feeder | SkipReason => {
    if (!Array.isArray(row) || row.length < 9) return 'not_row';
    const [id, , , connS, msgRate, , , , positions] = row as unknown[];
    const uuid = typeof id === 'string' ? canonicalUuid(id) : null;
    if (uuid === null) return 'bad_uuid';
    // readsb fills the id of a feeder that sent no UUID itself, and leaves its last 64 bits zero
    if (uuid.endsWith('0000-000000000000')) return 'no_uuid';
    const c = rec.byId.get(firstHalf(uuid));
    if (!c || (c.lat === 0 && c.lon === 0)) return 'no_position';
    if (c.badExtent) return 'bad_extent';
    const conn = finite(connS) && connS >= 0 ? connS : null;
    return {
      key: keys.key(uuid),
      lat: c.lat,
      lon: c.lon,
      positionSource: 'estimated',
      // every client in clients.json is connected now
      connected: true,
      software: null,
      // readsb gives the average rate over the connection: times its length, the count to rounding
      messages: conn !== null && finite(msgRate) && msgRate >= 0 ? Math.round(msgRate * conn) : null,
      positions: finite(positions) && Number.isSafeInteger(positions) && positions >= 0 ? positions : null,
      aircraft: null,
      connectedSince: conn !== null ? Math.floor(now - conn) : null,
    };
  });
  return { ok: true, list: collectFeeders(now, entries) };
}
