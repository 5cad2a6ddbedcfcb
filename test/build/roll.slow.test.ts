// the `today` roll (build/roll.ts): an airport's `today` follows its own local midnight, not the
// nightly's clock; only the airports whose local day changed are rewritten; the served document
// changes through the real server once the new version is published.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runRoll } from '../../build/roll.ts';
import { currentVersion, readObject } from '../../artifacts/tree.ts';
import { ConfigError } from '../../lib/cli.ts';
import type { AirportDoc } from '../../artifacts/airport-doc.ts';
import { httpGet } from '../helpers/http.ts';
import { NOW_MS, publishTree } from '../helpers/publish-fixture.ts';
import { startApp, type RunningApp } from '../reliability/app.ts';

process.env.TZ = 'UTC';

// NOW_MS is 2026-11-22T03:00Z: 04:00 in Zurich (UTC+1), 12:00 in Tokyo (UTC+9)
const at = (iso: string) => Date.parse(iso);
const timetable = (iata: string, day: string, flight: string, dep: string) => ({
  airport: iata,
  day,
  source: `test timetable of ${iata} for ${day}`,
  departures: [{ flight, callsign: `X${flight}`, dst: iata === 'ZRH' ? 'NRT' : 'ZRH', dep, type: 'A320' }],
  arrivals: [],
});

function timetables(): string {
  const dir = mkdtempSync(join(tmpdir(), 'contrail-roll-tt-'));
  const put = (iata: string, day: string, doc: unknown) => {
    mkdirSync(join(dir, iata), { recursive: true });
    writeFileSync(join(dir, iata, `${day}.json`), typeof doc === 'string' ? doc : JSON.stringify(doc));
  };
  put('ZRH', '2026-11-22', timetable('ZRH', '2026-11-22', 'LX22', '08:00'));
  put('ZRH', '2026-11-23', timetable('ZRH', '2026-11-23', 'LX23', '09:30'));
  put('NRT', '2026-11-22', timetable('NRT', '2026-11-22', 'NH22', '10:00'));
  put('NRT', '2026-11-23', '{"airport": "NRT", "day": "2026-11-23", "departures": [}'); // broken: rejected
  put('QQQ', '2026-11-23', timetable('QQQ', '2026-11-23', 'QQ1', '10:00')); // no such airport
  return dir;
}

describe('the today roll on a published tree, served by the real server', () => {
  let a: RunningApp;
  let tt: string;
  const airport = async (code: string) => JSON.parse((await httpGet(`${a.base}/v1/airports/${code}`)).text) as AirportDoc;
  const roll = (iso: string, said: string[] = []) => runRoll({ artifacts: a.fx.root, timetables: tt, keep: 3 }, at(iso), (l) => said.push(l));

  before(async () => {
    a = await startApp();
    tt = timetables();
    await publishTree(a.fx.log, a.fx.root, 'nightly', { timetablesDir: tt, nowMs: NOW_MS });
    a.app.services.history.refresh();
  });
  after(() => a.stop());

  it("the nightly sets today to each airport's local day at its own clock", async () => {
    const zrh = await airport('ZRH');
    assert.equal(zrh.today?.day, '2026-11-22');
    assert.ok(
      zrh.board.some((r) => r.flight === 'LX22' && r.source === 'published'),
      "zrh.board.some((r) => r.flight === 'LX22' && r.source === 'published')",
    );
    assert.equal((await airport('NRT')).today?.day, '2026-11-22');
  });

  it("just before Zurich's midnight nothing has changed and nothing is published", () => {
    const r = roll('2026-11-22T14:59:00Z'); // 23:59 in Tokyo, 15:59 in Zurich
    assert.deepEqual(r, { rolled: [], buildId: null });
    assert.equal(currentVersion(a.fx.root)!.id, 'nightly');
  });

  it("after Tokyo's midnight only Tokyo rolls: its new day's file is broken, so today is null and the old published rows go", async () => {
    const said: string[] = [];
    const r = roll('2026-11-22T15:01:00Z', said);
    assert.deepEqual(r.rolled, ['NRT']);
    assert.ok(
      said.some((l) => l.includes('rejected') && l.includes('NRT/2026-11-23.json')),
      'the broken file is reported with its path',
    );
    a.app.services.history.refresh();
    const nrt = await airport('NRT');
    assert.equal(nrt.today, null);
    assert.equal(nrt.board.filter((x) => x.source === 'published').length, 0);
    assert.equal((await airport('ZRH')).today?.day, '2026-11-22', 'Zurich is still on the 22nd (16:01 local)');
  });

  it("after Zurich's midnight Zurich rolls to the 23rd: its board drops LX22 and shows LX23, under both spellings", async () => {
    const before = currentVersion(a.fx.root)!;
    const r = roll('2026-11-22T23:01:00Z'); // 00:01 on the 23rd in Zurich
    assert.deepEqual(r.rolled, ['ZRH']);
    a.app.services.history.refresh();
    const zrh = await airport('ZRH');
    assert.equal(zrh.today?.day, '2026-11-23');
    assert.deepEqual(
      zrh.today?.departures.map((d) => d.flight),
      ['LX23'],
    );
    assert.ok(
      zrh.board.some((x) => x.flight === 'LX23' && x.dep === '09:30' && x.source === 'published'),
      "zrh.board.some((x) => x.flight === 'LX23' && x.dep === '09:30' && x.source === 'published')",
    );
    assert.ok(!zrh.board.some((x) => x.flight === 'LX22'), "!zrh.board.some((x) => x.flight === 'LX22')");
    assert.deepEqual(await airport('LSZH'), zrh, 'the ICAO spelling is the same document');
    // the observed rows are untouched by the roll
    const observed = (d: AirportDoc) => d.board.filter((x) => x.source !== 'published').map((x) => ({ ...x, source: 'observed' }));
    assert.deepEqual(observed(zrh), observed(readObject(before.dir, 'v1/airports/ZRH') as AirportDoc));
    // every other object is the previous version's, byte for byte
    const now = currentVersion(a.fx.root)!;
    const differ = Object.keys(now.manifest.objects).filter((k) => now.manifest.objects[k]!.sha256 !== before.manifest.objects[k]?.sha256);
    assert.deepEqual(differ.sort(), ['v1/airports/LSZH', 'v1/airports/ZRH']);
    assert.equal(Object.keys(now.manifest.objects).length, Object.keys(before.manifest.objects).length);
    assert.equal(now.manifest.archive_through, before.manifest.archive_through);
    assert.equal(now.manifest.counts.airports_rolled, 1);
  });

  it('rolling again at the same hour changes nothing', () => {
    assert.deepEqual(roll('2026-11-22T23:20:00Z'), { rolled: [], buildId: null });
  });

  it('refuses a missing timetables folder and an empty tree with a clear configuration error', () => {
    assert.throws(
      () => runRoll({ artifacts: a.fx.root, timetables: join(tt, 'nope'), keep: 3 }, NOW_MS, () => {}),
      (e: unknown) => e instanceof ConfigError && /cannot read --timetables/.test(e.message),
    );
    const empty = mkdtempSync(join(tmpdir(), 'contrail-roll-empty-'));
    assert.throws(
      () => runRoll({ artifacts: empty, timetables: tt, keep: 3 }, NOW_MS, () => {}),
      (e: unknown) => e instanceof ConfigError && /nothing is published/.test(e.message),
    );
  });
});
