import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { ArtifactWriter } from '../../../build/publish/writer.ts';
import type { BuildContext } from '../../../build/steps/context.ts';
import type { Progress } from '../../../build/progress.ts';
import { loadRefAirports } from '../../../build/steps/duck.ts';
import { makeRoutesBuilder } from '../../../build/steps/routes/build.ts';
import { buildAirframes } from '../../../build/steps/airframes/build.ts';
import { buildRefdata } from '../../../build/steps/refdata/build.ts';
import { buildAirlines } from '../../../build/steps/airlines/build.ts';
import { buildSchedules } from '../../../build/steps/schedules/build.ts';
import type { RoutesTable } from '../../../artifacts/routes-table.ts';
import type { Refdata } from '../../../lib/reference/index.ts';
import { fileOf, keys } from '../../../artifacts/keys.ts';
import { Origin } from '../../../artifacts/object-table.ts';
import { airframeDoc, type AirframeDoc } from '../../../artifacts/airframe-doc.ts';
import { makeRef } from '../../helpers/ref-fixture.ts';

const DAY0 = Date.UTC(2024, 5, 1) / 1000; // 2024-06-01T00:00Z, pinned
const H = 3600;
type Leg = [
  hex: string,
  callsign: string | null,
  reg: string | null,
  type: string | null,
  first: number,
  last: number,
  dep: number | null,
  arr: number | null,
  org: string | null,
  dst: string | null,
];

function legs(): Leg[] {
  const out: Leg[] = [];
  // 4b1814: SWR100 ZRH->LHR on 3 days (take-off 06:00Z = 08:00 Zurich summer time), plus LHR->ZRH back
  for (let d = 0; d < 3; d++) {
    const t = DAY0 + d * 86400 + 6 * H;
    out.push(['4b1814', 'SWR100', 'HB-JVL', 'A320', t - 600, t + 2 * H, t, t + 100 * 60, 'LSZH', 'EGLL']);
    out.push(['4b1814', 'SWR101', 'HB-JVL', 'A320', t + 3 * H, t + 5 * H, t + 3 * H + 600, null, 'EGLL', null]);
  }
  // 4b1899 (a registration callsign, so no airline totals move) flies Zurich-Heathrow twice heard
  // end to end, then once heard only taking off: that destination comes from its other legs (observation)
  for (const d of [0, 1])
    out.push([
      '4b1899',
      'HBJXA',
      null,
      'C25A',
      DAY0 + d * 86400 + 14 * H,
      DAY0 + d * 86400 + 16 * H,
      DAY0 + d * 86400 + 14 * H,
      DAY0 + d * 86400 + 16 * H,
      'LSZH',
      'EGLL',
    ]);
  out.push(['4b1899', 'HBJXA', null, 'C25A', DAY0 + 2 * 86400 + 14 * H, DAY0 + 2 * 86400 + 16 * H, DAY0 + 2 * 86400 + 14 * H, null, 'LSZH', null]);
  // SWR101 heard only taking off at LHR: the catalog's LHR-ZRH fills the destination
  // a circuit at Zurich under a registration callsign: kept in the airframe, never a route
  out.push(['4b0002', 'HBXYZ', 'HB-XYZ', 'C172', DAY0 + 10 * H, DAY0 + 11 * H, DAY0 + 10 * H, DAY0 + 11 * H, 'LSZH', 'LSZH']);
  // 4b0004: Zurich to Speck-Fehraltorf (LSZT, no IATA code) heard end to end: observed all the same (spec 1 rule 4
  // is about the ends being heard, not their codes); then a take-off heard at LSZT only: no route_source
  out.push(['4b0004', 'HBLSZ', 'HB-LSZ', 'PA28', DAY0 + 12 * H, DAY0 + 13 * H, DAY0 + 12 * H, DAY0 + 12 * H + 900, 'LSZH', 'LSZT']);
  out.push(['4b0004', 'HBLSZ', 'HB-LSZ', 'PA28', DAY0 + 14 * H, DAY0 + 15 * H, DAY0 + 14 * H, null, 'LSZT', null]);
  // 4b0003: circuits on either side of midnight UTC, one in 1969: a leg's date is its take-off's UTC
  // day, or its first sighting's when no take-off was heard
  for (const [first, dep] of [
    [DAY0 - 600, DAY0 - 1],
    [DAY0 + 86400, null],
    [DAY0 + 2 * 86400 - 300, DAY0 + 2 * 86400 + 10],
    [-86395, -1],
  ] as const) {
    out.push(['4b0003', 'HBPAA', 'HB-PAA', 'PA28', first, first + H, dep, null, 'LSZH', 'LSZH']);
  }
  // 3c6444: DLH4 FRA->?, 250 legs to check the cap of 200, newest first; callsign prefix majority DLH
  for (let i = 0; i < 250; i++) {
    const t = DAY0 - 200 * 86400 + i * 12 * H;
    out.push(['3c6444', i % 10 === 0 ? 'BAW9' : 'DLH4', null, 'A320', t, t + H, t, null, 'EDDF', null]);
  }
  return out;
}

let dir: string;
let db: DuckDBConnection;
let writer: ArtifactWriter;
let ctx: BuildContext;
let table: RoutesTable;
// every step's announced total and the ticks it then made
const steps: { name: string; total: number; ticks: number }[] = [];
const recording: Progress = {
  start: (name, total) => void steps.push({ name, total, ticks: 0 }),
  tick: (n = 1) => void (steps[steps.length - 1]!.ticks += n),
  done: () => {},
};

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'contrail-artifacts-'));
  db = await (await DuckDBInstance.create(':memory:')).connect();
  await db.run(
    `CREATE TABLE legs (hex VARCHAR, callsign VARCHAR, reg VARCHAR, type VARCHAR, first_ts BIGINT, last_ts BIGINT, dep_ts BIGINT, arr_ts BIGINT, org VARCHAR, dst VARCHAR, day DATE)`,
  );
  const app = await db.createAppender('legs');
  for (const l of legs()) {
    l.forEach((v, i) => (v === null ? app.appendNull() : i >= 4 && i <= 7 ? app.appendBigInt(BigInt(v)) : app.appendVarchar(String(v))));
    app.appendVarchar(new Date(((l[6] ?? l[4]) as number) * 1000).toISOString().slice(0, 10));
    app.endRow();
  }
  app.closeSync();
  const reviewFile = join(dir, 'review.csv');
  writeFileSync(reviewFile, 'callsign,route,decision,reviewer,date,note\nBAW9,*,reject,ana,2025-01-01,reused callsign\n');
  writer = new ArtifactWriter(join(dir, 'v1'), null);
  const ref = makeRef({ SWR101: ['EGLL', 'LSZH'], DLH4: ['EDDF', 'EGLL'], BAW9: ['EDDF', 'EGLL'], SWR7: ['LSZH', 'KJFK'] });
  ctx = {
    db,
    refdata: {} as Refdata,
    ref,
    writer,
    archiveThrough: '2024-06-03',
    windowStart: '2023-06-04',
    windowDays: 366,
    windowLimit: 366,
    timetablesDir: null,
    // the bucket-only deployment's build: every route has its file (the default's is tested below)
    catalogRouteFiles: true,
    nowMs: Date.UTC(2024, 5, 4),
    progress: recording,
    counts: {},
  };
  const airports = await loadRefAirports(db, ref);
  const routes = await makeRoutesBuilder({ reviewFile, policy: 'auto' })(ctx, airports);
  table = routes.table;
  await buildAirframes(ctx, routes.legs, db, 4);
  await buildRefdata(ctx);
  await buildAirlines(ctx, routes.legs);
  await buildSchedules(ctx, routes.legs);
});

after(() => rmSync(dir, { recursive: true, force: true }));

test('the routes step writes the table, one document per route, the lookup, and returns the table', () => {
  assert.deepEqual(writer.read(keys.routesTable()), {
    DLH4: ['FRA', 'LHR', 'observed+catalog'],
    HBJXA: ['ZRH', 'LHR', 'observed'],
    SWR100: ['ZRH', 'LHR', 'observed'],
    SWR101: ['LHR', 'ZRH', 'observed+catalog'],
    SWR7: ['ZRH', 'JFK', 'catalog'],
  });
  assert.equal(table.get('SWR100')?.org_ident, 'LSZH');
  assert.equal((writer.read(keys.route('SWR7')) as { route_source: string }).route_source, 'catalog');
  const lookup = writer.read(keys.lookup()) as { airports_icao_to_iata: Record<string, string>; airlines: string[] };
  assert.equal(lookup.airports_icao_to_iata.LSZH, 'ZRH');
  assert.equal(lookup.airports_icao_to_iata.LSZT, undefined);
  assert.ok(lookup.airlines.includes('SWR'), "lookup.airlines.includes('SWR')");
  // the rejected BAW9 row is counted, never served; the circuit-only callsign has no evidence at all
  assert.equal(ctx.counts['routes.catalog_rejected'], 1);
  assert.equal(ctx.counts.routes, 5);
});

test("airframes are written from DuckDB's legs text as it is: the same bytes as parsing the legs and building the document", () => {
  const heard = ['3c6444', '4b1814', '4b1899', '4b0002'];
  for (const hex of heard) {
    const text = gunzipSync(readFileSync(join(writer.dir, fileOf(keys.airframe(hex))))).toString('utf8');
    const { legs, coverage: _c, ...id } = JSON.parse(text) as AirframeDoc;
    assert.ok(legs && legs.length > 0, hex);
    assert.equal(text, JSON.stringify(airframeDoc({ ...id, serial: null }, legs)), hex);
  }
});

test('airframe legs are newest first, capped at 200, with operator_icao the majority airline prefix', () => {
  const doc = writer.read(keys.airframe('3c6444')) as {
    legs: { first_seen: number; callsign: string; dst: string | null; route_source: string | null; table_source: string | null }[];
    operator_icao: string;
    country: string;
    reg: null;
    source: string;
  };
  assert.equal(doc.legs.length, 200);
  for (let i = 1; i < doc.legs.length; i++)
    assert.ok(doc.legs[i - 1]!.first_seen > doc.legs[i]!.first_seen, 'doc.legs[i - 1]!.first_seen > doc.legs[i]!.first_seen');
  assert.equal(doc.legs[0]!.first_seen, DAY0 - 200 * 86400 + 249 * 12 * H);
  assert.equal(doc.operator_icao, 'DLH');
  assert.equal(doc.country, 'DE');
  assert.equal(doc.source, 'flight-log');
  // DLH4's destination comes from the table (its catalog row agrees with the heard origin); BAW9's does not
  const dlh = doc.legs.find((l) => l.callsign === 'DLH4')!;
  assert.deepEqual([dlh.dst, dlh.route_source, dlh.table_source], ['LHR', 'observed+catalog', 'observed+catalog']);
  const baw = doc.legs.find((l) => l.callsign === 'BAW9')!;
  assert.deepEqual([baw.dst, baw.route_source], [null, null]);
});

test('airframe identity: registry first with provenance, country from the code block, airline observed', () => {
  const doc = writer.read(keys.airframe('4b1814')) as Record<string, unknown> & {
    legs: { date: string; org: string; dst: string }[];
    airline: { icao: string; source: string };
  };
  assert.equal(doc.reg, 'HB-JVL');
  assert.equal(doc.type_name, 'Airbus A320');
  assert.equal(doc.category, 'narrow');
  assert.equal(doc.year, 2010);
  assert.equal(doc.country, 'CH');
  assert.equal(doc.source, 'vrs-standing-data:aircraft.csv');
  assert.deepEqual([doc.airline.icao, doc.airline.source], ['SWR', 'observed']);
  assert.deepEqual(doc.legs.map((l) => `${l.date} ${l.org}-${l.dst}`).slice(0, 2), ['2024-06-03 LHR-ZRH', '2024-06-03 ZRH-LHR']);
  // the circuit stays in its airframe's history; a registration callsign gives no operator_icao
  const c172 = writer.read(keys.airframe('4b0002')) as { legs: { org: string; dst: string }[]; operator_icao: null; airline: null };
  assert.deepEqual([c172.legs[0]!.org, c172.legs[0]!.dst, c172.operator_icao, c172.airline], ['ZRH', 'ZRH', null, null]);
});

test("a leg's date is the UTC day of its take-off, else of its first sighting, at midnight and before 1970 too", () => {
  const doc = writer.read(keys.airframe('4b0003')) as { legs: { date: string; first_seen: number; dep: number | null }[] };
  assert.deepEqual(
    doc.legs.map((l) => [l.first_seen, l.dep, l.date]),
    [
      [DAY0 + 2 * 86400 - 300, DAY0 + 2 * 86400 + 10, '2024-06-03'], // seen at 23:55, took off at 00:00:10: the take-off's day
      [DAY0 + 86400, null, '2024-06-02'], // no take-off heard: first seen at 00:00:00
      [DAY0 - 600, DAY0 - 1, '2024-05-31'], // took off at 23:59:59
      [-86395, -1, '1969-12-31'], // one second before the epoch
    ],
  );
});

test('a registry airframe never heard has legs [] and a refdata aircraft document', () => {
  const doc = writer.read(keys.airframe('4b0001')) as { legs: unknown[]; reg: string };
  assert.deepEqual([doc.reg, doc.legs], ['HB-ABC', []]);
  assert.equal((writer.read(keys.refAircraft('4b1814')) as { serial: string }).serial, '1234');
});

test('refdata: observed airlines with counts, one airline with fleet, routes and countries', () => {
  const list = writer.read(keys.refAirlines()) as { airlines: { icao: string; flights: number }[] };
  assert.deepEqual(
    list.airlines.map((a) => [a.icao, a.flights]),
    [
      ['DLH', 225],
      ['BAW', 25],
      ['SWR', 6],
    ],
  );
  const swr = writer.read(keys.refAirline('SWR')) as {
    routes: { org: string; dst: string; flights: number }[];
    countries: { iso_country: string; flights: number }[];
    fleet: { type: string; airframes: number }[];
  };
  assert.deepEqual(
    swr.routes.map((r) => `${r.org}-${r.dst}:${r.flights}`),
    ['LHR-ZRH:3', 'ZRH-LHR:3'],
  );
  assert.deepEqual(swr.countries, [
    { iso_country: 'CH', flights: 6 },
    { iso_country: 'GB', flights: 6 },
  ]);
  assert.deepEqual(
    swr.fleet.map((f) => [f.type, f.airframes]),
    [['A320', 1]],
  );
  const ezs = writer.read(keys.refAirline('EZS')) as { observed: { flights: number }; routes: unknown[] };
  assert.deepEqual([ezs.observed.flights, ezs.routes], [0, []]);
});

test('refdata schedule: departures per weekday and local HH:MM at the origin', () => {
  const s = writer.read(keys.refSchedule('SWR', 'ZRH', 'LHR')) as {
    tz: string;
    departures: number;
    days_observed: number;
    weekdays: number[];
    times: unknown[];
    callsigns: unknown[];
  };
  assert.equal(s.tz, 'Europe/Zurich');
  assert.equal(s.departures, 3);
  assert.equal(s.days_observed, 3);
  // 2024-06-01 was a Saturday: Sat, Sun, Mon
  assert.deepEqual(s.weekdays, [1, 0, 0, 0, 0, 1, 1]);
  assert.deepEqual(s.times, [{ dep: '08:00', flights: 3 }]);
  assert.deepEqual(s.callsigns, [{ callsign: 'SWR100', flight: 'LX100', flights: 3, dep: '08:00' }]);
  // the LHR departures are in London time (06:00Z + 3 h + 10 min = 10:10 BST)
  const back = writer.read(keys.refSchedule('SWR', 'LHR', 'ZRH')) as { times: { dep: string }[] };
  assert.deepEqual(
    back.times.map((t) => t.dep),
    ['10:10'],
  );
});

test('refdata: every type and airport has a document; the airport carries tz and runways', () => {
  const t = writer.read(keys.refType('B77W')) as { category: string; observed: { flights: number } };
  assert.deepEqual([t.category, t.observed.flights], ['wide', 0]);
  assert.equal((writer.read(keys.refType('A320')) as { observed: { airframes: number } }).observed.airframes, 2);
  const a = writer.read(keys.refAirport('LSZH')) as { tz: string; runways: { le_ident: string }[] };
  assert.deepEqual([a.tz, a.runways[0]!.le_ident], ['Europe/Zurich', '16']);
  assert.equal(ctx.counts['refdata.airports'], 8);
});

test('one truth per leg: route_source says where each end came from, table_source what /v1/route says', () => {
  type L = { callsign: string; org: string | null; dst: string | null; route_source: string | null; table_source: string | null };
  const legsOf = (hex: string) => (writer.read(keys.airframe(hex)) as { legs: L[] }).legs;
  const routeOf = (cs: string) => (writer.read(keys.route(cs)) as { route_source: string }).route_source;
  const pick = (l: L) => [l.org, l.dst, l.route_source, l.table_source];
  // both ends heard on the leg
  assert.deepEqual(pick(legsOf('4b1814').find((l) => l.callsign === 'SWR100')!), ['ZRH', 'LHR', 'observed', null]);
  // one end heard; the other from the callsign's other legs, which the network heard: the end is filled and
  // table_source says whence, but this flight's landing was not heard, so its route_source is not observed (issue 43)
  const hb = legsOf('4b1899');
  assert.deepEqual(hb.map(pick), [
    ['ZRH', 'LHR', null, 'observed'],
    ['ZRH', 'LHR', 'observed', null],
    ['ZRH', 'LHR', 'observed', null],
  ]);
  // both ends heard, one at a field without IATA code: observed, whatever the codes (issue 43: 362 such legs said null)
  type Idents = L & { org_ident: string | null; dst_ident: string | null };
  const small = (legsOf('4b0004') as Idents[]).map((l) => [l.org_ident, l.dst_ident, ...pick(l)]);
  assert.deepEqual(small, [
    ['LSZT', null, null, null, null, null],
    ['LSZH', 'LSZT', 'ZRH', null, 'observed', null],
  ]);
  assert.equal(routeOf('HBJXA'), 'observed');
  // one end heard; the other only the catalog knows (the table entry is observed+catalog)
  assert.deepEqual(pick(legsOf('4b1814').find((l) => l.callsign === 'SWR101')!), ['LHR', 'ZRH', 'observed+catalog', 'observed+catalog']);
  assert.equal(routeOf('SWR101'), 'observed+catalog');
  // (a `catalog` entry never fills a leg: any leg with a heard end makes its callsign's entry at least observed+catalog)
  // the rule on every leg: observed exactly when both ends were heard on it; a table_source only on a filled
  // leg (both IATA ends, one heard); null route_source with a table_source only where the network filled the end
  for (const hex of ['4b1814', '4b1899', '3c6444', '4b0004']) {
    for (const l of legsOf(hex) as Idents[]) {
      const heard = l.org_ident !== null && l.dst_ident !== null;
      assert.equal(l.route_source === 'observed', heard, JSON.stringify(l));
      if (l.table_source !== null) assert.ok(!heard && l.org !== null && l.dst !== null, JSON.stringify(l));
      if (l.route_source === null && l.table_source !== null) assert.equal(l.table_source, 'observed', JSON.stringify(l));
      if (l.route_source === null && l.table_source === null) assert.ok(!heard && (l.org === null || l.dst === null), JSON.stringify(l));
    }
  }
});

test('progress totals are right: a step that announces a total ticks exactly that many', () => {
  const counted = steps.filter((x) => x.total > 0);
  assert.deepEqual(
    counted.filter((x) => x.name.startsWith('routes: ')).map((x) => x.name),
    ['routes: decide', 'routes: write'],
  );
  for (const x of counted) assert.equal(x.ticks, x.total, x.name);
});

test('next night: airframes whose legs did not change are kept unbuilt from the previous build, the rest rebuilt, the same bytes as a full build', async () => {
  const previous = { dir: writer.dir, objects: writer.objects };
  // one new leg of 4b1899 on the next day
  const t = DAY0 + 3 * 86400 + 14 * H;
  await db.run(`INSERT INTO legs VALUES ('4b1899', 'HBJXA', NULL, 'C25A', ${t}, ${t + 2 * H}, ${t}, ${t + 2 * H}, 'LSZH', 'EGLL', DATE '2024-06-04')`);
  const night = new ArtifactWriter(join(dir, 'v2'), previous);
  await buildAirframes({ ...ctx, writer: night, counts: {}, reuse: writer.dir }, { view: 'legs_routed', table: 'routes_table' }, db, 4);
  const airframeKeys = [...writer.objects.keys()].filter((k) => k.startsWith('v1/airframes/'));
  const built = airframeKeys.filter((k) => night.objects.originOf(k) !== Origin.KEPT);
  assert.deepEqual(built, [keys.airframe('4b1899')], 'only the airframe that flew is built; the others are the previous entries as they were');
  assert.equal((night.read(keys.airframe('4b1899')) as { legs: unknown[] }).legs.length, 4);
  // a full build of the same log: every airframe and aircraft document has the same bytes
  const full = new ArtifactWriter(join(dir, 'v3'), null);
  await buildAirframes({ ...ctx, writer: full, counts: {} }, { view: 'legs_routed', table: 'routes_table' }, db, 4);
  const kinds = [...full.objects.keys()].filter((k) => k.startsWith('v1/airframes/') || k.startsWith('v1/refdata/aircraft/'));
  assert.ok(kinds.length > 5, 'kinds.length > 5');
  for (const k of kinds) assert.equal(night.objects.get(k)?.sha256, full.objects.get(k)!.sha256, k);
  assert.deepEqual([...night.objects.keys()].sort(), [...full.objects.keys()].sort());
});

test('next night: a route only the catalog knows, unheard then and now, is kept unbuilt; heard routes are built again', async () => {
  const previous = { dir: writer.dir, objects: writer.objects };
  const night = new ArtifactWriter(join(dir, 'v4'), previous);
  const reviewFile = join(dir, 'review.csv');
  await makeRoutesBuilder({ reviewFile, policy: 'auto' })({ ...ctx, writer: night, counts: {}, reuse: writer.dir }, { table: 'ref_airports' });
  assert.equal(night.objects.originOf(keys.route('SWR7')), Origin.KEPT, 'the catalog-only route is the previous entry, kept');
  assert.equal(night.objects.originOf(keys.route('SWR100')), Origin.SAME, 'a heard route is built (the same bytes)');
  assert.equal(night.objects.get(keys.route('SWR100'))!.sha256, writer.objects.get(keys.route('SWR100'))!.sha256);
  // without a previous build to reuse, the same route is built, with the same bytes
  const fresh = new ArtifactWriter(join(dir, 'v5'), previous);
  await makeRoutesBuilder({ reviewFile, policy: 'auto' })({ ...ctx, writer: fresh, counts: {} }, { table: 'ref_airports' });
  assert.equal(fresh.objects.originOf(keys.route('SWR7')), Origin.SAME, 'built, the same bytes');
  assert.equal(fresh.objects.get(keys.route('SWR7'))!.sha256, night.objects.get(keys.route('SWR7'))!.sha256);
});

test('by default a route only the catalog knows gets no file, tonight and the next night; meta/catalog-routes holds what its document needs', async () => {
  const reviewFile = join(dir, 'review.csv');
  const first = new ArtifactWriter(join(dir, 'v6'), null);
  await makeRoutesBuilder({ reviewFile, policy: 'auto' })({ ...ctx, writer: first, counts: {}, catalogRouteFiles: false }, { table: 'ref_airports' });
  // the same log with every file (an earlier test added a leg to it since the first build)
  const every = new ArtifactWriter(join(dir, 'v6-every'), null);
  await makeRoutesBuilder({ reviewFile, policy: 'auto' })({ ...ctx, writer: every, counts: {}, catalogRouteFiles: true }, { table: 'ref_airports' });
  const routeFiles = (w: ArtifactWriter) => [...w.objects.keys()].filter((k) => k.startsWith('v1/route/')).sort();
  // the same table; every heard callsign's file, byte for byte the file of the build with every file; SWR7 none
  assert.deepEqual(first.read(keys.routesTable()), every.read(keys.routesTable()));
  assert.deepEqual(
    routeFiles(first),
    ['DLH4', 'HBJXA', 'SWR100', 'SWR101'].map((cs) => keys.route(cs)),
  );
  assert.deepEqual(routeFiles(every), [...routeFiles(first), keys.route('SWR7')].sort());
  for (const k of routeFiles(first)) assert.equal(first.objects.get(k)!.sha256, every.objects.get(k)!.sha256, k);
  assert.deepEqual(every.read(keys.catalogRoutes()), first.read(keys.catalogRoutes()));
  assert.deepEqual(first.read(keys.catalogRoutes()), { airlines: { SWR: ['LX', 'Swiss'] }, flights: {}, accepted: {} });
  const night = new ArtifactWriter(join(dir, 'v7'), { dir: first.dir, objects: first.objects });
  await makeRoutesBuilder({ reviewFile, policy: 'auto' })(
    { ...ctx, writer: night, counts: {}, catalogRouteFiles: false, reuse: first.dir },
    { table: 'ref_airports' },
  );
  assert.deepEqual(routeFiles(night), routeFiles(first));
  assert.deepEqual(night.read(keys.catalogRoutes()), first.read(keys.catalogRoutes()));
});
