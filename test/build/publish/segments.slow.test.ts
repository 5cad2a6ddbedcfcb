// closed days of flights and movements as immutable segments that versions share (artifacts/segments.ts,
// build/publish/version-segments.ts): a night writes only its own days' segments and names the
// kept ones, never links a closed day's object, the served tree stays whole when a build is killed
// inside a segment, and a segment is removed only when no kept version names it. slow: the kill
// test starts a child process.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { lstatSync, mkdtempSync, readdirSync, readlinkSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stage } from '../../../build/publish/publish.ts';
import { currentTable, currentVersion, readObject } from '../../../artifacts/tree.ts';
import { keys } from '../../../artifacts/keys.ts';
import { flightsDoc } from '../../../artifacts/flights-doc.ts';
import { SEGMENT_KINDS, type SegmentKind } from '../../../artifacts/segments.ts';
import { DAYS, flight, night, segmentsOnDisk } from '../../helpers/segment-nights.ts';
import { namedSegments } from '../../../build/publish/segment-prune.ts';
import { SegmentError } from '../../../artifacts/segment-manifest.ts';
import { HistoryStore } from '../../../server/history/history-store.ts';

/** every name under a folder, depth first, not through symlinks */
function walk(dir: string, out: string[] = [], at = ''): string[] {
  for (const n of readdirSync(dir)) {
    const p = join(dir, n);
    out.push(`${at}${n}`);
    if (lstatSync(p).isDirectory()) walk(p, out, `${at}${n}/`);
  }
  return out;
}

test("a night that adds a day writes exactly 2 new segments per kind and links no closed day's object", () => {
  const root = mkdtempSync(join(tmpdir(), 'contrail-seg-'));
  night(root, 'b1', DAYS.slice(0, 3));
  const before = segmentsOnDisk(root);
  const inodes = new Map(before.map((s) => [s, statSync(join(root, 'segments', s, 'segment.json')).ino]));
  const { writer } = night(root, 'b2', DAYS);
  const after = segmentsOnDisk(root);
  const added = after.filter((s) => !before.includes(s));
  // the new day and the day before it, per kind; the day before's old segment is still b1's (kept: b1 is kept)
  assert.deepEqual(added, ['flights/2026-11-20/b2', 'flights/2026-11-21/b2', 'movements/2026-11-20/b2', 'movements/2026-11-21/b2']);
  assert.deepEqual(writer.segments.stats, { written: 4, kept: 4 });
  for (const s of before) assert.equal(statSync(join(root, 'segments', s, 'segment.json')).ino, inodes.get(s), `${s} untouched`);
  // the version holds one symlink per day and no object of any day: nothing to link or copy
  const v2 = join(root, 'versions', 'b2');
  const names = walk(v2);
  assert.deepEqual(
    names.filter((n) => n.startsWith('segments/')).sort(),
    [...SEGMENT_KINDS.map((k) => `segments/${k}`), ...SEGMENT_KINDS.flatMap((k) => DAYS.map((d) => `segments/${k}/${d}`))].sort(),
  );
  assert.ok(
    names.every((n) => !/\/flights\/|\/movements\//.test(n) || n.startsWith('segments/')),
    names.join(),
  );
  for (const k of SEGMENT_KINDS) for (const d of DAYS) assert.ok(lstatSync(join(v2, 'segments', k, d)).isSymbolicLink(), `${k}/${d} is a link`);
  assert.equal(readlinkSync(join(v2, 'segments/flights/2026-11-18')), '../../../../segments/flights/2026-11-18/b1', 'a closed day: the segment b1 wrote');
  assert.equal(readlinkSync(join(v2, 'segments/flights/2026-11-21')), '../../../../segments/flights/2026-11-21/b2');
  // the manifest: the other objects, and one entry per kind and day
  const m = currentVersion(root)!.manifest;
  assert.deepEqual(Object.keys(m.objects), [keys.routesTable()]);
  assert.deepEqual(Object.keys(m.segments ?? {}).length, 8);
  assert.equal(m.segments?.['flights/2026-11-18']?.segment_id, 'b1');
  assert.equal(currentTable(root)!.header.segments?.['movements/2026-11-20']?.segment_id, 'b2', 'the table reader keeps them');
});

test('the history store reads a closed day through its segment, frozen as the night it closed wrote it', () => {
  const root = mkdtempSync(join(tmpdir(), 'contrail-seg-'));
  night(root, 'b1', DAYS.slice(0, 3));
  night(root, 'b2', DAYS);
  const h = new HistoryStore(root);
  assert.equal(h.refresh(), true);
  const doc = (key: string) => {
    const gz = h.object(key);
    return gz && (JSON.parse(gunzipSync(gz).toString('utf8')) as { flights?: { dst: string }[]; date?: string });
  };
  assert.equal(doc(keys.flights('4b1814', '2026-11-18'))?.flights?.[0]?.dst, 'LCY', "closed before tonight: b1's route");
  assert.equal(doc(keys.flights('4b1814', '2026-11-21'))?.flights?.[0]?.dst, 'LHR', 'written tonight');
  assert.equal(doc(keys.movements('LSZH', '2026-11-19'))?.date, '2026-11-19', 'the ICAO spelling lives in the same segment');
  assert.equal(h.object(keys.flights('4b1814', '2026-11-17')), null, 'a day no version names');
  assert.equal(h.object(keys.flights('ffffff', '2026-11-18')), null, 'an airframe the day lacks');
  assert.deepEqual(readObject(join(root, 'current'), keys.routesTable()), {});
});

test('a build killed while a segment is written leaves the served tree whole; the next build sweeps the partial segment', () => {
  const root = mkdtempSync(join(tmpdir(), 'contrail-seg-'));
  night(root, 'b1', DAYS.slice(0, 3));
  const before = JSON.stringify(currentVersion(root));
  const onDisk = segmentsOnDisk(root);
  // a real child process that stages a build, finishes one segment, writes into a second, then dies by SIGKILL
  const json = (day: string) => JSON.stringify(JSON.stringify(flightsDoc('4b1814', day, [flight('4b1814', day, day)])));
  const script = `
    import { stage } from ${JSON.stringify(new URL('../../../build/publish/publish.ts', import.meta.url).pathname)};
    const s = stage(${JSON.stringify(root)}, 'killed');
    const done = s.writer.segments.write('flights', '2026-11-21', 'killed');
    done.put('4b1814', ${json('2026-11-21')});
    s.writer.segments.finish(done, '2026-11-22T03:00:00.000Z');
    const sink = s.writer.segments.write('flights', '2026-11-20', 'killed');
    for (let i = 0; i < 50; i++) sink.put((0xa00000 + i).toString(16), ${json('2026-11-20')});
    process.kill(process.pid, 'SIGKILL');`;
  const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8' });
  assert.equal(r.signal, 'SIGKILL', r.stderr);
  assert.equal(JSON.stringify(currentVersion(root)), before, 'current is untouched');
  const left = segmentsOnDisk(root).filter((s) => !onDisk.includes(s));
  assert.equal(left.length, 2, left.join());
  assert.ok(left.includes('flights/2026-11-21/killed'), 'the finished segment no version names');
  assert.ok(
    left.some((s) => s.startsWith('flights/2026-11-20/killed.partial-')),
    'the partial segment',
  );
  // the served tree reads whole: every day the current manifest names, through its link
  const h = new HistoryStore(root);
  h.refresh();
  for (const d of DAYS.slice(0, 3)) assert.ok(h.object(keys.flights('4b1814', d)), d);
  night(root, 'b2', DAYS);
  assert.deepEqual(
    segmentsOnDisk(root).filter((s) => s.includes('killed')),
    [],
    "the killed build's segments swept",
  );
});

test('a segment is removed only when no kept version names it', () => {
  const root = mkdtempSync(join(tmpdir(), 'contrail-seg-'));
  night(root, 'b1', DAYS.slice(0, 2), 1);
  night(root, 'b2', DAYS.slice(0, 3), 1);
  // b1 is kept (keep 1): the segments of 2026-11-19 it wrote, which b2 wrote again, are still named
  assert.ok(segmentsOnDisk(root).includes('flights/2026-11-19/b1'), 'b1 still names its 11-19 segment');
  night(root, 'b3', DAYS, 1);
  // b1 is pruned now: its 11-19 segment is named by no kept version (b2 wrote its own), so it goes;
  // its 11-18 segment is named by b2 and b3, which kept it, so it stays
  const on = segmentsOnDisk(root);
  assert.ok(!on.includes('flights/2026-11-19/b1'), on.join());
  assert.ok(on.includes('flights/2026-11-18/b1'), on.join());
  assert.ok(on.includes('flights/2026-11-19/b2') && on.includes('flights/2026-11-20/b2'), "b2's days, named by b2 (kept)");
  const named = namedSegments(root);
  for (const s of on) assert.ok(named.has(`segments/${s}`), `${s} is on disk and named`);
  assert.deepEqual(readdirSync(join(root, 'versions')).sort(), ['b2', 'b3']);
  // with keep 0 only the current version's segments are left
  night(root, 'b4', DAYS, 0);
  const kinds = (k: SegmentKind) => segmentsOnDisk(root).filter((s) => s.startsWith(`${k}/`));
  assert.deepEqual(kinds('flights'), ['flights/2026-11-18/b1', 'flights/2026-11-19/b2', 'flights/2026-11-20/b4', 'flights/2026-11-21/b4']);
});

test('a kept day whose segment.json is missing or not the one named stops the build with an error naming it', () => {
  const root = mkdtempSync(join(tmpdir(), 'contrail-seg-'));
  night(root, 'b1', DAYS.slice(0, 3));
  const file = join(root, 'segments/flights/2026-11-18/b1/segment.json');
  writeFileSync(file, '{"kind":"flights"}');
  const s = stage(root, 'b2');
  assert.throws(
    () => s.writer.segments.keepDay('flights', '2026-11-18'),
    (e: unknown) => e instanceof SegmentError && e.message.startsWith(`${file} is not the segment.json the version was built with`),
  );
  rmSync(file);
  assert.throws(
    () => s.writer.segments.keepDay('flights', '2026-11-18'),
    (e: unknown) =>
      e instanceof SegmentError &&
      e.message === `${file} is missing: the segment was never finished or was damaged; build every day again (npm run nightly -- --rebuild)`,
  );
  assert.equal(s.writer.segments.keepDay('flights', '2026-11-17'), false, 'a day the previous version does not name: built');
  assert.equal(s.writer.segments.keepDay('movements', '2026-11-18'), true);
  assert.equal(s.writer.segments.keepDay('movements', '2026-11-18'), false, 'named once');
  const sink = s.writer.segments.write('flights', '2026-11-19', 'b2');
  assert.throws(
    () => s.writer.writeManifest({ build_id: 'b2', built_at: '2026-11-22T03:00:00.000Z', archive_through: null, window_days: 0, counts: {} }),
    /segments flights\/2026-11-19 are not finished/,
  );
  assert.throws(() => sink.put('4b1814', JSON.stringify({ nope: 1 })), /does not match schemas\/flights\.schema\.json/, 'validated as the writer validates');
  assert.throws(() => s.writer.segments.write('movements', '2026-11-18', 'b2'), /names segment movements\/2026-11-18 already/);
});
