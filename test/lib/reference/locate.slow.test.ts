import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readRefFile } from '../../../lib/reference/index.ts';
import { parseAirports, type Airport } from '../../../lib/reference/airports.ts';
import { parseRunways, type Runway } from '../../../lib/reference/runways.ts';
import { buildLocator, RUNWAY_KM, REF_RADIUS_KM } from '../../../lib/reference/locate.ts';

const airports = parseAirports(await readRefFile('data/ref', 'ourairports/airports.csv.gz')).airports;
const runways = parseRunways(await readRefFile('data/ref', 'ourairports/runways.csv.gz')).runways;
const locator = buildLocator(airports, runways);
const at = (lat: number, lon: number) => locator.locate(lat, lon)?.ident ?? null;

test('a point on a KMSP runway is KMSP', () => {
  // middle of runway 12R/30L
  assert.equal(at(44.8806, -93.2177), 'KMSP');
  // threshold of runway 17
  assert.equal(at(44.8878, -93.2422), 'KMSP');
});

test('a field 10 km from KMSP is no airport', () => {
  assert.equal(at(44.88, -93.09), null);
});

test('between two close airports each runway belongs to its own airport', () => {
  // New Chitose (RJCC) and Chitose air base (RJCJ): parallel runways 3 km apart
  const rjcc = runways.find((r) => r.airport_ident === 'RJCC' && r.le && r.he)!;
  const rjcj = runways.find((r) => r.airport_ident === 'RJCJ' && r.le && r.he)!;
  const mid = (r: Runway) => [(r.le!.lat + r.he!.lat) / 2, (r.le!.lon + r.he!.lon) / 2] as const;
  assert.equal(at(...mid(rjcc)), 'RJCC');
  assert.equal(at(...mid(rjcj)), 'RJCJ');
  // Tijuana (MMTJ) and Brown Field (KSDM), either side of the border
  const mmtj = runways.find((r) => r.airport_ident === 'MMTJ' && r.le && r.he)!;
  const ksdm = runways.find((r) => r.airport_ident === 'KSDM' && r.le && r.he)!;
  assert.equal(at(...mid(mmtj)), 'MMTJ');
  assert.equal(at(...mid(ksdm)), 'KSDM');
});

test('malformed coordinates locate nothing', () => {
  for (const [lat, lon] of [
    [NaN, 0],
    [0, Infinity],
    [91, 0],
    [-90.5, 10],
  ])
    assert.equal(locator.locate(lat!, lon!), null);
});

// a synthetic world: independent of the snapshot
const ap = (ident: string, lat: number, lon: number, kind = 'small_airport', sched = false): Airport => ({
  ident,
  iata: null,
  icao: null,
  name: ident,
  kind,
  lat,
  lon,
  elevation_ft: 0,
  iso_country: 'XX',
  iso_region: 'XX-1',
  municipality: '',
  scheduled_service: sched,
  tz: 'UTC',
});
const rw = (ident: string, a: [number, number], b: [number, number], closed = false): Runway => ({
  airport_ident: ident,
  le_ident: null,
  he_ident: null,
  length_ft: null,
  width_ft: null,
  surface: null,
  lighted: null,
  le: { lat: a[0], lon: a[1] },
  he: { lat: b[0], lon: b[1] },
  closed,
});
const KM = 1 / 111.195;

test('the runway threshold is RUNWAY_KM from the centreline, the reference radius applies without runways', () => {
  const l = buildLocator([ap('RWY1', 10, 10), ap('REF1', 20, 20, 'medium_airport')], [rw('RWY1', [10, 10], [10, 10 + 3 * KM])]);
  assert.equal(l.locate(10 + (RUNWAY_KM - 0.05) * KM, 10.01)?.ident, 'RWY1');
  assert.equal(l.locate(10 + (RUNWAY_KM + 0.05) * KM, 10.01), null);
  const r = REF_RADIUS_KM.medium_airport!;
  assert.equal(l.locate(20 + (r - 0.05) * KM, 20)?.ident, 'REF1');
  assert.equal(l.locate(20 + (r + 0.05) * KM, 20), null);
});

test('closed airports are never assigned', () => {
  const l = buildLocator([ap('GONE', 5, 5, 'closed')], [rw('GONE', [5, 5], [5, 5.02])]);
  assert.equal(l.locate(5, 5.01), null);
});

test('the nearest airport wins; within the tie margin scheduled service wins, then the bigger kind', () => {
  const l = buildLocator([ap('NEAR', 0, 0.005), ap('FAR', 0, 0.012)], [rw('NEAR', [0, 0], [0, 0.01]), rw('FAR', [0.004, 0], [0.004, 0.02])]);
  assert.equal(l.locate(0.0005, 0.005)?.ident, 'NEAR');
  const tie = buildLocator([ap('SMALL', 0, 0), ap('BIG', 0, 0.0001, 'large_airport'), ap('SCHED', 0, -0.0001, 'small_airport', true)], []);
  assert.equal(tie.locate(0, 0)?.ident, 'SCHED');
  const tie2 = buildLocator([ap('SMALL', 0, 0), ap('BIG', 0, 0.0001, 'large_airport')], []);
  assert.equal(tie2.locate(0, 0)?.ident, 'BIG');
});

test('a runway across the antimeridian is found from both sides', () => {
  const l = buildLocator([ap('DATE', -16, 179.995)], [rw('DATE', [-16, 179.99], [-16, -179.99])]);
  assert.equal(l.locate(-16, 179.999)?.ident, 'DATE');
  assert.equal(l.locate(-16, -179.995)?.ident, 'DATE');
});

// brute-force invariant over seeded points near real airports: a hit is inside its airport's
// match area (great-circle geometry, independent of the grid), a miss is inside none
function haversineKm(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const r = Math.PI / 180;
  const a = Math.sin(((lat2 - lat1) * r) / 2) ** 2 + Math.cos(lat1 * r) * Math.cos(lat2 * r) * Math.sin(((lon2 - lon1) * r) / 2) ** 2;
  return 2 * 6371.0088 * Math.asin(Math.sqrt(a));
}
const segsBy = new Map<string, Runway[]>();
for (const r of runways) if (!r.closed && (r.le || r.he)) segsBy.set(r.airport_ident, [...(segsBy.get(r.airport_ident) ?? []), r]);
// distance to the airport's match area edge rule, with `slack` km added to both thresholds
function matches(a: Airport, lat: number, lon: number, slack: number): boolean {
  if (haversineKm(lat, lon, a.lat, a.lon) <= REF_RADIUS_KM[a.kind]! + slack) return true;
  for (const r of segsBy.get(a.ident) ?? []) {
    const p = r.le ?? r.he!;
    const q = r.he ?? r.le!;
    // sample the segment every ~20 m
    const n = Math.max(1, Math.ceil(haversineKm(p.lat, p.lon, q.lat, q.lon) / 0.02));
    for (let i = 0; i <= n; i++) {
      if (haversineKm(lat, lon, p.lat + ((q.lat - p.lat) * i) / n, p.lon + ((q.lon - p.lon) * i) / n) <= RUNWAY_KM + slack) return true;
    }
  }
  return false;
}

test('every hit is inside its airport, every miss is inside no open airport (2,000 seeded points)', () => {
  let seed = 7;
  const rand = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  const open = airports.filter((a) => a.kind !== 'closed');
  let hits = 0;
  for (let i = 0; i < 2000; i++) {
    const base = open[Math.floor(rand() * open.length)]!;
    const lat = base.lat + (rand() - 0.5) * 0.06;
    const lon = base.lon + (rand() - 0.5) * 0.06;
    const got = locator.locate(lat, lon);
    if (got) {
      hits++;
      // 30 m of slack for flat-earth vs great-circle geometry at the edge
      assert.ok(matches(got, lat, lon, 0.03), `${got.ident} at ${lat},${lon}`);
    } else {
      for (const a of open) {
        if (Math.abs(a.lat - lat) > 0.2 || Math.abs(a.lon - lon) > 0.5) continue;
        assert.ok(!matches(a, lat, lon, -0.03), `missed ${a.ident} at ${lat},${lon}`);
      }
    }
  }
  assert.ok(hits > 200, `only ${hits} hits`);
});
