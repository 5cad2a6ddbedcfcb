// loadRefdata: the one adapter that reads the shipped snapshot (data/ref) and builds every
// reference table. The nightly build calls it once; everything below it is pure.
import { readFile } from 'node:fs/promises';
import { gunzipSync } from 'node:zlib';
import { join } from 'node:path';
import type { FileCount } from './csv.ts';
import { parseAirports, indexAirports, type AirportIndex } from './airports.ts';
import { parseRunways, type Runway } from './runways.ts';
import { buildLocator, type AirportLocator } from './locate.ts';
import { parseVrsAirlines, parseOperators, mergeAirlines, type AirlineTable } from './airlines.ts';
import { parseModelTypes, buildTypes, type TypeTable } from './types.ts';
import { parseRegistry, buildRegistry, type Registry } from './registry.ts';
import { parseCodeBlocks, buildCodeBlocks, type CodeBlocks } from './codeblocks.ts';
import { parseCatalog, buildCatalog, type Catalog } from './catalog.ts';
import { parseAlliances, type Alliances } from './alliances.ts';
import { countryCodes, parseCountries, parseVrsCountries } from './countries.ts';
import { parseSources, type Source } from './sources.ts';
import { installed } from '../install.ts';

export interface Refdata {
  airports: AirportIndex;
  /** every runway of the snapshot, located or not */
  runways: readonly Runway[];
  locator: AirportLocator;
  airlines: AirlineTable;
  types: TypeTable;
  registry: Registry;
  codeBlocks: CodeBlocks;
  catalog: Catalog;
  alliances: Alliances;
  sources: Source[];
  /** rows kept and skipped per file, for the build's report */
  counts: FileCount[];
}

const DEFAULT_REFDATA_DIR = installed('data/ref');

/** the bytes of one snapshot file, gunzipped when its name ends in .gz */
export async function readRefFile(dir: string, path: string): Promise<Buffer> {
  const raw = await readFile(join(dir, path));
  return path.endsWith('.gz') ? gunzipSync(raw) : raw;
}

export async function loadRefdata(dir = DEFAULT_REFDATA_DIR): Promise<Refdata> {
  const read = (p: string) => readRefFile(dir, p);
  const [airportsB, runwaysB, airlinesB, operatorsB, typesB, aircraftB, blocksB, routesB, alliancesB, sourcesB, countriesB, vrsCountriesB] = await Promise.all([
    read('ourairports/airports.csv.gz'),
    read('ourairports/runways.csv.gz'),
    read('vrs-standing-data/airlines.csv'),
    read('flightgazer/operators.csv'),
    read('vrs-standing-data/model-type.csv'),
    read('vrs-standing-data/aircraft.csv.gz'),
    read('vrs-standing-data/code-blocks.csv'),
    read('vrs-standing-data/routes.csv.gz'),
    read('alliances.json'),
    read('sources.json'),
    read('ourairports/countries.csv'),
    read('vrs-standing-data/countries.csv'),
  ]);
  const airports = parseAirports(airportsB);
  const runways = parseRunways(runwaysB);
  const vrs = parseVrsAirlines(airlinesB);
  const operators = parseOperators(operatorsB);
  const types = parseModelTypes(typesB);
  const registry = parseRegistry(aircraftB);
  const blocks = parseCodeBlocks(blocksB);
  const catalog = parseCatalog(routesB);
  const countries = parseCountries(countriesB);
  const vrsCountries = parseVrsCountries(vrsCountriesB);
  return {
    airports: indexAirports(airports.airports),
    runways: runways.runways,
    locator: buildLocator(airports.airports, runways.runways),
    airlines: mergeAirlines(vrs.rows, operators.rows, countryCodes([...countries.rows, ...vrsCountries.rows])),
    types: buildTypes(types.rows),
    registry: buildRegistry(registry.rows),
    codeBlocks: buildCodeBlocks(blocks.rows),
    catalog: buildCatalog(catalog.rows),
    alliances: parseAlliances(alliancesB),
    sources: parseSources(sourcesB),
    counts: [
      airports.count,
      runways.count,
      vrs.count,
      operators.count,
      types.count,
      registry.count,
      blocks.count,
      catalog.count,
      countries.count,
      vrsCountries.count,
    ],
  };
}
