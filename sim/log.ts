// the year-scale fast path: the flight log (schemas/flight-log.schema.json, layout of
// build/log/write.ts) written directly, without traces. airframes and sectors are made in
// TypeScript from the world (real catalog routes plus one sector for every other IATA airport);
// the legs themselves are generated inside DuckDB from range() and hash(), one COPY per day.
//
// a day's legs: `legsPerDay/2` slots; slot i on day d flies airframe (i*7919 + d*104729) mod A
// (distinct airframes within a day; d*104729 taken as BIGINT: as DuckDB's INT32 it overflowed
// from 2026-02-22, day 20506), out and back on its sector (one way, alternating days, when a leg
// is longer than 8.3 h). every leg lands before midnight UTC, so `day` is its UTC day.
// a few percent of ends go unheard (org/dst and dep/arr null) and of callsigns unknown. ends sit
// on the airports' reference points, a leg flies its sector's great circle at a level of its length.
// each leg's thinned track goes to points.parquet beside the day's legs (sim/log-tracks.ts), first,
// as build/log/write.ts orders them (a leg with an end at an airport without a reference point has
// none); `tracks: false` leaves them out (a year of tracks is billions of points).
import { mkdtempSync, rmSync, writeFileSync, mkdirSync, renameSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { LEG_FILE_OPTIONS, dayDir, dayFile, pointsFile, sqlString } from '../build/log/write.ts';
import { writeFastPoints } from './log-tracks.ts';
import { distanceNm } from '../lib/geo.ts';
import { indexFleet, newHex, newReg } from './fleet.ts';
import { typesFor } from './perf.ts';
import { rng } from '../lib/random.ts';
import type { World } from './world.ts';

export interface FastLogOptions {
  out: string;
  seed: number;
  /** first day, YYYY-MM-DD */
  start: string;
  days: number;
  legsPerDay: number;
  airframes: number;
  threads: number;
  /** write each leg's thinned track to points.parquet (default true) */
  tracks?: boolean;
}

export interface FastLogResult {
  days: number;
  legs: number;
  /** track points written (0 with tracks off) */
  points: number;
  airframes: number;
  airports: number;
  sectors: number;
}

interface Sector {
  org: string;
  dst: string;
  out: string;
  back: string;
  nm: number;
}

interface WorldSectors {
  paired: Sector[];
  airlines: string[];
  /** every IATA airport no catalog route serves, with its nearest other hub, in world.iata's order */
  spokes: { org: string; dst: string; nm: number }[];
}
/** the seed-free part of the sectors, once per world: the nearest-hub search over every IATA airport was
 * most of a small log's time (a 400-leg day: about two thirds of its CPU, docs/perf-log/test-suite.md) */
const perWorld = new WeakMap<World, WorldSectors>();

function worldSectors(world: World): WorldSectors {
  const known = perWorld.get(world);
  if (known) return known;
  const ix = indexFleet(world);
  const paired = ix.paired.map(({ out, back }) => ({
    org: out.org.ident,
    dst: out.dst.ident,
    out: out.callsign,
    back: back?.callsign ?? out.callsign,
    nm: out.nm,
  }));
  const served = new Set(paired.flatMap((s) => [s.org, s.dst]));
  const hubs = world.airports.filter((a) => a.kind === 'large_airport' && a.iata);
  const spokes: WorldSectors['spokes'] = [];
  for (const a of world.iata) {
    if (served.has(a.ident) || hubs.length === 0) continue;
    let best = hubs[0]!;
    let bestD = Infinity;
    for (const h of hubs) {
      const d = distanceNm(a.lat, a.lon, h.lat, h.lon);
      if (d < bestD && h.ident !== a.ident) [best, bestD] = [h, d];
    }
    spokes.push({ org: a.ident, dst: best.ident, nm: Math.max(40, bestD) });
  }
  const w = { paired, airlines: [...new Set(ix.paired.map((r) => r.out.airline))].sort(), spokes };
  perWorld.set(world, w);
  return w;
}

/** the sectors: catalog routes with a way back, then one to the nearest airline hub for every other IATA airport */
function sectors(world: World, seed: number): Sector[] {
  const w = worldSectors(world);
  const list: Sector[] = w.paired.map((s) => ({ ...s }));
  const r = rng(seed, 'sectors');
  for (const s of w.spokes) {
    const code = r.pick(w.airlines);
    const n = 1000 + r.int(8000);
    list.push({ org: s.org, dst: s.dst, out: `${code}${n}`, back: `${code}${n + 1}`, nm: s.nm });
  }
  return list;
}

const csvCell = (v: string | number | null) => (v === null ? '' : typeof v === 'number' ? String(v) : `"${v.replaceAll('"', '""')}"`);

export async function writeFastLog(world: World, o: FastLogOptions, onDay: (day: string, legs: number) => void = () => {}): Promise<FastLogResult> {
  const secs = sectors(world, o.seed);
  const ix = indexFleet(world);
  const tmp = mkdtempSync(join(tmpdir(), 'contrail-sim-log-'));
  const instance = await DuckDBInstance.create(':memory:', { threads: String(o.threads) });
  const c = await instance.connect();
  try {
    // airframes: hex in a civil block of the sector's country, registration of its prefix, a type for the sector length
    const used = new Set<string>();
    const r = rng(o.seed, 'fast-airframes');
    const country = new Map(world.iata.map((a) => [a.ident, a.iso_country]));
    const lines = ['idx,hex,reg,type,sector'];
    for (let i = 0; i < o.airframes; i++) {
      const si = r.int(secs.length);
      const s = secs[si]!;
      const cc = country.get(s.org) ?? world.byIdent.get(s.org)?.iso_country ?? 'US';
      const hex = newHex(world, ix, r, cc, used);
      lines.push([i, csvCell(hex), csvCell(newReg(world, r, world.codeBlocks.countryOfHex(hex) ?? cc)), csvCell(r.pick(typesFor(s.nm)).type), si].join(','));
    }
    writeFileSync(join(tmp, 'af.csv'), lines.join('\n'));
    writeFileSync(
      join(tmp, 'sec.csv'),
      ['idx,org,dst,cs_out,cs_back,dur,km,olat,olon,dlat,dlon']
        .concat(
          secs.map((s, i) => {
            const [o, d] = [world.byIdent.get(s.org), world.byIdent.get(s.dst)];
            // block time: sector at ~430 kt average plus 30 min of taxi, climb and approach
            const dur = Math.round((s.nm / 430) * 3600 + 1800);
            const ends = [o?.lat ?? null, o?.lon ?? null, d?.lat ?? null, d?.lon ?? null];
            return [i, csvCell(s.org), csvCell(s.dst), csvCell(s.out), csvCell(s.back), dur, Math.round(s.nm * 18.52) / 10, ...ends.map(csvCell)].join(',');
          }),
        )
        .join('\n'),
    );
    await c.run(
      `CREATE TABLE af AS SELECT * FROM read_csv(${sqlString(join(tmp, 'af.csv'))}, header = true, columns = {'idx': 'BIGINT', 'hex': 'VARCHAR', 'reg': 'VARCHAR', 'type': 'VARCHAR', 'sector': 'BIGINT'})`,
    );
    await c.run(
      `CREATE TABLE sec AS SELECT * FROM read_csv(${sqlString(join(tmp, 'sec.csv'))}, header = true, columns = {'idx': 'BIGINT', 'org': 'VARCHAR', 'dst': 'VARCHAR', 'cs_out': 'VARCHAR', 'cs_back': 'VARCHAR', 'dur': 'BIGINT',
        'km': 'DOUBLE', 'olat': 'DOUBLE', 'olon': 'DOUBLE', 'dlat': 'DOUBLE', 'dlon': 'DOUBLE'})`,
    );
    // one table of airframes with their sectors: each day then joins once
    await c.run(
      'CREATE TABLE afs AS SELECT f.idx, f.hex, f.reg, f.type, x.org, x.dst, x.cs_out, x.cs_back, x.dur, x.km, x.olat, x.olon, x.dlat, x.dlon FROM af f JOIN sec x ON x.idx = f.sector ORDER BY f.idx',
    );
    const slots = Math.ceil(o.legsPerDay / 2);
    let legs = 0;
    let points = 0;
    const start = Date.parse(`${o.start}T00:00:00Z`) / 1000;
    for (let d = 0; d < o.days; d++) {
      const day0 = start + d * 86400;
      const day = new Date(day0 * 1000).toISOString().slice(0, 10);
      mkdirSync(dayDir(o.out, day), { recursive: true });
      const file = join(dayDir(o.out, day), `.legs.parquet.${process.pid}.tmp`);
      const dn = Math.floor(day0 / 86400);
      // the day's legs with what their tracks need (true ends and times), then each file from it
      await c.run(`CREATE OR REPLACE TEMP TABLE day_legs AS
        WITH s AS (SELECT i, (i * 7919 + ${dn}::BIGINT * 104729) % ${o.airframes} AS a FROM range(${Math.min(slots, o.airframes)}) t(i)),
        j AS (
          SELECT s.i, f.hex, f.reg, f.type, f.org, f.dst, f.cs_out, f.cs_back, f.dur, f.km, f.olat, f.olon, f.dlat, f.dlon, hash(${o.seed}, ${dn}, s.i) AS h,
            f.dur > 30000 AS oneway
          FROM s JOIN afs f ON f.idx = s.a),
        b AS (SELECT *, ${day0} + 14400 + (h % greatest(1, 70000 - CASE WHEN oneway THEN dur ELSE 2 * dur + 3600 END))::BIGINT AS dep0 FROM j),
        l AS (
          SELECT b.*, k.k, dep0 + CASE WHEN oneway THEN 0 ELSE k.k * (dur + 3600) END AS dep
          FROM b, (VALUES (0), (1)) k(k)
          WHERE NOT oneway OR k.k = (i + ${dn}) % 2)
        SELECT hex,
          CASE WHEN (h >> 7) % 100 < 2 THEN NULL WHEN k = 0 THEN cs_out ELSE cs_back END AS callsign,
          reg, type,
          dep - 600 AS first_ts, dep + dur + 300 AS last_ts,
          CASE WHEN (h >> (13 + k)) % 100 < 6 THEN NULL ELSE dep END AS dep_ts,
          CASE WHEN (h >> (23 + k)) % 100 < 6 THEN NULL ELSE dep + dur END AS arr_ts,
          CASE WHEN (h >> (13 + k)) % 100 < 6 THEN NULL WHEN k = 0 THEN org ELSE dst END AS org,
          CASE WHEN (h >> (23 + k)) % 100 < 6 THEN NULL WHEN k = 0 THEN dst ELSE org END AS dst,
          CASE WHEN (h >> (13 + k)) % 100 < 6 THEN NULL WHEN k = 0 THEN olat ELSE dlat END AS dep_lat,
          CASE WHEN (h >> (13 + k)) % 100 < 6 THEN NULL WHEN k = 0 THEN olon ELSE dlon END AS dep_lon,
          CASE WHEN (h >> (23 + k)) % 100 < 6 THEN NULL WHEN k = 0 THEN dlat ELSE olat END AS arr_lat,
          CASE WHEN (h >> (23 + k)) % 100 < 6 THEN NULL WHEN k = 0 THEN dlon ELSE olon END AS arr_lon,
          km AS distance_km,
          (CASE WHEN km < 400 THEN 24000 ELSE 37000 END)::INTEGER AS max_alt_ft,
          false AS circuit,
          false AS open, NULL::VARCHAR AS dep_runway, NULL::VARCHAR AS arr_runway,
          dep AS off, dep + dur AS "on", (h >> (13 + k)) % 100 >= 6 AS dep_heard, (h >> (23 + k)) % 100 >= 6 AS arr_heard,
          CASE WHEN k = 0 THEN olat ELSE dlat END AS olat, CASE WHEN k = 0 THEN olon ELSE dlon END AS olon,
          CASE WHEN k = 0 THEN dlat ELSE olat END AS dlat, CASE WHEN k = 0 THEN dlon ELSE olon END AS dlon,
          (CASE WHEN km < 400 THEN 24000 ELSE 37000 END) AS cruise_ft
        FROM l`);
      if (o.tracks ?? true) {
        const ptmp = join(dayDir(o.out, day), `.points.parquet.${process.pid}.tmp`);
        points += await writeFastPoints(c, 'day_legs', ptmp, o.seed, LEG_FILE_OPTIONS);
        renameSync(ptmp, pointsFile(o.out, day));
      }
      await c.run(`COPY (SELECT * EXCLUDE (off, "on", dep_heard, arr_heard, olat, olon, dlat, dlon, cruise_ft) FROM day_legs ORDER BY hex, first_ts)
        TO ${sqlString(file)} ${LEG_FILE_OPTIONS}`);
      await c.run('DROP TABLE day_legs');
      renameSync(file, dayFile(o.out, day));
      // the row count from the file's footer (no data read)
      const n = Number((await c.runAndReadAll(`SELECT sum(num_rows) FROM parquet_file_metadata(${sqlString(dayFile(o.out, day))})`)).getRows()[0]![0]);
      legs += n;
      onDay(day, n);
    }
    const airports = new Set(secs.flatMap((s) => [s.org, s.dst])).size;
    return { days: o.days, legs, points, airframes: o.airframes, airports, sectors: secs.length };
  } finally {
    c.closeSync();
    instance.closeSync();
    rmSync(tmp, { recursive: true, force: true });
  }
}
