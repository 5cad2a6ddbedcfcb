// a decoder's aircraft.json (readsb, dump1090-fa, dump1090-mutability) -> FeedSnapshot of
// exactly the spec 2.1 wire fields. pure: no clock, no i/o.
//
// two readers, one set of rules (normalize.ts): a Buffer goes through the byte scanner
// (scan.ts), which also hands over each record's wire JSON; whatever the scanner is not sure
// of, and every string input, goes through JSON.parse here. the JSON.parse reader is the
// reference: it alone classifies whole-file faults, and test/server/feed/scan.slow.test.ts holds the
// scanner to its exact answers.
import { Collector, goodNow, type FeedCounters, type ParseOk } from './normalize.ts';
import { scanFeed } from './scan.ts';

/** the counter of snapshots the byte scanner left to JSON.parse */
export const SCANNER_FALLBACK = 'scanner_fallback';

/** why a whole file is refused */
export type RejectReason = 'invalid_json' | 'not_object' | 'missing_aircraft' | 'bad_now';

export type ParseResult = ParseOk | { ok: false; reason: RejectReason; detail: string };

/** Parse one aircraft.json. `counters`, when given, accumulates the dropped-record kinds too. */
export function parseFeed(text: string | Buffer, counters?: FeedCounters): ParseResult {
  if (typeof text !== 'string') {
    let scanned: ParseOk | null = null;
    try {
      scanned = scanFeed(text, counters);
    } catch {
      // a scanner fault must never cost a snapshot: the reference reader decides
      scanned = null;
    }
    if (scanned) return scanned;
    // counted, so a feed that always misses the fast path shows up in the stats and the log
    if (counters) counters[SCANNER_FALLBACK] = (counters[SCANNER_FALLBACK] ?? 0) + 1;
  }
  return parseFeedJson(text, counters);
}

/** The reference reader: JSON.parse, then the per-record rules. Also the scanner's fallback. */
export function parseFeedJson(text: string | Buffer, counters?: FeedCounters): ParseResult {
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
  if (!goodNow(now)) {
    return { ok: false, reason: 'bad_now', detail: `"now" must be unix seconds, got ${JSON.stringify(now) ?? 'nothing'}` };
  }
  if (!Array.isArray(d.aircraft)) {
    return { ok: false, reason: 'missing_aircraft', detail: '"aircraft" is missing or not an array' };
  }
  const c = new Collector();
  for (const raw of d.aircraft as unknown[]) c.add(raw);
  return c.finish(now, d.messages, counters);
}
