// the simulator's receiver faults and GA flying (sim/faults.ts, sim/observe.ts, sim/circuits.ts,
// sim/truth.ts): each fault does what its rate says, the truth file says what really happened,
// and the output stays deterministic and readable by the product. the tests that pin the exact
// simulator's figures (history, sky, realism, estimates) run with the faults off, as before.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { distanceNm } from '../../lib/geo.ts';
import { parseTraceFull } from '../../lib/readsb-trace.ts';
import { listDay } from '../../build/history/scan.ts';
import { parseFeed } from '../../server/feed/parse.ts';
import { circuitPlan, type LapEnd } from '../../sim/circuits.ts';
import { DEMO_FAULTS, NO_FAULTS, airframeTraits, flightTraits, type FaultConfig } from '../../sim/faults.ts';
import { stateAt } from '../../sim/fly.ts';
import { historyDay, truthPath, writeHistory } from '../../sim/history.ts';
import { observe } from '../../sim/observe.ts';
import { LIGHT } from '../../sim/perf.ts';
import { aircraftJson, createSky, type Sky } from '../../sim/sky.ts';
import { run } from '../../sim/cli.ts';
import { FAULT_CLASSES, type TruthEvent } from '../../sim/truth.ts';
import { SEED, T, testWorld } from './world.ts';

process.env.TZ = 'UTC';
const dirs: string[] = [];
const tmp = () => {
  const d = mkdtempSync(join(tmpdir(), 'contrail-sim-faults-'));
  dirs.push(d);
  return d;
};
after(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

const DAY = Date.parse('2025-06-02T00:00:00Z') / 1000;
const skyWith = (faults: FaultConfig, fleet = 120, seed = SEED): Sky => createSky({ ref: 'data/ref', seed, fleet, routeRows: 40000, faults }, testWorld());
const only = (f: Partial<FaultConfig>): FaultConfig => ({ ...NO_FAULTS, ...f });
/** a light aircraft's GA flight of the sky, heard near its home field */
function gaFlight(sky: Sky) {
  for (const af of sky.fleet.filter((a) => a.kind === 'ga')) {
    const f = sky.schedule.flightsIn(af, DAY, DAY + 86400)[0];
    if (f && stateAt(f.plan, 0)) return f;
  }
  throw new Error('no GA flight in the test sky');
}

describe('sim faults: one position at a time (observe)', () => {
  it("with every rate 0 hears exactly the true state, under the airframe's own hex and callsign", () => {
    const sky = skyWith(NO_FAULTS);
    const f = gaFlight(sky);
    for (let dt = 0; dt <= f.plan.duration; dt += 37) {
      const o = observe(sky, f, dt);
      const s = stateAt(f.plan, dt)!;
      if (!o) continue;
      assert.deepEqual([o.lat, o.lon, o.alt, o.gs, o.hex, o.callsign, o.source], [s.lat, s.lon, s.alt, s.gs, f.af.hex, f.callsign, 'adsb_icao']);
    }
  });

  it('scatters positions by about posNoiseM, and an outlier rate of 1 throws every position 2-30 km off', () => {
    const f = gaFlight(skyWith(NO_FAULTS));
    const noisy = skyWith(only({ posNoiseM: 50 }));
    const jumpy = skyWith(only({ outlierRate: 1 }));
    const errs: number[] = [];
    for (let dt = 0; dt <= f.plan.duration; dt += 11) {
      const s = stateAt(f.plan, dt)!;
      const o = observe(noisy, f, dt);
      if (o) errs.push(distanceNm(s.lat, s.lon, o.lat, o.lon) * 1852);
      const j = observe(jumpy, f, dt);
      if (j) {
        const km = distanceNm(s.lat, s.lon, j.lat, j.lon) * 1.852;
        assert.ok(km >= 1.9 && km <= 30.1 && j.glitch === 'outlier', `outlier ${km} km`);
      }
    }
    const rms = Math.sqrt(errs.reduce((a, e) => a + e * e, 0) / errs.length);
    assert.ok(errs.length > 50 && rms > 40 && rms < 100, `rms ${rms} m over ${errs.length} positions (2-d, sigma 50 m a coordinate)`);
  });

  it('drops altitudes at altNullRate 1, reports the ground as 0 for an alt_baro-0 airframe, and sticks the flag after lift-off', () => {
    const f = gaFlight(skyWith(NO_FAULTS));
    const nulls = skyWith(only({ altNullRate: 1 }));
    const zero = skyWith(only({ alt0Share: 1 }));
    const cfg = only({ flagStickRate: 1 });
    const stuck = skyWith(cfg);
    // a flight whose flag sticks at the take-off (the other half stick at the landing)
    const sf = stuck.fleet.flatMap((af) => stuck.schedule.flightsIn(af, DAY, DAY + 86400)).find((x) => flightTraits(SEED, x, cfg).stickOffS > 0)!;
    let sawStuck = false;
    for (let dt = sf.plan.offAt; dt <= sf.plan.offAt + 200; dt += 2) {
      const k = observe(stuck, sf, dt);
      const s = stateAt(sf.plan, dt)!;
      if (k && s.alt !== 'ground' && (k.alt === 'ground' || k.alt === 0)) {
        sawStuck = true;
        assert.ok(dt - sf.plan.offAt <= 150, `stuck ${dt - sf.plan.offAt} s after lift-off`);
      }
    }
    assert.ok(sawStuck, 'the ground flag is heard in the climb');
    for (let dt = 0; dt <= f.plan.duration; dt += 5) {
      const s = stateAt(f.plan, dt)!;
      assert.equal(observe(nulls, f, dt)?.alt ?? null, null);
      const z = observe(zero, f, dt);
      if (z && s.alt === 'ground') assert.equal(z.alt, 0);
    }
  });

  it("hears nothing below a small field's coverage floor, and MLAT positions late and spread", () => {
    const base = skyWith(NO_FAULTS);
    const f = gaFlight(base);
    const floored = skyWith(only({ lowCoverageShare: 1 }));
    const mlat = skyWith(only({ mlatShare: 1 }));
    let lows = 0;
    for (let dt = f.plan.offAt; dt <= f.plan.onAt; dt += 3) {
      const o = observe(floored, f, dt);
      if (o && o.agl !== null && f.org.kind === 'small_airport') assert.ok(o.agl >= 100, `heard ${o.agl} ft above a floored field`);
      const m = observe(mlat, f, dt);
      if (m) {
        assert.equal(m.source, 'mlat');
        if (m.agl !== null) assert.ok(m.agl >= 150, `MLAT heard ${m.agl} ft up`);
        lows++;
      }
    }
    assert.ok(lows > 0, 'MLAT hears the flight higher up');
  });
});

describe('sim faults: circuits, go-arounds and low passes', () => {
  const home = [...testWorld().byIdent.values()].find((a) => a.kind === 'small_airport' && a.runways.length > 0)!;
  const laps: LapEnd[] = [
    { kind: 'touch-and-go', rollS: 20 },
    { kind: 'go-around', floorFt: 150 },
    { kind: 'low-pass', floorFt: 40 },
    { kind: 'touch-and-go', rollS: 35 },
  ];
  const plan = circuitPlan(home, LIGHT[0]!, laps, 0.3);

  it('is a take-off, a landing and a take-off 15-40 s later per touch-and-go, a go-around, a low pass, and a full stop', () => {
    assert.deepEqual(
      plan.events.map((e) => `${e.kind}${e.touchAndGo ? '*' : ''}`),
      ['takeoff', 'landing*', 'takeoff*', 'go-around', 'low-pass', 'landing*', 'takeoff*', 'landing'],
    );
    const [, l1, t1, , , l2, t2] = plan.events;
    assert.ok(t1!.at - l1!.at >= 15 && t1!.at - l1!.at <= 40, `${t1!.at - l1!.at} s on the runway`);
    assert.ok(t2!.at - l2!.at >= 15 && t2!.at - l2!.at <= 40, `${t2!.at - l2!.at} s on the runway`);
    assert.ok(
      plan.events.every((e) => e.airport === home.ident),
      'every event at the home field',
    );
    // the runway end the session flies is named on every event, and it is the end the roll starts at
    const end = home.runways.flatMap((r) => [r.a, r.b]).find((x) => x.ident === plan.events[0]!.runway);
    assert.ok(end, `${plan.events[0]!.runway} is an end of ${home.ident}`);
    assert.ok(
      plan.events.every((e) => e.runway === end.ident),
      JSON.stringify(plan.events.map((e) => e.runway)),
    );
    const roll = plan.legs[2]!;
    assert.ok(roll.kind === 'ground' && distanceNm(roll.from.lat, roll.from.lon, end.lat, end.lon) < 0.001, 'the take-off roll starts at that threshold');
  });

  it("is on the ground only during the rolls, on the field's runway, and never lower than its floor on a go-around or low pass", () => {
    const e = home.elevation_ft ?? 0;
    const ground = plan.events.filter((x) => x.kind === 'landing' || x.kind === 'takeoff');
    for (let dt = plan.offAt + 1; dt < plan.onAt; dt += 1) {
      const s = stateAt(plan, dt)!;
      const rolling = ground.some((x, i) => x.kind === 'landing' && ground[i + 1] && dt > x.at && dt < ground[i + 1]!.at);
      assert.equal(s.alt === 'ground', rolling, `at ${dt} s: ${s.alt}`);
      if (s.alt === 'ground') assert.ok(distanceNm(s.lat, s.lon, home.lat, home.lon) < 2, 'a roll on the field');
    }
    for (const x of plan.events.filter((v) => v.kind === 'go-around' || v.kind === 'low-pass')) {
      const s = stateAt(plan, x.at)!;
      const floor = x.kind === 'go-around' ? 150 : 40;
      assert.ok(typeof s.alt === 'number' && Math.abs(s.alt - e - floor) <= 25, `${x.kind} at ${s.alt} ft over a ${e} ft field`);
    }
  });
});

describe('sim faults: the history and its truth file', () => {
  it('writes the same bytes and the same truth for the same seed, and a truth line for every event of the day', () => {
    const a = tmp();
    const b = tmp();
    writeHistory(skyWith(DEMO_FAULTS), a, '2025-06-02', 1);
    writeHistory(skyWith(DEMO_FAULTS), b, '2025-06-02', 1);
    const files = (r: string) =>
      readdirSync(r, { recursive: true, withFileTypes: true })
        .filter((e) => e.isFile())
        .map((e) => join(e.parentPath, e.name).slice(r.length))
        .sort();
    assert.deepEqual(files(a), files(b));
    for (const f of files(a)) assert.ok(readFileSync(join(a, f)).equals(readFileSync(join(b, f))), f);
    const truth = readFileSync(truthPath(a, '2025-06-02'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as TruthEvent);
    assert.ok(truth.length > 100, `${truth.length} truth lines`);
    for (const e of truth) {
      assert.ok(['takeoff', 'landing', 'go-around', 'low-pass'].includes(e.kind) && e.t >= DAY && e.t < DAY + 86400 && e.airport && e.hex, JSON.stringify(e));
      // a take-off or landing names the runway end flown (the world's runways all have designators here)
      assert.ok(e.kind === 'takeoff' || e.kind === 'landing' ? typeof e.runway === 'string' && e.runway !== '' : e.runway === null, JSON.stringify(e));
      assert.ok(
        e.classes.every((c) => (FAULT_CLASSES as readonly string[]).includes(c)),
        JSON.stringify(e),
      );
    }
  });

  it('files every trace the product can read (a ~ address is set aside by the scan as non-ICAO), two airframes on one hex in one file', async () => {
    const sky = skyWith(only({ dupHexShare: 0.3, nonIcaoShare: 1 }), 80);
    const root = tmp();
    writeHistory(sky, root, '2025-06-02', 1);
    const listing = await listDay(root, '2025-06-02');
    assert.ok(
      listing.skipped.every((s) => s.reason === 'non_icao'),
      JSON.stringify(listing.skipped.filter((s) => s.reason !== 'non_icao')),
    );
    assert.ok(listing.skipped.length > 0, 'the GA airframes are TIS-B tracks under ~ addresses');
    const dup = sky.fleet.find(
      (af) =>
        sky.traits[af.index]!.dupOf &&
        sky.schedule.flightsIn(af, DAY, DAY + 86400).length &&
        sky.schedule.flightsIn(sky.fleet[af.index - 1]!, DAY, DAY + 86400).length,
    );
    assert.ok(dup, "an airframe sharing a flying airframe's hex");
    const h = historyDay(sky, DAY);
    const both = h.traces.find((t) => t.hex === sky.traits[dup.index]!.outHex)!;
    const trace = parseTraceFull(JSON.parse(both.text));
    assert.equal(trace.dropped, 0);
    const callsigns = new Set(trace.points.map((p) => p.callsign).filter(Boolean));
    assert.ok(callsigns.size >= 2, `both airframes' callsigns in one file: ${[...callsigns].join(' ')}`);
    assert.ok(
      h.events.filter((e) => e.hex === both.hex).every((e) => e.classes.includes('dup-hex')),
      "both airframes' events carry dup-hex",
    );
  });

  it("gives each fault class some events at the demo's rates (a GA-heavy sky of 2 days)", () => {
    const sky = skyWith(DEMO_FAULTS, 400);
    const events = [...historyDay(sky, DAY).events, ...historyDay(sky, DAY + 86400).events];
    const seen = new Set(events.flatMap((e) => e.classes));
    for (const c of FAULT_CLASSES) assert.ok(seen.has(c), `no event of class ${c}`);
    const tg = events.filter((e) => e.touch_and_go);
    assert.ok(
      tg.length > 10 && tg.filter((e) => e.kind === 'landing').length === tg.filter((e) => e.kind === 'takeoff').length,
      `${tg.length} touch-and-go lines`,
    );
    assert.equal(airframeTraits(SEED, sky.fleet[0]!, sky.fleet, NO_FAULTS).outHex, sky.fleet[0]!.hex, 'no faults: its own hex');
  });
});

describe('sim faults: the live feed and the command line', () => {
  it('writes an aircraft.json with the faults that the server feed parser takes whole but for the ~ addresses it sets aside, one record per address', () => {
    const sky = skyWith(DEMO_FAULTS, 600);
    const doc = aircraftJson(sky, T);
    const r = parseFeed(JSON.stringify(doc));
    assert.ok(r.ok, 'r.ok');
    const tisb = doc.aircraft.filter((a) => (a.hex as string).startsWith('~')).length;
    assert.ok(tisb > 0, 'some TIS-B tracks in the snapshot');
    assert.equal(r.snapshot.aircraft.length, doc.aircraft.length - tisb);
    assert.deepEqual(r.dropped, { non_icao_hex: tisb });
    assert.equal(new Set(doc.aircraft.map((a) => a.hex)).size, doc.aircraft.length);
  });

  it('refuses a fault rate outside 0..1 with exit code 2, and --no-faults writes what the exact simulator writes', async () => {
    const err = process.stderr.write;
    process.stderr.write = () => true;
    try {
      assert.equal(await run(['history', '--circuit-share', '2', '--out', tmp()]), 2);
      assert.equal(await run(['history', '--pos-noise-m', 'far', '--out', tmp()]), 2);
      const a = tmp();
      const b = tmp();
      assert.equal(
        await run([
          'history',
          '--no-faults',
          '--days',
          '1',
          '--start',
          '2025-06-02',
          '--aircraft',
          '20',
          '--route-rows',
          '40000',
          '--seed',
          String(SEED),
          '--out',
          a,
        ]),
        0,
      );
      writeHistory(createSky({ ref: 'data/ref', seed: SEED, fleet: Math.ceil(20 * 3.3), routeRows: 40000 }, testWorld()), b, '2025-06-02', 1);
      const files = (r: string) =>
        readdirSync(r, { recursive: true, withFileTypes: true })
          .filter((e) => e.isFile())
          .map((e) => join(e.parentPath, e.name).slice(r.length))
          .sort();
      assert.deepEqual(files(a), files(b));
      assert.ok(!files(a).some((f) => f.endsWith('sim_truth.jsonl')), 'no truth file without faults');
      for (const f of files(a)) assert.ok(readFileSync(join(a, f)).equals(readFileSync(join(b, f))), f);
    } finally {
      process.stderr.write = err;
    }
  });
});
