// the demo must look like the real world (issue 11, section 3): airlines fly the types the
// registry lists for them, under their own country's registrations; every airline flight is a
// real catalog flight number on its catalog route, shown on boards as an IATA flight number;
// long-haul legs leave and arrive at plausible local times. checked against the reference data
// read independently of the simulator's own indexes.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { describe, it } from 'node:test';
import { parseCatalog } from '../../lib/reference/catalog.ts';
import { localMinute } from '../../lib/localtime.ts';
import { ARRIVAL_WINDOW, LONG_HAUL_S, longHaulDeparture } from '../../sim/schedule.ts';
import { perfOf } from '../../sim/perf.ts';
import { T, testSky, testWorld } from './world.ts';

process.env.TZ = 'UTC';

const world = testWorld();
const sky = testSky(600);
const airline = sky.fleet.filter((a) => a.kind === 'airline');
// the test world reads the first 40,000 catalog rows: so does this
const catalogLines = gunzipSync(readFileSync('data/ref/vrs-standing-data/routes.csv.gz')).toString('utf8').split('\n').slice(0, 40001).join('\n');
const catalog = new Map(parseCatalog(catalogLines).rows.map((r) => [r.callsign, r.airports]));

/** the registry's types and ICAO-address countries per airline code */
const registry = new Map<string, { types: Set<string>; countries: Map<string, number> }>();
for (const e of world.registry) {
  if (!e.airline_code || !e.type) continue;
  let r = registry.get(e.airline_code);
  if (!r) registry.set(e.airline_code, (r = { types: new Set(), countries: new Map() }));
  r.types.add(e.type);
  const c = world.codeBlocks.countryOfHex(e.hex);
  if (c) r.countries.set(c, (r.countries.get(c) ?? 0) + 1);
}

describe('sim fleets: the types each airline really flies', () => {
  it('flies every airline airframe with a type the VRS registry lists for that airline', () => {
    assert.ok(airline.length > 300, `${airline.length} airline airframes`);
    for (const af of airline) {
      const code = af.outs[0]!.airline;
      const types = registry.get(code)?.types;
      assert.ok(types?.has(af.perf.type), `${af.hex} flies ${af.perf.type} for ${code}, whose registry types are ${[...(types ?? [])].join(' ')}`);
    }
  });

  it("uses the real airframe (hex, registration, type) when it is the registry's, and registers a made-up one in the airline's own country", () => {
    const byHex = new Map(world.registry.map((e) => [e.hex, e]));
    const made = airline.filter((a) => a.source === 'generated');
    assert.ok(made.length > 20 && made.length < airline.length, `${made.length} made-up of ${airline.length}`);
    for (const af of airline) {
      const e = byHex.get(af.hex);
      const code = af.outs[0]!.airline;
      if (af.source === 'registry') {
        assert.ok(e && e.airline_code === code && e.reg === af.reg && e.type === af.perf.type, `${af.hex} ${af.reg} is not the registry's airframe of ${code}`);
        continue;
      }
      assert.equal(e, undefined, `made-up ${af.hex} takes the address of a registry airframe`);
      assert.ok(!world.registry.some((x) => x.reg === af.reg), `made-up ${af.reg} is a registry registration`);
      // the airline's country: where most of its registry airframes' ICAO addresses are
      const home = [...registry.get(code)!.countries].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0]![0];
      assert.equal(world.codeBlocks.countryOfHex(af.hex), home, `${af.hex} of ${code} is not in a block of ${home}`);
      assert.equal(world.codeBlocks.isMilitaryHex(af.hex), false);
      assert.ok(
        world.prefixes.some((p) => p.country === home && p.check.test(af.reg ?? '')),
        `${af.reg} of ${code} is not a registration of ${home}`,
      );
    }
  });

  it('gives between a tenth and a quarter of the airline airframes a long-haul sector, a wide-body there when the airline has one that reaches, and none on a shorter sector its narrow-bodies reach', () => {
    const long = airline.filter((a) => a.outs[0]!.nm >= 3000);
    assert.ok(long.length > airline.length * 0.1 && long.length < airline.length * 0.25, `${long.length} of ${airline.length}`);
    for (const af of airline) {
      const nm = af.outs[0]!.nm;
      const code = af.outs[0]!.airline;
      const reaches = (wide: boolean) =>
        [...registry.get(code)!.types].some((t) => {
          const p = perfOf(t);
          return p && p.cls !== 'light' && (p.cls === 'wide') === wide && p.rangeNm >= nm;
        });
      const isWide = perfOf(af.perf.type)!.cls === 'wide';
      if (nm >= 3000) assert.ok(isWide || !reaches(true), `${code} sends a ${af.perf.type} on ${Math.round(nm)} nm where one of its wide-bodies reaches`);
      else assert.ok(!isWide || !reaches(false), `${code} sends a ${af.perf.type} on ${Math.round(nm)} nm where one of its narrow-bodies reaches`);
    }
  });
});

describe('sim flight numbers: real catalog callsigns on their catalog routes', () => {
  const flights = airline.flatMap((af) => sky.schedule.flightsIn(af, T - 86400, T + 86400));

  it("flies every airline flight under a catalog callsign whose catalog route is exactly that flight's origin and destination", () => {
    assert.ok(flights.length > 1000, `${flights.length} flights`);
    for (const f of flights) {
      const route = catalog.get(f.callsign);
      assert.deepEqual(route, [f.org.icao, f.dst.icao], `${f.callsign} flies ${f.org.icao}-${f.dst.icao}; the catalog says ${route?.join('-')}`);
    }
  });

  it('uses callsigns that the product turns into an IATA flight number of digits (as boards show, e.g. LX318), one airframe per flight number', () => {
    const owner = new Map<string, string>();
    for (const f of flights) {
      const no = world.airlines.flightNumberFromCallsign(f.callsign);
      assert.match(no ?? '', /^[A-Z0-9]{2}[1-9][0-9]{0,3}$/, `${f.callsign} shows as ${no}`);
      assert.equal(owner.get(f.callsign) ?? f.af.hex, f.af.hex, `${f.callsign} is flown by two airframes`);
      owner.set(f.callsign, f.af.hex);
    }
  });

  it("flies each of an airframe's rotations in a day under its own flight number", () => {
    for (const af of airline.slice(0, 200)) {
      const day = sky.schedule.airlineDay(af, Math.floor(T / 86400));
      assert.equal(new Set(day.map((f) => f.callsign)).size, day.length, `${af.hex}: ${day.map((f) => f.callsign).join(' ')}`);
    }
  });
});

describe('sim long-haul schedules', () => {
  const hhmm = (m: number) => `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;

  it('lands every long-haul flight between 06:00 and 23:00 local and starts it between 06:00 and 23:45 local', () => {
    let n = 0;
    for (const af of airline) {
      for (const f of sky.schedule.flightsIn(af, T - 3 * 86400, T + 3 * 86400)) {
        if (f.plan.duration < LONG_HAUL_S) continue;
        n++;
        const dep = localMinute(f.offBlock, f.org.tz);
        const arr = localMinute(f.offBlock + f.plan.duration, f.dst.tz);
        // the window is 06:15-22:45 for the nominal times, and each day's jitter is +-6 minutes
        assert.ok(arr >= 6 * 60 && arr <= 23 * 60, `${f.callsign} ${f.org.iata}-${f.dst.iata} arrives ${hhmm(arr)} local`);
        assert.ok(dep >= 6 * 60 - 10 && dep <= 23 * 60 + 45, `${f.callsign} ${f.org.iata}-${f.dst.iata} leaves ${hhmm(dep)} local`);
      }
    }
    assert.ok(n > 100, `${n} long-haul flights`);
  });

  it('flies eastbound and long north-south legs overnight from an evening bank, westbound legs by day from a late-morning bank', () => {
    const ap = (icao: string) => world.byIdent.get(icao)!;
    const at = Date.parse('2025-06-02T12:00:00Z') / 1000;
    const h = 3600;
    const cases: [string, string, number, [number, number]][] = [
      ['KJFK', 'EGLL', 7 * h, [18 * 60, 23 * 60]], // eastbound transatlantic: evening, arrives next morning
      ['EGLL', 'KJFK', 8 * h, [9 * 60, 14 * 60]], // westbound transatlantic: late morning, arrives afternoon
      ['EDDF', 'WSSS', 12.5 * h, [18 * 60, 23 * 60]], // Europe to Asia: evening
      ['EDDF', 'FAOR', 10.5 * h, [18 * 60, 23 * 60]], // north-south overnight
      ['EDDF', 'KLAX', 11.5 * h, [9 * 60, 14 * 60]], // westbound
    ];
    for (const [o, d, block, [lo, hi]] of cases) {
      for (const u of [0, 0.5, 0.999]) {
        const m = longHaulDeparture(ap(o), ap(d), block, at, u);
        assert.ok(m >= lo && m <= hi, `${o}-${d} leaves ${hhmm(m)} local`);
        const arr = (((m + block / 60 + offsetDiff(o, d, at)) % 1440) + 1440) % 1440;
        assert.ok(arr >= ARRIVAL_WINDOW[0] && arr <= ARRIVAL_WINDOW[1], `${o}-${d} leaving ${hhmm(m)} arrives ${hhmm(Math.round(arr))} local`);
      }
    }
  });
});

/** minutes the local clock changes from o to d at t, within -12..+12 h */
function offsetDiff(o: string, d: string, t: number): number {
  const w = testWorld();
  const local = (icao: string) => localMinute(t, w.byIdent.get(icao)!.tz);
  return ((((local(d) - local(o) + 720) % 1440) + 1440) % 1440) - 720;
}
