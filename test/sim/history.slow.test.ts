import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { buildLog } from '../../build/log/build.ts';
import { openLog } from '../../build/log/read.ts';
import { decodeTrace, listDay, listDays } from '../../build/history/scan.ts';
import { writeHistory, type TruthLeg } from '../../sim/history.ts';
import { assertValid } from '../../schemas/index.ts';
import { testSky, testWorld } from './world.ts';

process.env.TZ = 'UTC';
const dirs: string[] = [];
const tmp = () => {
  const d = mkdtempSync(join(tmpdir(), 'contrail-sim-test-'));
  dirs.push(d);
  return d;
};
after(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

const filesOf = (root: string): string[] =>
  readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name))
    .sort();

describe('sim globe_history', () => {
  it('writes the same bytes for the same seed, file for file', () => {
    const a = tmp();
    const b = tmp();
    writeHistory(testSky(40), a, '2025-06-02', 1);
    writeHistory(testSky(40), b, '2025-06-02', 1);
    const fa = filesOf(a);
    assert.ok(fa.length > 10, 'fa.length > 10');
    assert.deepEqual(
      fa.map((f) => f.slice(a.length)),
      filesOf(b).map((f) => f.slice(b.length)),
    );
    for (const f of fa) assert.ok(readFileSync(f).equals(readFileSync(join(b, f.slice(a.length)))), f);
  });

  it('lays files out as readsb does and every one decodes with the product reader, without a dropped row', async () => {
    const root = tmp();
    writeHistory(testSky(60), root, '2025-06-02', 1);
    assert.deepEqual(await listDays(root), ['2025-06-02']);
    const listing = await listDay(root, '2025-06-02');
    assert.deepEqual(listing.skipped, []);
    assert.ok(listing.files.length > 20, 'listing.files.length > 20');
    for (const f of listing.files) {
      const bytes = readFileSync(f.path);
      assert.equal(bytes[0], 0x1f, 'gzip bytes under a .json name');
      const t = decodeTrace(bytes, f.path);
      assert.equal(t.hex, f.hex);
      assert.equal(t.dropped, 0);
      assert.ok(t.points.length > 0 && t.type, 't.points.length > 0 && t.type');
      assert.ok(
        t.points.every((p) => p.t >= Date.parse('2025-06-02T00:00:00Z') / 1000 && p.t < Date.parse('2025-06-03T00:00:00Z') / 1000),
        "t.points.every((p) => p.t >= Date.parse('2025-06-02T00:00:00Z') / 1000 && p.t < Date.parse('2025-06-03T00:00:00Z') / 1000)",
      );
      assert.ok(
        t.points.some((p) => p.callsign),
        'callsign from the details objects',
      );
    }
  });

  it('lets the leg detector and the log step recover the simulated origins and destinations (recall and precision printed)', async () => {
    const root = tmp();
    const log = tmp();
    const world = testWorld();
    const r = writeHistory(testSky(300), root, '2025-06-01', 2);
    await buildLog({
      history: root,
      log,
      select: { from: '2025-06-02', to: '2025-06-02' },
      locate: ({ lat, lon }) => {
        const a = world.locator.locate(lat, lon);
        return a ? { ident: a.ident, runway: null } : null;
      },
      threads: 1,
      onSkip: () => {},
    });
    const l = await openLog(log, { threads: 1 });
    const rows = await l.rows('SELECT * EXCLUDE (day) FROM legs WHERE org IS NOT NULL AND dst IS NOT NULL');
    l.close();
    for (const row of rows.slice(0, 200)) assertValid('flight-log', row);
    const dayStart = Date.parse('2025-06-02T00:00:00Z') / 1000;
    // truth: legs of the day whose take-off and landing a station heard on the ground
    const truth = r.truth.filter((t) => t.off >= dayStart && t.on < dayStart + 86400 && t.heardOrg && t.heardDst);
    // a logged leg may be one that took off the day before (carried over midnight): match against every simulated leg
    const byHex = new Map<string, TruthLeg[]>();
    for (const t of r.truth) byHex.set(t.hex, [...(byHex.get(t.hex) ?? []), t]);
    const near = (row: Record<string, unknown>) => (byHex.get(row.hex as string) ?? []).find((t) => Math.abs(t.off - Number(row.dep_ts)) < 300);
    const correct = rows.filter((row) => {
      const t = near(row);
      return t && t.org === row.org && t.dst === row.dst;
    });
    const recovered = new Set(correct.map((row) => near(row)).filter((t) => t && truth.includes(t)));
    const recall = recovered.size / truth.length;
    const precision = correct.length / rows.length;
    console.log(
      `sim -> detector -> log: ${truth.length} heard legs, ${rows.length} logged with both ends; recall ${(recall * 100).toFixed(1)} %, precision ${(precision * 100).toFixed(1)} %`,
    );
    assert.ok(truth.length > 200, `${truth.length} truth legs`);
    // floors: the simulator only puts the ground at runways and hears both ends, so the detector
    // should miss or misplace almost nothing; a few legs cut at midnight carry into the next day
    assert.ok(recall >= 0.9, `recall ${recall}`);
    assert.ok(precision >= 0.95, `precision ${precision}`);
  });
});
