// the feed parsed on a worker thread gives exactly what parsing here gives: records, wire JSON
// (so the served bytes are the same), counters; a bad file is classified the same way.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { parseFeed } from '../../../server/feed/parse.ts';
import { ParserThread } from '../../../server/feed/parser-thread.ts';
import type { FeedCounters } from '../../../server/feed/normalize.ts';
import { PreparedSnapshot } from '../../../server/live/snapshot.ts';

const BIG = gunzipSync(readFileSync(new URL('../../../bench/data/readsb_aircraft_12k.json.gz', import.meta.url)));
const BAD = readFileSync(new URL('../../fixtures/feed/bad-records.json', import.meta.url));

test('a worker-thread parse equals a parse on this thread, served bytes included', { timeout: 30_000 }, async () => {
  const t = new ParserThread();
  try {
    for (const bytes of [BIG, BAD]) {
      const here: FeedCounters = {};
      const local = parseFeed(Buffer.from(bytes), here);
      const { result, counters } = await t.parse(Buffer.from(bytes));
      assert.ok(local.ok && result.ok);
      assert.ok(Buffer.isBuffer(result.snapshot.wire?.bytes), 'the wire JSON came back as a Buffer');
      assert.deepEqual(result.snapshot.aircraft, local.snapshot.aircraft);
      assert.deepEqual(counters, here);
      const a = new PreparedSnapshot(result.snapshot, { eagerGzip: false });
      const b = new PreparedSnapshot(local.snapshot, { eagerGzip: false });
      assert.ok(a.body.equals(b.body));
    }
    const broken = await t.parse(Buffer.from('{"now": 17'));
    assert.equal(broken.result.ok ? 'ok' : broken.result.reason, 'invalid_json');
  } finally {
    t.stop();
  }
});

test('a stopped parser fails what it held, and the next parse starts a fresh worker', { timeout: 30_000 }, async () => {
  const t = new ParserThread();
  const held = t.parse(Buffer.from(BIG));
  t.stop();
  await assert.rejects(held, /stopped/);
  const again = await t.parse(Buffer.from('{"now": 1795312389, "aircraft": []}'));
  assert.equal(again.result.ok, true);
  t.stop();
});

test('the aircraft cap is applied on the parser thread: only the kept records cross, the rest are counted', { timeout: 30_000 }, async () => {
  const t = new ParserThread();
  try {
    const aircraft = Array.from({ length: 10 }, (_, i) => ({ hex: `00000${i}`, lat: 50, lon: 8, seen: 10 - i }));
    const { result } = await t.parse(Buffer.from(JSON.stringify({ now: 1795312389, aircraft })), 4);
    assert.ok(result.ok);
    assert.deepEqual(result.snapshot.aircraft.map((a) => a.hex), ['000006', '000007', '000008', '000009']);
    assert.equal(result.capped, 6);
    assert.equal(result.snapshot.wire, undefined, 'the wire JSON no longer lines up with the kept records: dropped');
  } finally {
    t.stop();
  }
});
