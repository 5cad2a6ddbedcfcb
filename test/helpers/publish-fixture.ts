// a small real flight log (LogWriter, two days) and a real published artifact tree built from it
// (the nightly's routes + airframes + airports builders, ArtifactWriter, atomic publish).
// rows are generated from a seeded generator; the clock is pinned by the caller.
import { mulberry32 } from '../../lib/random.ts';
import { distanceKm } from '../../lib/geo.ts';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BuildContext } from '../../build/steps/context.ts';
import { silentProgress } from '../../build/progress.ts';
import { loadRefAirports } from '../../build/steps/duck.ts';
import { refViewOf } from '../../artifacts/reference-view-adapter.ts';
import { buildRoutes } from '../../build/steps/routes/build.ts';
import { buildAirframes } from '../../build/steps/airframes/build.ts';
import { buildAirports } from '../../build/steps/airports/build.ts';
import { buildFlights } from '../../build/steps/flights/build.ts';
import { buildMovements } from '../../build/steps/movements/build.ts';
import { LogWriter } from '../../build/log/write.ts';
import { openLog } from '../../build/log/read.ts';
import type { LegRow } from '../../build/log/legs.ts';
import { commit, stage } from '../../build/publish/publish.ts';
import { testRefdata } from './artifact-ctx.ts';
import { buildCatalog, parseCatalog } from '../../lib/reference/catalog.ts';
import { buildTypes } from '../../lib/reference/types.ts';
import { buildRegistry } from '../../lib/reference/registry.ts';
import type { Refdata } from '../../lib/reference/index.ts';

// the artifact-test reference data, with empty catalog, types and registry tables
/** `catalog`: rows in the VRS routes.csv format (Callsign,AirlineCode,AirportCodes); none by default */
const refdata = (catalog = ''): Refdata => ({
  ...testRefdata(),
  catalog: buildCatalog(catalog ? parseCatalog(catalog).rows : []),
  types: buildTypes([]),
  registry: buildRegistry([]),
});

export const DAYS = ['2026-11-20', '2026-11-21'];
export const NOW_MS = Date.UTC(2026, 10, 22, 3, 0, 0);
const IDENTS = ['LSZH', 'EGLL', 'LSGG', 'RJAA', null];
// where each ident's legs take off and land (the airport's reference point); a null end is a
// leg first heard or lost aloft, drawn from or to a point about 100 km east of the other end
const AT: Record<string, [number, number]> = {
  LSZH: [47.458056, 8.548056],
  EGLL: [51.4706, -0.461941],
  LSGG: [46.238098, 6.10895],
  RJAA: [35.764702, 140.386002],
};
const HEXES = ['4b1814', '4b1815', '4b1a2b', 'a1b2c3', '400abc'];
const CALLS = ['SWR100', 'BAW201', 'ANA7', null];

/** a small seeded generator */
export const seeded = mulberry32;

export function legsFor(day: string, n: number, rand: () => number): LegRow[] {
  const base = Date.parse(`${day}T00:00:00Z`) / 1000;
  const pick = <T>(xs: T[]) => xs[Math.floor(rand() * xs.length)]!;
  const rows: LegRow[] = [];
  for (let i = 0; i < n; i++) {
    const dep = base + 3600 + Math.floor(rand() * 70000);
    const arr = dep + 1800 + Math.floor(rand() * 7200);
    const org = pick(IDENTS);
    const dst = pick(IDENTS);
    rows.push({
      hex: pick(HEXES),
      callsign: pick(CALLS),
      reg: null,
      type: 'A320',
      first_ts: dep - 300,
      last_ts: arr + 300,
      dep_ts: org ? dep : null,
      arr_ts: dst ? arr : null,
      org,
      dst,
      ...positions(org, dst, dep - 300, arr + 300),
      open: false,
      dep_runway: null,
      arr_runway: null,
    });
  }
  return rows.sort((a, b) => a.hex.localeCompare(b.hex) || a.first_ts - b.first_ts);
}

export interface Fixture {
  dir: string;
  log: string;
  root: string;
  rows: Record<string, LegRow[]>;
}

/** Writes the log days, then builds and publishes one artifact version over them. */
export async function makeFixture(seed = 7, perDay = 12): Promise<Fixture> {
  const dir = mkdtempSync(join(tmpdir(), 'contrail-bundle-fx-'));
  const log = join(dir, 'log');
  const root = join(dir, 'artifacts');
  const rand = seeded(seed);
  const rows: Record<string, LegRow[]> = {};
  const w = await LogWriter.open(log, 1);
  try {
    for (const d of DAYS) {
      rows[d] = legsFor(d, perDay, rand);
      await w.writeDay(d, rows[d]!);
    }
  } finally {
    w.close();
  }
  await publishTree(log, root, 'b1');
  return { dir, log, root, rows };
}

export async function publishTree(
  log: string,
  root: string,
  id: string,
  /** `flights`: also the flights and movements documents (the map's tests); off by default, so other trees stay as they were */
  /** `counts`: added to the manifest's counts (a bundle test's stand-in for a build that kept its closed days: flights.kept) */
  opts: { timetablesDir?: string; nowMs?: number; catalog?: string; catalogRouteFiles?: boolean; flights?: boolean; counts?: Record<string, number> } = {},
): Promise<void> {
  const nowMs = opts.nowMs ?? NOW_MS;
  const ref = refdata(opts.catalog);
  const staged = stage(root, id);
  const db = await openLog(log, { threads: 1 });
  try {
    const ctx: BuildContext = {
      db: db.connection,
      refdata: ref,
      ref: refViewOf(ref),
      writer: staged.writer,
      archiveThrough: DAYS[1]!,
      windowStart: DAYS[0]!,
      windowDays: DAYS.length,
      windowLimit: 365,
      timetablesDir: opts.timetablesDir ?? null,
      catalogRouteFiles: opts.catalogRouteFiles ?? false,
      nowMs,
      progress: silentProgress,
      counts: {},
    };
    const airports = await loadRefAirports(ctx.db, ctx.ref);
    const routes = await buildRoutes(ctx, airports);
    await buildAirframes(ctx, routes.legs);
    await buildAirports(ctx, routes.table, airports);
    if (opts.flights) {
      await buildFlights(ctx);
      await buildMovements(ctx);
    }
    staged.writer.writeManifest({
      build_id: id,
      built_at: new Date(nowMs).toISOString(),
      archive_through: DAYS[1]!,
      window_days: DAYS.length,
      counts: { ...ctx.counts, ...opts.counts },
    });
    commit(root, staged);
  } finally {
    db.close();
  }
}

/** the ends, distance, altitude and a three-point track of a fixture leg from org to dst */
function positions(org: string | null, dst: string | null, first: number, last: number): Omit<LegRow, keyof typeof NO_KEYS> {
  const a = org ? AT[org]! : null;
  const b = dst ? AT[dst]! : null;
  const from: [number, number] = a ?? (b ? [b[0], b[1] + 1.3] : [47.0, 10.0]);
  const to: [number, number] = b ?? [from[0], from[1] + 1.3];
  const mid: [number, number] = [(from[0] + to[0]) / 2, (from[1] + to[1]) / 2];
  const km = Math.round(distanceKm(from[0], from[1], to[0], to[1]) * 10) / 10;
  return {
    dep_lat: a ? a[0] : null,
    dep_lon: a ? a[1] : null,
    arr_lat: b ? b[0] : null,
    arr_lon: b ? b[1] : null,
    distance_km: km,
    max_alt_ft: km > 0 ? 36000 : 3000,
    circuit: org !== null && org === dst,
    track: [
      [first, from[0], from[1], a ? 'ground' : 24000, 90],
      [(first + last) / 2, mid[0], mid[1], km > 0 ? 36000 : 3000, 90],
      [last, to[0], to[1], b ? 'ground' : 24000, 90],
    ],
  };
}
const NO_KEYS = { hex: 0, callsign: 0, reg: 0, type: 0, first_ts: 0, last_ts: 0, dep_ts: 0, arr_ts: 0, org: 0, dst: 0, open: 0, dep_runway: 0, arr_runway: 0 };
