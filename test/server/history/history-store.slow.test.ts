// the server's view of the published tree: follows `current`, swaps tables whole, and feeds the
// estimator's destinations and the callsign lookups from them.
import { encodePaths } from '../../../lib/estimate/paths.ts';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { commit, stage } from '../../../build/publish/publish.ts';
import { HistoryStore } from '../../../server/history/history-store.ts';
import { destinationsFrom } from '../../../server/app.ts';
import { keys } from '../../../artifacts/keys.ts';
import { currentHeader } from '../../../artifacts/tree.ts';

const T0 = Date.UTC(2026, 10, 22, 3, 0, 0);

function publish(root: string, id: string, routes: Record<string, [string, string, string]>) {
  const s = stage(root, id);
  s.writer.put(keys.routesTable(), routes);
  s.writer.put(keys.lookup(), {
    airports_icao_to_iata: { LSZH: 'ZRH', KJFK: 'JFK' },
    airport_positions: { ZRH: [47.45806, 8.54806], JFK: [40.63983, -73.77874] },
    airlines: ['SWR'],
  });
  s.writer.writeManifest({ build_id: id, built_at: new Date(T0).toISOString(), archive_through: '2026-11-21', window_days: 30, counts: {} });
  commit(root, s);
}

test('a callsign whose route is known gets its destination airport and position; others get none', () => {
  const root = mkdtempSync(join(tmpdir(), 'contrail-hs-'));
  publish(root, 'b1', { SWR14: ['ZRH', 'JFK', 'observed'] });
  const h = new HistoryStore(root);
  h.refresh();
  const dest = destinationsFrom(h);
  assert.deepEqual(dest('SWR14'), { code: 'JFK', lat: 40.63983, lon: -73.77874 });
  // the same lookup as /v1/routes: the catalog's spelling drops the number's leading zeros
  assert.deepEqual(dest('SWR014'), { code: 'JFK', lat: 40.63983, lon: -73.77874 });
  assert.equal(dest('DAL1'), null);
});

test('callsigns are found as broadcast or in the catalog spelling, and a new build swaps the table whole', () => {
  const root = mkdtempSync(join(tmpdir(), 'contrail-hs-'));
  publish(root, 'b1', { EZY12: ['ZRH', 'JFK', 'catalog'] });
  const logs: string[] = [];
  const h = new HistoryStore(root, (l) => logs.push(l));
  assert.equal(h.refresh(), true);
  assert.equal(h.route('EZY012')?.key, 'EZY12');
  assert.equal(h.route('EZY12')?.entry[2], 'catalog');
  assert.equal(h.refresh(), false, 'nothing new');
  publish(root, 'b2', { SWR14: ['ZRH', 'JFK', 'observed'] });
  assert.equal(h.refresh(), true);
  assert.equal(h.route('EZY012'), null);
  assert.equal(h.archiveThrough(), '2026-11-21');
  assert.ok(
    logs.some((l) => l.includes('serving build b2')),
    "logs.some((l) => l.includes('serving build b2'))",
  );
});

test('with nothing published, history answers 503 artifact_unavailable', () => {
  const h = new HistoryStore(mkdtempSync(join(tmpdir(), 'contrail-hs-')));
  h.refresh();
  assert.equal(h.current, null);
  assert.throws(
    () => h.require(),
    (e: any) => e.status === 503 && e.code === 'artifact_unavailable',
  );
  assert.equal(h.archiveThrough(), null);
});

test('a tree that is there but unreadable is not "nothing published": the loaded build stays served', () => {
  const root = mkdtempSync(join(tmpdir(), 'contrail-hs-'));
  publish(root, 'b1', { SWR14: ['ZRH', 'JFK', 'observed'] });
  const logs: string[] = [];
  const h = new HistoryStore(root, (l) => logs.push(l));
  assert.equal(h.refresh(), true);
  // `current` now points at itself: reading through it fails with ELOOP, a fault that is not ENOENT
  rmSync(join(root, 'current'));
  symlinkSync('current', join(root, 'current'));
  assert.throws(() => currentHeader(root), /ELOOP/);
  assert.equal(h.refresh(), false);
  assert.equal(h.current?.version.id, 'b1', 'still serving b1');
  assert.ok(
    logs.some((l) => /cannot read .*ELOOP.*still serving b1/.test(l)),
    logs.join('\n'),
  );
  // gone for real: now history unloads and answers 503
  rmSync(join(root, 'current'));
  assert.equal(currentHeader(root), null);
  h.refresh();
  assert.equal(h.current, null);
});

test('the traffic flow and paths of the served build are loaded for the estimator; a malformed one is logged and not followed', () => {
  const root = mkdtempSync(join(tmpdir(), 'contrail-hs-'));
  const flow = { through: '2026-11-21', params: { cellDeg: 0.2, sectorDeg: 5, stepS: 60, windowDeg: 10, minN: 3, decay: 0.9 }, bins: [[235, 40, 18, 12, 3.5]] };
  const paths = encodePaths([], '2026-11-21');
  paths.paths.push(['2026-11-21', [50.03, 8.57], [47, 4, 47, 6, 48, 7]]);
  const s1 = stage(root, 'b1');
  s1.writer.put(keys.flow(), flow);
  s1.writer.put(keys.paths(), paths);
  s1.writer.writeManifest({ build_id: 'b1', built_at: new Date(T0).toISOString(), archive_through: '2026-11-21', window_days: 30, counts: {} });
  commit(root, s1);
  const logs: string[] = [];
  const h = new HistoryStore(root, (l) => logs.push(l));
  h.refresh();
  assert.deepEqual(h.current?.flow?.bins.get('235,40,18'), [12, 3.5]);
  assert.deepEqual([...h.current!.paths!.paths[0]!.lat], [47, 47, 48]);
  assert.deepEqual(h.current?.paths?.paths[0]?.to, { lat: 50.03, lon: 8.57 });
  const s2 = stage(root, 'b2');
  s2.writer.putBytes(keys.flow(), Buffer.from(JSON.stringify({ ...flow, bins: [['x']] })));
  s2.writer.putBytes(keys.paths(), Buffer.from(JSON.stringify({ ...paths, paths: [['2026-11-21', null, [47]]] })));
  s2.writer.writeManifest({ build_id: 'b2', built_at: new Date(T0).toISOString(), archive_through: '2026-11-21', window_days: 30, counts: {} });
  commit(root, s2);
  h.refresh();
  assert.equal(h.current?.version.id, 'b2', 'the build is served all the same');
  assert.equal(h.current?.flow, null);
  assert.equal(h.current?.paths, null);
  assert.ok(
    logs.some((l) => l.includes('build b2: traffic flow is malformed')),
    logs.join('\n'),
  );
  assert.ok(
    logs.some((l) => l.includes('build b2: traffic paths are malformed')),
    logs.join('\n'),
  );
});
