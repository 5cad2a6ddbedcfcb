// a BuildContext for artifact-builder tests: an in-memory DuckDB with a `legs` table of
// hand-made rows, a small hand-made reference data set (real parsers, tiny inputs), and a real
// ArtifactWriter into a temp directory. the clock is pinned by the caller.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import type { BuildContext, RefAirports } from '../../build/steps/context.ts';
import { silentProgress } from '../../build/progress.ts';
import { loadRefAirports } from '../../build/steps/duck.ts';
import { refViewOf } from '../../artifacts/reference-view-adapter.ts';
import { ArtifactWriter } from '../../build/publish/writer.ts';
import type { Refdata } from '../../lib/reference/index.ts';
import { indexAirports, parseAirports } from '../../lib/reference/airports.ts';
import { mergeAirlines, parseVrsAirlines } from '../../lib/reference/airlines.ts';
import { buildCodeBlocks, parseCodeBlocks } from '../../lib/reference/codeblocks.ts';
import { parseAlliances } from '../../lib/reference/alliances.ts';

export interface LegRow {
  hex: string;
  callsign: string | null;
  type?: string | null;
  dep_ts: number | null;
  arr_ts: number | null;
  org: string | null;
  dst: string | null;
}

// rows from OurAirports airports.csv (Unlicense; positions as published, columns trimmed)
const AIRPORTS_CSV = `ident,type,name,latitude_deg,longitude_deg,elevation_ft,iso_country,iso_region,municipality,scheduled_service,icao_code,iata_code
LSZH,large_airport,Zurich Airport,47.458056,8.548056,1417,CH,CH-ZH,Zurich,yes,LSZH,ZRH
EGLL,large_airport,London Heathrow Airport,51.4706,-0.461941,83,GB,GB-ENG,London,yes,EGLL,LHR
RJAA,large_airport,Narita International Airport,35.764702,140.386002,141,JP,JP-12,Narita,yes,RJAA,NRT
ETAR,medium_airport,Ramstein Air Base,49.4369,7.60028,776,DE,DE-RP,Ramstein,no,ETAR,RMS
LSZR,medium_airport,St. Gallen-Altenrhein Airport,47.4850,9.5607,1306,CH,CH-SG,Altenrhein,no,LSZR,ACH
LSGG,large_airport,Geneva Cointrin International Airport,46.238098,6.10895,1411,CH,CH-GE,Geneva,yes,LSGG,GVA
LSZB,medium_airport,Bern Airport,46.912868,7.498512,1674,CH,CH-BE,Bern,yes,LSZB,BRN
LSPV,small_airport,Wangen-Lachen Airfield,47.204167,8.8675,1335,CH,CH-SZ,Wangen,no,,
`;

// rows from the VRS standing data airlines.csv (CC0)
const AIRLINES_CSV = `Code,Name,ICAO,IATA,PositioningFlightPattern,CharterFlightPattern
LX,Swiss International Air Lines,SWR,LX,,
BA,British Airways,BAW,BA,,
NH,All Nippon Airways,ANA,NH,,
LH,Lufthansa,DLH,LH,,
`;

// rows from the VRS standing data code-blocks.csv (CC0): Switzerland and the US military block
const BLOCKS_CSV = `Start,Finish,Count,Bitmask,SignificantBitmask,IsMilitary,CountryISO2
000000,7FFFFF,8388608,000000,800000,0,ZZ
4B0000,4B7FFF,32768,4B0000,FF8000,0,CH
A00000,AFFFFF,1048576,A00000,F00000,0,US
ADF7C8,AFFFFF,32824,ADF7C8,FFFFFF,1,US
`;

export const ALLIANCES_JSON = JSON.stringify({
  about: 'test',
  as_of: '2025-06-30',
  alliances: [
    {
      slug: 'star-alliance',
      name: 'Star Alliance',
      source: 'https://www.staralliance.com/en/member-airlines',
      members: [
        { icao: 'SWR', iata: 'LX', name: 'Swiss International Air Lines' },
        { icao: 'DLH', iata: 'LH', name: 'Lufthansa' },
        { icao: 'ANA', iata: 'NH', name: 'All Nippon Airways' },
      ],
    },
    { slug: 'oneworld', name: 'oneworld', source: 'https://www.oneworld.com/members', members: [{ icao: 'BAW', iata: 'BA', name: 'British Airways' }] },
  ],
});

export function testRefdata(): Refdata {
  return {
    airports: indexAirports(parseAirports(AIRPORTS_CSV).airports),
    airlines: mergeAirlines(parseVrsAirlines(AIRLINES_CSV).rows, []),
    codeBlocks: buildCodeBlocks(parseCodeBlocks(BLOCKS_CSV).rows),
    alliances: parseAlliances(ALLIANCES_JSON),
    runways: [],
    counts: [],
    sources: [],
  } as unknown as Refdata;
}

/** unix seconds of an ISO UTC time, e.g. at('2023-10-27T05:10') */
export const at = (iso: string) => Math.round(Date.parse(`${iso}:00Z`) / 1000);

/** a test context and the reference-airports table its steps read (made as the pipeline makes it) */
export async function testContext(
  legs: readonly LegRow[],
  opts: { nowMs: number; timetablesDir?: string | null; noLog?: boolean },
): Promise<BuildContext & { airports: RefAirports }> {
  const db = await (await DuckDBInstance.create(':memory:')).connect();
  await db.run(`CREATE TABLE legs (hex VARCHAR, callsign VARCHAR, reg VARCHAR, type VARCHAR, first_ts BIGINT, last_ts BIGINT,
    dep_ts BIGINT, arr_ts BIGINT, org VARCHAR, dst VARCHAR, day DATE)`);
  const app = await db.createAppender('legs');
  const days: string[] = [];
  for (const l of legs) {
    const first = (l.dep_ts ?? l.arr_ts)! - 60;
    const last = (l.arr_ts ?? l.dep_ts)! + 60;
    const day = new Date(first * 1000).toISOString().slice(0, 10);
    days.push(day);
    app.appendVarchar(l.hex);
    for (const v of [l.callsign, null, l.type ?? null])
      if (v === null) app.appendNull();
      else app.appendVarchar(v);
    app.appendBigInt(BigInt(first));
    app.appendBigInt(BigInt(last));
    for (const v of [l.dep_ts, l.arr_ts])
      if (v === null) app.appendNull();
      else app.appendBigInt(BigInt(v));
    for (const v of [l.org, l.dst])
      if (v === null) app.appendNull();
      else app.appendVarchar(v);
    app.appendVarchar(day);
    app.endRow();
  }
  app.closeSync();
  days.sort();
  const noLog = opts.noLog || days.length === 0;
  const windowStart = noLog ? null : days[0]!;
  const archiveThrough = noLog ? null : days[days.length - 1]!;
  const refdata = testRefdata();
  const ref = refViewOf(refdata);
  return {
    db,
    refdata,
    ref,
    airports: await loadRefAirports(db, ref),
    writer: new ArtifactWriter(mkdtempSync(join(tmpdir(), 'contrail-art-')), null),
    archiveThrough,
    windowStart,
    windowDays: noLog ? 0 : Math.round((Date.parse(archiveThrough!) - Date.parse(windowStart!)) / 86400_000) + 1,
    windowLimit: 365,
    timetablesDir: opts.timetablesDir ?? null,
    nowMs: opts.nowMs,
    progress: silentProgress,
    counts: {},
  };
}
