import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseFeed } from '../../server/feed/parse.ts';
import { parseFeederList } from '../../server/stations/parse.ts';
import { StationKeys } from '../../server/stations/ids.ts';
import { distanceNm } from '../../lib/geo.ts';
import { stateAt } from '../../sim/fly.ts';
import { aircraftJson, feederList } from '../../sim/sky.ts';
import { run, skyWithAircraft } from '../../sim/cli.ts';
import { perfOf } from '../../sim/perf.ts';
import { SEED, T, testSky, testWorld } from './world.ts';

process.env.TZ = 'UTC';

describe('sim live output', () => {
  const sky = testSky(600);

  it('writes the same aircraft.json bytes for the same seed and time, and different ones for another seed', () => {
    const a = JSON.stringify(aircraftJson(sky, T));
    assert.equal(JSON.stringify(aircraftJson(testSky(600), T)), a);
    assert.notEqual(JSON.stringify(aircraftJson(testSky(600, SEED + 1), T)), a);
  });

  it('produces an aircraft.json that the server feed parser accepts without dropping a single record or field', () => {
    const doc = aircraftJson(sky, T);
    assert.ok(doc.aircraft.length > 100, `only ${doc.aircraft.length} aircraft heard`);
    const r = parseFeed(JSON.stringify(doc));
    assert.ok(r.ok, 'r.ok');
    assert.equal(r.snapshot.aircraft.length, doc.aircraft.length);
    assert.deepEqual(r.dropped, {});
    assert.equal(r.snapshot.now, T);
    const withPos = r.snapshot.aircraft.filter((a) => a.lat !== undefined).length;
    // ~3 % have no position, as in the real 12k snapshot
    assert.ok(withPos < doc.aircraft.length && withPos > 0.9 * doc.aircraft.length, 'withPos < doc.aircraft.length && withPos > 0.9 * doc.aircraft.length');
    assert.ok(
      r.snapshot.aircraft.every((a) => a.flight && a.t && /^[0-7]{4}$/.test(a.squawk ?? '')),
      "r.snapshot.aircraft.every((a) => a.flight && a.t && /^[0-7]{4}$/.test(a.squawk ?? ''))",
    );
  });

  it('snapshot --aircraft N gives exactly N aircraft (the fleet grows until it has them)', () => {
    const { doc } = skyWithAircraft(testSky(100), 500, T);
    assert.equal(doc.aircraft.length, 500);
    assert.equal(new Set(doc.aircraft.map((a) => a.hex)).size, 500);
  });

  it('writes a feeder list the stations parser accepts whole, stamped with the snapshot time', () => {
    const keys = new StationKeys(Buffer.alloc(32, 7));
    const r = parseFeederList(JSON.stringify(feederList(sky, T)), keys);
    assert.ok(r.ok, r.ok ? '' : r.detail);
    assert.equal(r.list.generatedAt, Math.floor(T));
    assert.equal(r.list.feeders.length, sky.coverage.receivers.length);
    assert.ok(
      r.list.feeders.filter((f) => f.connected).length > 0.9 * r.list.feeders.length,
      'r.list.feeders.filter((f) => f.connected).length > 0.9 * r.list.feeders.length',
    );
  });
});

describe('sim fleet and physics', () => {
  const sky = testSky(600);
  const world = testWorld();

  it('gives every airframe a unique civil hex whose ICAO block is in its registration country', () => {
    assert.equal(new Set(sky.fleet.map((a) => a.hex)).size, sky.fleet.length);
    for (const af of sky.fleet) {
      assert.match(af.hex, /^[0-9a-f]{6}$/);
      assert.equal(world.codeBlocks.isMilitaryHex(af.hex), false);
      assert.ok(world.codeBlocks.countryOfHex(af.hex), `${af.hex} outside any country block`);
    }
    const generated = sky.fleet.filter((a) => a.ownOp === null && a.reg);
    for (const af of generated) {
      const c = world.codeBlocks.countryOfHex(af.hex)!;
      const ok = world.prefixes.some((p) => p.country === c && p.check.test(af.reg!));
      assert.ok(ok, `${af.reg} is not a registration of ${c}`);
    }
  });

  it('flies airline types whose range covers the sector, and no wide-body on a sector under 300 nm', () => {
    for (const af of sky.fleet.filter((a) => a.kind === 'airline')) {
      const p = perfOf(af.perf.type)!;
      const nm = af.outs[0]!.nm;
      assert.ok(p.rangeNm >= nm, `${af.perf.type} (${p.rangeNm} nm) on ${Math.round(nm)} nm`);
      if (nm < 300) assert.notEqual(p.category, 'A5', `${af.perf.type} on ${Math.round(nm)} nm`);
    }
  });

  it('keeps speeds and vertical rates physical and puts the ground only at an airport (by the product locator)', () => {
    let checked = 0;
    let ground = 0;
    for (const af of sky.fleet.slice(0, 150)) {
      for (const f of sky.schedule.flightsIn(af, T - 43200, T + 43200)) {
        let prev: { t: number; lat: number; lon: number } | null = null;
        for (let dt = 0; dt <= f.plan.duration; dt += 15) {
          const s = stateAt(f.plan, dt)!;
          checked++;
          assert.ok(s.gs >= 0 && s.gs <= 600, `gs ${s.gs}`);
          if (s.alt === 'ground') {
            ground++;
            assert.ok(s.gs <= 200, `ground at ${s.gs} kt`);
            const at = world.locator.locate(s.lat, s.lon);
            assert.ok(at, `${af.hex} on the ground away from any airport at ${s.lat},${s.lon}`);
            assert.ok(
              at.ident === f.org.ident ||
                at.ident === f.dst.ident ||
                distanceNm(at.lat, at.lon, f.org.lat, f.org.lon) < 3 ||
                distanceNm(at.lat, at.lon, f.dst.lat, f.dst.lon) < 3,
              'at.ident === f.org.ident || at.ident === f.dst.ident || distanceNm(at.lat, at.lon, f.org.lat, f.org.lon) < 3 || distanceNm(at.lat, at.lon, f.dst.lat, f.dst.lon) < 3',
            );
          } else {
            assert.ok(s.alt >= -1500 && s.alt <= Math.max(af.perf.cruiseFt, (f.org.elevation_ft ?? 0) + 1500) + 100, `alt ${s.alt}`);
            assert.ok(Math.abs(s.rate) <= 4500, `rate ${s.rate}`);
          }
          if (prev) {
            // distance covered in 15 s at most what the fastest type flies
            assert.ok(
              distanceNm(prev.lat, prev.lon, s.lat, s.lon) <= (600 * 15) / 3600 + 0.01,
              'distanceNm(prev.lat, prev.lon, s.lat, s.lon) <= (600 * 15) / 3600 + 0.01',
            );
          }
          prev = { t: dt, lat: s.lat, lon: s.lon };
        }
      }
    }
    assert.ok(checked > 5000 && ground > 500, `${checked} states, ${ground} on the ground`);
  });

  it('repeats an airline departure at nearly the same local time on consecutive days', () => {
    const af = sky.fleet.find((a) => a.kind === 'airline' && sky.schedule.airlineDay(a, 20240).length > 0 && sky.schedule.airlineDay(a, 20241).length > 0)!;
    const d1 = sky.schedule.airlineDay(af, 20240)[0]!.offBlock;
    const d2 = sky.schedule.airlineDay(af, 20241)[0]!.offBlock;
    // 24 h apart within twice the jitter (and a DST change, which this pair of June days has none)
    assert.ok(Math.abs(d2 - d1 - 86400) <= 2 * 6 * 60, `${d2 - d1}`);
  });
});

describe('sim cli input', () => {
  it('refuses malformed flags with exit code 2 and a message naming the flag', async () => {
    const errs: string[] = [];
    const write = process.stderr.write.bind(process.stderr);
    process.stderr.write = ((s: string) => (errs.push(String(s)), true)) as typeof process.stderr.write;
    try {
      assert.equal(await run(['snapshot', '--aircraft', 'many']), 2);
      assert.equal(await run(['snapshot', '--aircraft', '0']), 2);
      assert.equal(await run(['snapshot', '--start', 'yesterday']), 2);
      assert.equal(await run(['history', '--start', '2025-02-30']), 2);
      assert.equal(await run(['log', '--bogus', '1']), 2);
      assert.equal(await run(['fly']), 2);
      assert.equal(await run([]), 2, 'a command is required');
      assert.equal(await run(['live', '--catch-up', '-5', '--http', '1']), 2);
      assert.equal(await run(['live', '--catch-up', 'soon', '--http', '1']), 2);
      assert.equal(await run(['live', '--catch-up', '9000', '--http', '1']), 2);
      assert.equal(await run(['live', '--catch-up', '600']), 2, 'a catch-up is paced by an HTTP reader');
    } finally {
      process.stderr.write = write;
    }
    assert.match(errs.join(''), /--aircraft/);
    assert.match(errs.join(''), /--start/);
    assert.match(errs.join(''), /unknown flag --bogus/);
    assert.match(errs.join(''), /--catch-up/);
    assert.match(errs.join(''), /--catch-up is paced by an HTTP reader/);
  });
});
