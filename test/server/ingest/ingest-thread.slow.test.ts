// the feed ingested on the ingest thread gives exactly what parsing and preparing here gives: the
// served bytes, the indexes, the followers' columns, the records, the counters; its gzip (and
// brotli when asked) are the body's; a bad file is classified the same way.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { parseFeed } from '../../../server/feed/parse.ts';
import { IngestThread } from '../../../server/ingest/ingest-thread.ts';
import type { FeedCounters } from '../../../server/feed/normalize.ts';
import { PreparedSnapshot } from '../../../server/live/snapshot.ts';
import { prepareParts } from '../../../server/parts/prepare.ts';
import { aircraftOf } from '../../../server/ingest/arrival.ts';

const BIG = gunzipSync(readFileSync(new URL('../../../bench/data/readsb_aircraft_12k.json.gz', import.meta.url)));
const BAD = readFileSync(new URL('../../fixtures/feed/bad-records.json', import.meta.url));

test('an ingest-thread snapshot equals one parsed and prepared here: bytes, indexes, columns, records', { timeout: 30_000 }, async () => {
  const t = new IngestThread();
  try {
    for (const bytes of [BIG, BAD]) {
      const here: FeedCounters = {};
      const local = parseFeed(Buffer.from(bytes), here);
      const { result, counters } = await t.parse(Buffer.from(bytes));
      assert.ok(local.ok && result.ok, 'local.ok && result.ok');
      const parts = result.snapshot.parts;
      assert.ok(parts, 'the snapshot came back prepared');
      assert.ok(!('wire' in result.snapshot) && !('aircraft' in result.snapshot), 'no per-record objects or wire JSON cross: only the parts');
      assert.equal(result.snapshot.now, local.snapshot.now, "the decoder's now, as the parts carry it");
      assert.equal(result.snapshot.messages, local.snapshot.messages);
      const mine = prepareParts(local.snapshot);
      const { gz, br, ...theirs } = parts;
      assert.deepEqual({ ...theirs, body: Buffer.from(theirs.body) }, { ...mine, body: Buffer.from(mine.body) });
      assert.ok(gz && gunzipSync(gz).equals(Buffer.from(mine.body)), 'the gzip made there is the body');
      assert.equal(br, undefined, 'no brotli unless asked');
      assert.deepEqual(aircraftOf(result.snapshot), local.snapshot.aircraft, 'the records read back on demand');
      assert.deepEqual(counters, here);
      const a = new PreparedSnapshot(parts);
      const b = PreparedSnapshot.of(local.snapshot, { eagerGzip: false });
      assert.ok(a.body.equals(b.body), 'a.body.equals(b.body)');
      assert.deepEqual(a.search.find('type', 'A320'), b.search.find('type', 'A320'));
      assert.deepEqual(a.index.within(50, 8, 250), b.index.within(50, 8, 250));
    }
    t.brotli = () => true;
    const { result } = await t.parse(Buffer.from(BIG));
    assert.ok(result.ok && result.snapshot.parts.br, 'brotli made when asked');
    assert.ok(
      brotliDecompressSync(result.snapshot.parts.br).equals(Buffer.from(result.snapshot.parts.body)),
      'brotliDecompressSync(result.snapshot.parts.br).equals(Buffer.from(result.snapshot.parts.body))',
    );
    const broken = await t.parse(Buffer.from('{"now": 17'));
    assert.equal(broken.result.ok ? 'ok' : broken.result.reason, 'invalid_json');
  } finally {
    t.stop();
  }
});

test('a stopped parser fails what it held, and the next parse starts a fresh worker', { timeout: 30_000 }, async () => {
  const t = new IngestThread();
  const held = t.parse(Buffer.from(BIG));
  t.stop();
  await assert.rejects(held, /stopped/);
  const again = await t.parse(Buffer.from('{"now": 1795312389, "aircraft": []}'));
  assert.equal(again.result.ok, true);
  t.stop();
});

test('the aircraft cap is applied on the parser thread: only the kept records cross, the rest are counted', { timeout: 30_000 }, async () => {
  const t = new IngestThread();
  try {
    const aircraft = Array.from({ length: 10 }, (_, i) => ({ hex: `00000${i}`, lat: 50, lon: 8, seen: 10 - i }));
    const { result } = await t.parse(Buffer.from(JSON.stringify({ now: 1795312389, aircraft })), 4);
    assert.ok(result.ok, 'result.ok');
    assert.deepEqual(
      aircraftOf(result.snapshot).map((a) => a.hex),
      ['000006', '000007', '000008', '000009'],
    );
    assert.equal(result.capped, 6);
    assert.equal(result.snapshot.parts.total, 4, 'only the kept records were prepared');
  } finally {
    t.stop();
  }
});

test('a feed file read on the ingest thread gives the snapshot its bytes give; a missing or oversized file is a read_error', { timeout: 30_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'contrail-ingest-read-'));
  const t = new IngestThread();
  try {
    const file = join(dir, 'aircraft.json');
    writeFileSync(file, BIG);
    const [read, given] = [await t.read(file, BIG.length), await t.parse(Buffer.from(BIG))];
    assert.ok(read.result.ok && given.result.ok, 'read.result.ok && given.result.ok');
    assert.ok(Buffer.from(read.result.snapshot.parts.body).equals(Buffer.from(given.result.snapshot.parts.body)), 'the same served bytes');
    assert.deepEqual(read.counters, given.counters);
    const small = await t.read(file, BIG.length - 1);
    assert.deepEqual(small.result, { ok: false, reason: 'read_error', detail: `${file} is ${BIG.length} bytes, over the ${BIG.length - 1} limit` });
    const gone = await t.read(join(dir, 'nope.json'), 1 << 20);
    assert.deepEqual(gone.result, { ok: false, reason: 'read_error', detail: `cannot read ${join(dir, 'nope.json')}: ENOENT` });
  } finally {
    t.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});
