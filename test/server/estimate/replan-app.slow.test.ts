// the demo's AFL292 (issue 43): the real server app, started before its first build is published,
// lists an estimate without a destination; once the build lands (and again when a newer one sends
// it elsewhere) /v1/estimated names its destination and eta. the app's own wiring (server/app.ts:
// the served build's id is the tracker's routes version), the real feed file, HTTP and schema.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp } from '../../../server/app.ts';
import { loadServerConfig } from '../../../server/config.ts';
import { commit, stage } from '../../../build/publish/publish.ts';
import { keys } from '../../../artifacts/keys.ts';
import { makePlan } from '../../../lib/estimate/fly.ts';
import { httpGet } from '../../helpers/http.ts';

process.env.TZ = 'UTC';
const T = 1_790_000_000;
const AFL = { hex: '155f2a', flight: 'AFL292', lat: 55, lon: 60, alt_baro: 35000, gs: 470, track: 95, baro_rate: 0 };
// Moscow -> Beijing: PEK lies about 37 deg right of the track at the end of the hold, within the 60 deg it turns to
const PEK = { code: 'PEK', lat: 40.0801, lon: 116.5846 };
const HKG = { code: 'HKG', lat: 22.308, lon: 113.9185 };

function publish(root: string, id: string, dst: 'PEK' | 'HKG') {
  const s = stage(root, id);
  s.writer.put(keys.routesTable(), { AFL292: ['SVO', dst, 'observed'] });
  s.writer.put(keys.lookup(), {
    airports_icao_to_iata: { ZBAA: 'PEK', VHHH: 'HKG', UUEE: 'SVO' },
    airport_positions: { PEK: [PEK.lat, PEK.lon], HKG: [HKG.lat, HKG.lon], SVO: [55.9726, 37.4146] },
    airlines: ['AFL'],
  });
  s.writer.writeManifest({ build_id: id, built_at: new Date(T * 1000).toISOString(), archive_through: '2026-09-20', window_days: 30, counts: {} });
  commit(root, s);
}

test('an estimate listed before the first build gains its destination and eta when the build loads, and follows a newer build', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'contrail-replan-'));
  const feed = join(dir, 'aircraft.json');
  const artifacts = join(dir, 'artifacts');
  let nowMs = T * 1000;
  const write = (now: number, aircraft: object[]) => {
    writeFileSync(`${feed}.tmp`, JSON.stringify({ now, messages: now - T, aircraft }));
    renameSync(`${feed}.tmp`, feed);
  };
  write(T, [{ ...AFL, seen: 0, seen_pos: 0 }]);
  const { config } = loadServerConfig(
    ['--port', '0', '--host', '127.0.0.1', '--feed', feed, '--artifacts', artifacts, '--state', join(dir, 'state'), '--no-rate-limits'],
    {},
  );
  const app = await createApp(config, { log: () => {}, clock: () => nowMs, poll: false });
  const base = `http://127.0.0.1:${app.port}`;
  const snapshot = async (now: number, aircraft: object[]) => {
    write(now, aircraft);
    nowMs = now * 1000;
    await app.services.feed!.pollOnce();
    for (let i = 0; app.services.tracker.lastSnapshotS !== now || app.services.live.latest()?.snap.now !== now; i++) {
      assert.ok(i < 5000, `the server did not take the snapshot of ${now}`);
      await new Promise((r) => setTimeout(r, 1));
    }
  };
  const estimate = async () => {
    const r = await httpGet(`${base}/v1/estimated`, { schema: 'estimated' });
    assert.equal(r.status, 200);
    return (r.json.aircraft as { hex: string; destination?: string; eta?: number }[]).find((a) => a.hex === AFL.hex);
  };
  try {
    await snapshot(T, [{ ...AFL, seen: 0, seen_pos: 0 }]);
    await snapshot(T + 120, []);
    const before = await estimate();
    assert.ok(before, 'listed 120 s after last heard');
    assert.equal(before.destination, undefined, 'no build loaded: no destination');
    assert.equal(before.eta, undefined, 'and no eta');

    publish(artifacts, 'b1', 'PEK');
    assert.equal(app.services.history.refresh(), true);
    await snapshot(T + 600, []);
    const start = { t: T, lat: AFL.lat, lon: AFL.lon, track: AFL.track, gs: AFL.gs, alt: AFL.alt_baro };
    const loaded = await estimate();
    assert.equal(loaded?.destination, 'PEK', 'the build loaded: its destination');
    assert.equal(loaded?.eta, Math.round(makePlan(start, PEK).eta!));

    // 40 minutes on (past the 30 an estimate without a route lives), a newer build routes it elsewhere
    await snapshot(T + 2400, []);
    assert.equal((await estimate())?.destination, 'PEK', 'still listed, flying to PEK');
    publish(artifacts, 'b2', 'HKG');
    assert.equal(app.services.history.refresh(), true);
    await snapshot(T + 2410, []);
    const moved = await estimate();
    assert.equal(moved?.destination, 'HKG');
    assert.equal(moved?.eta, Math.round(makePlan(start, HKG).eta!));
  } finally {
    await app.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});
