// a published tree with a document of every public artifact kind, and the researchers' files beside
// it, for the contract test (test/server/contract.slow.test.ts): a seeded two-day flight log (LogWriter),
// the nightly's whole artifact pipeline over it (build/steps/pipeline.ts: routes, airframes,
// refdata with types, registry, catalog and schedules, airports with a published board for the
// build's local day, alliances), the atomic publish, then the bundle step. the clock is pinned.
import { cpSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BuildContext } from '../../build/steps/context.ts';
import { buildArtifacts } from '../../build/steps/pipeline.ts';
import { silentProgress } from '../../build/progress.ts';
import { LogWriter } from '../../build/log/write.ts';
import { openLog } from '../../build/log/read.ts';
import { commit, stage } from '../../build/publish/publish.ts';
import { writeBundles } from '../../build/bundle/bundle.ts';
import { refViewOf } from '../../artifacts/reference-view-adapter.ts';
import { buildCatalog, parseCatalog } from '../../lib/reference/catalog.ts';
import { buildTypes, parseModelTypes } from '../../lib/reference/types.ts';
import { buildRegistry, parseRegistry } from '../../lib/reference/registry.ts';
import type { Refdata } from '../../lib/reference/index.ts';
import type { LegRow } from '../../build/log/legs.ts';
import { testRefdata } from './artifact-ctx.ts';
import { DAYS, NOW_MS, legsFor, seeded } from './publish-fixture.ts';

// rows in the formats of the VRS standing data (CC0): model-type.csv, aircraft.csv, routes.csv
const TYPES_CSV = `ICAO,Manufacturer,Model,Engines,EngineTypeCode,EnginePlacementCode,SpeciesCode,WakeTurbulenceCode,IsActive
A320,Airbus,A320,2,J,,L,M,1
B77W,Boeing,777-300ER,2,J,,L,H,1
`;
const REGISTRY_CSV = `ICAO,Registration,ModelICAO,Manufacturer,Model,ManufacturerAndModel,IsPrivateOperator,Operator,AirlineCode,SerialNumber,YearBuilt
4B1814,HB-JVL,A320,Airbus,A320,Airbus A320-214,0,Swiss International Air Lines,SWR,1234,2010
4B1815,HB-JVM,A320,Airbus,A320,Airbus A320-214,0,Swiss International Air Lines,SWR,1235,2011
`;
const CATALOG_CSV = `Callsign,AirlineCode,AirportCodes
SWR100,LX,LSZH-EGLL
BAW201,BA,EGLL-LSZH
`;

const TIMETABLES = new URL('../fixtures/timetables/ZRH/2024-05-10.json', import.meta.url);

export interface ContractTree {
  dir: string;
  log: string;
  /** the artifact root (its `current` names the one version) */
  root: string;
  /** the researchers' files (build/bundle) */
  bundles: string;
  /** the build's clock, unix ms */
  nowMs: number;
}

function refdata(): Refdata {
  return {
    ...testRefdata(),
    types: buildTypes(parseModelTypes(TYPES_CSV).rows),
    registry: buildRegistry(parseRegistry(REGISTRY_CSV).rows),
    catalog: buildCatalog(parseCatalog(CATALOG_CSV).rows),
  };
}

/** Zurich's hand-made published timetable (test/fixtures/timetables), moved to the build's local day. */
function timetables(dir: string, nowMs: number): string {
  const out = join(dir, 'timetables');
  const day = new Date(nowMs + 3600_000).toISOString().slice(0, 10);
  mkdirSync(join(out, 'ZRH'), { recursive: true });
  const doc = JSON.parse(readFileSync(TIMETABLES, 'utf8')) as { day: string };
  writeFileSync(join(out, 'ZRH', `${day}.json`), JSON.stringify({ ...doc, day }));
  cpSync(new URL('../fixtures/timetables/README.md', import.meta.url), join(out, 'README.md'));
  return out;
}

/** runway ends the `runways` option draws from (the fixture's legs name none otherwise) */
export const FIXTURE_RUNWAYS = ['27R', '09L', '16'];

/**
 * `days`: the log's days, oldest first (the build's window; default DAYS); `runways`: give each heard
 * end a runway drawn from FIXTURE_RUNWAYS (or null), seeded like the legs; `extra`: legs of a day
 * added to the drawn ones.
 */
export async function makeContractTree(
  seed = 11,
  perDay = 40,
  opts: { days?: string[]; runways?: boolean; extra?: (day: string) => LegRow[] } = {},
): Promise<ContractTree> {
  const days = opts.days ?? DAYS;
  const dir = mkdtempSync(join(tmpdir(), 'contrail-contract-'));
  const log = join(dir, 'log');
  const root = join(dir, 'artifacts');
  const bundles = join(dir, 'bundles');
  const rand = seeded(seed);
  const w = await LogWriter.open(log, 1);
  try {
    for (const d of days) {
      const legs = legsFor(d, perDay, rand);
      const draw = () => [...FIXTURE_RUNWAYS, null][Math.floor(rand() * (FIXTURE_RUNWAYS.length + 1))]!;
      if (opts.runways) for (const l of legs) Object.assign(l, { dep_runway: l.org ? draw() : null, arr_runway: l.dst ? draw() : null });
      await w.writeDay(d, [...legs, ...(opts.extra?.(d) ?? [])]);
    }
  } finally {
    w.close();
  }
  const staged = stage(root, 'c1');
  const db = await openLog(log, { threads: 1 });
  try {
    const ref = refdata();
    const ctx: BuildContext = {
      db: db.connection,
      refdata: ref,
      ref: refViewOf(ref),
      writer: staged.writer,
      archiveThrough: days[days.length - 1]!,
      windowStart: days[0]!,
      windowDays: days.length,
      windowLimit: 365,
      timetablesDir: timetables(dir, NOW_MS),
      nowMs: NOW_MS,
      progress: silentProgress,
      counts: {},
    };
    await buildArtifacts(ctx);
    const built = new Date(NOW_MS).toISOString();
    staged.writer.writeManifest({ build_id: 'c1', built_at: built, archive_through: days[days.length - 1]!, window_days: days.length, counts: ctx.counts });
    commit(root, staged);
  } finally {
    db.close();
  }
  await writeBundles({ log, root, out: bundles, nowMs: NOW_MS, airports: refViewOf(refdata()) });
  return { dir, log, root, bundles, nowMs: NOW_MS };
}
