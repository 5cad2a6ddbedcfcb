// the segment layout (artifacts/segments.ts) and a segment's manifest read back
// (artifacts/segment-manifest.ts): which keys live in segments and where, and a missing, malformed
// or misplaced segment.json as an error that names the file.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { keys } from '../../artifacts/keys.ts';
import { keyInSegment, segmentDirOf, segmentLinkTarget, segmentOfKey, storedFileOf } from '../../artifacts/segments.ts';
import { parseSegmentManifest, readSegment, SegmentError, segmentFile } from '../../artifacts/segment-manifest.ts';

const DAY = '2026-11-20';
const SHA = 'a'.repeat(64);
const good = (over: Record<string, unknown> = {}) => ({
  kind: 'flights',
  date: DAY,
  segment_id: '20261121T031500Z',
  built_at: '2026-11-21T03:15:00.000Z',
  objects: { '4b1814': { sha256: SHA, bytes: 10, gzip_bytes: 30 } },
  ...over,
});

test('flights and movements keys map to a day and a name in their segment, and back; other keys are in no segment', () => {
  assert.deepEqual(segmentOfKey(keys.flights('4b1814', DAY)), { kind: 'flights', date: DAY, name: '4b1814' });
  assert.deepEqual(segmentOfKey(keys.movements('ZRH', DAY)), { kind: 'movements', date: DAY, name: 'ZRH' });
  assert.deepEqual(segmentOfKey(keys.movements('LSZH', DAY)), { kind: 'movements', date: DAY, name: 'LSZH' });
  for (const k of [keys.airframe('4b1814'), keys.airport('ZRH'), keys.routesTable(), 'v1/flights/4b1814/2026-11', 'v1/flights/4B1814/2026-11-20'])
    assert.equal(segmentOfKey(k), null, k);
  assert.equal(keyInSegment('flights', DAY, '4b1814'), keys.flights('4b1814', DAY));
  assert.equal(keyInSegment('movements', DAY, 'LSZH'), keys.movements('LSZH', DAY));
  assert.throws(() => keyInSegment('flights', DAY, 'ZRH'), /"ZRH" is no flights name for 2026-11-20/);
  assert.throws(() => keyInSegment('movements', DAY, '../x'), /no movements name/);
});

test("a key is read through the version's segment link only when its manifest names that day", () => {
  const segs = { [`flights/${DAY}`]: { segment_id: 'b1', sha256: SHA } };
  assert.equal(storedFileOf(keys.flights('4b1814', DAY), segs), `segments/flights/${DAY}/4b1814.gz`);
  assert.equal(storedFileOf(keys.flights('4b1814', '2026-11-21'), segs), 'v1/flights/4b1814/2026-11-21.gz', 'a day without a segment: the flat layout');
  assert.equal(storedFileOf(keys.movements('ZRH', DAY), segs), `v1/airports/ZRH/movements/${DAY}.gz`, 'movements of that day have no segment here');
  assert.equal(storedFileOf(keys.flights('4b1814', DAY), undefined), `v1/flights/4b1814/${DAY}.gz`, 'a version without segments');
  assert.equal(storedFileOf(keys.airframe('4b1814'), segs), 'v1/airframes/4b1814.gz');
  // the link sits four folders below the root: versions/<id>/segments/<kind>/<date>
  assert.equal(segmentLinkTarget('flights', DAY, 'b1'), `../../../../segments/flights/${DAY}/b1`);
  assert.throws(() => segmentDirOf('flights', DAY, 'b1.partial-12'), /not a build id/);
  assert.throws(() => segmentDirOf('flights', '2026-1-20', 'b1'), /not YYYY-MM-DD/);
});

test('a malformed segment.json is a SegmentError naming the file and the fix', () => {
  const f = '/tree/segments/flights/2026-11-20/b1/segment.json';
  assert.deepEqual(parseSegmentManifest(JSON.stringify(good()), f), good());
  const bad: [string, RegExp][] = [
    ['{"kind":', /is not JSON/],
    ['[]', /does not match schemas\/segment\.schema\.json/],
    [JSON.stringify(good({ kind: 'airframes' })), /\/kind must be equal to one of the allowed values/],
    [JSON.stringify(good({ date: '20-11-2026' })), /\/date/],
    [JSON.stringify(good({ objects: { '4b1814': { sha256: 'xyz', bytes: 1, gzip_bytes: 1 } } })), /sha256/],
    [JSON.stringify(good({ objects: { '../etc': { sha256: SHA, bytes: 1, gzip_bytes: 1 } } })), /property name/],
    [JSON.stringify({ ...good(), extra: 1 }), /must NOT have additional properties/],
  ];
  for (const [text, why] of bad) {
    assert.throws(
      () => parseSegmentManifest(text, f),
      (e: unknown) => e instanceof SegmentError && e.message.startsWith(f) && why.test(e.message) && /--rebuild/.test(e.message),
      text,
    );
  }
});

test('a missing segment.json, one at the wrong place, or not the one the version names is a SegmentError naming it', () => {
  const root = mkdtempSync(join(tmpdir(), 'contrail-seg-'));
  const dir = join(root, 'segments/flights', DAY, '20261121T031500Z');
  mkdirSync(dir, { recursive: true });
  const want = { kind: 'flights' as const, date: DAY, id: '20261121T031500Z' };
  assert.throws(
    () => readSegment(dir, want),
    (e: unknown) =>
      e instanceof SegmentError &&
      e.message ===
        `${join(dir, 'segment.json')} is missing: the segment was never finished or was damaged; build every day again (npm run nightly -- --rebuild)`,
  );
  const text = JSON.stringify(good());
  writeFileSync(join(dir, 'segment.json'), text);
  const sha = createHash('sha256').update(text).digest('hex');
  assert.equal(readSegment(dir, { ...want, sha256: sha }).manifest.objects['4b1814']?.bytes, 10);
  assert.equal(segmentFile(dir, sha).sha256, sha);
  assert.throws(
    () => readSegment(dir, { ...want, id: 'other' }),
    /says it is segment flights\/2026-11-20\/20261121T031500Z, but it lies at flights\/2026-11-20\/other/,
  );
  assert.throws(
    () => segmentFile(dir, SHA),
    (e: unknown) => e instanceof SegmentError && e.message.includes(`${join(dir, 'segment.json')} is not the segment.json the version was built with`),
  );
});
