// PreparedSnapshot: bboxPayload gives one body (and one gzip, made off the serving thread) per box
// and snapshot, the same bytes a fresh assembly gives, bounded so a flood of boxes is still
// answered; the point body's dst is written digit by digit exactly as JavaScript prints it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { gunzipSync } from 'node:zlib';
import { PreparedSnapshot, writeDstTail } from '../../../server/live/snapshot.ts';
import { mulberry32 } from '../../../lib/random.ts';
import type { AircraftRecord } from '../../../server/feed/record.ts';

const sky = (now: number): PreparedSnapshot =>
  PreparedSnapshot.of(
    {
      now,
      aircraft: Array.from(
        { length: 400 },
        (_, i) =>
          ({
            hex: (0xa00000 + i).toString(16),
            lat: 40 + (i % 20) * 0.5,
            lon: (i % 40) * 0.5 - 10,
            alt_baro: 30000,
            gs: 450,
            track: i % 360,
            seen: 1,
          }) as AircraftRecord,
      ),
    },
    { eagerGzip: false },
  );

const box = (minLon: number) => ({ minLon, minLat: 40, maxLon: minLon + 8, maxLat: 48 });

test('the same box in one snapshot: one shared payload, its gzip made once and equal to the body', async () => {
  const s = sky(1_800_000_000);
  const a = s.bboxPayload(box(-5));
  assert.equal(s.bboxPayload(box(-5)), a, "the second request shares the first one's payload");
  assert.deepEqual(a.raw, s.bboxBody(box(-5)), 'the bytes a fresh assembly gives');
  for (let i = 0; i < 100 && !a.gz; i++) await new Promise((r) => setTimeout(r, 10));
  assert.ok(a.gz, 'the gzip arrives from the libuv pool');
  assert.deepEqual(gunzipSync(a.gz!), a.raw);
  assert.notEqual(s.bboxPayload(box(-4)), a, 'another box is another payload');
  // the next snapshot starts with nothing shared
  const next = sky(1_800_000_001);
  assert.notEqual(next.bboxPayload(box(-5)), a);
  assert.match(next.bboxPayload(box(-5)).raw!.toString(), /"generated_at":1800000001/);
});

test('past 32 boxes a snapshot keeps no more: each answer is still right, assembled per request', () => {
  const s = sky(1_800_000_000);
  for (let i = 0; i < 32; i++) s.bboxPayload(box(-10 + i * 0.01));
  const late = box(5);
  const p1 = s.bboxPayload(late);
  const p2 = s.bboxPayload(late);
  assert.notEqual(p1, p2, 'not kept');
  assert.deepEqual(p1.raw, s.bboxBody(late));
  assert.equal(p1.gz, undefined, 'no gzip is started for it (the request compresses it if asked)');
});

test('the dst tail is the text JavaScript prints for the distance rounded to 0.001 nm', () => {
  const out = Buffer.alloc(32);
  const check = (nm: number) => {
    const end = writeDstTail(out, 0, nm);
    assert.equal(out.toString('latin1', 0, end), `,"dst":${Math.round(nm * 1000) / 1000}}`, `at ${nm}`);
  };
  // every thousandth up to 200 nm, then a seeded sample up to half the earth, and the edges
  for (let milli = 0; milli <= 200_000; milli++) check(milli / 1000);
  const rnd = mulberry32(3);
  for (let i = 0; i < 200_000; i++) check(rnd() * 10_800);
  for (const nm of [0.0004, 0.0005, 0.9995, 9.9999, 10_799.9996, 10_800, 249.99950001]) check(nm);
});

test('a point body: nearest first, each record closed by its dst, valid JSON', () => {
  const s = sky(1_800_000_000);
  const body = s.pointBody(40, 0, 250, '{"ac":', (n) => `,"total":${n}}`);
  const doc = JSON.parse(body.toString()) as { ac: { hex: string; dst: number }[]; total: number };
  assert.ok(doc.total > 5, 'doc.total > 5');
  assert.equal(doc.ac.length, doc.total);
  for (let i = 1; i < doc.ac.length; i++) assert.ok(doc.ac[i]!.dst >= doc.ac[i - 1]!.dst, 'doc.ac[i]!.dst >= doc.ac[i - 1]!.dst');
  assert.equal(doc.ac[0]!.dst, 0);
  assert.equal(JSON.stringify(doc), body.toString(), 'exactly the JSON, no slack bytes after the tail');
});
