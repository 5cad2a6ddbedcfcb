// the data files of the snapshot and how each is checked: the parser the loader uses, so a file
// that passes here loads. Used by the refresh command before anything is copied.
import { readCsv, newCount, type FileCount } from './csv.ts';
import { parseAirports } from './airports.ts';
import { parseRunways } from './runways.ts';
import { parseVrsAirlines, parseOperators } from './airlines.ts';
import { parseModelTypes } from './types.ts';
import { parseRegistry } from './registry.ts';
import { parseCodeBlocks } from './codeblocks.ts';
import { parseCatalog } from './catalog.ts';
import { parseAlliances } from './alliances.ts';
import { parseCountries, parseVrsCountries } from './countries.ts';

export interface DataFile {
  /** path inside the snapshot directory; '.gz' files are stored gzipped */
  path: string;
  /** parse the (decompressed) bytes; throws RefdataError when the file cannot be used */
  check(input: Buffer): FileCount;
}

// files no loader reads yet (region names, registration prefixes): header and row shape only
const plain = (path: string, columns: string[]): DataFile => ({
  path,
  check: (input) => readCsv(path, input, columns, () => true).count,
});

export const DATA_FILES: readonly DataFile[] = [
  { path: 'ourairports/airports.csv.gz', check: (b) => parseAirports(b).count },
  { path: 'ourairports/runways.csv.gz', check: (b) => parseRunways(b).count },
  { path: 'ourairports/countries.csv', check: (b) => parseCountries(b).count },
  plain('ourairports/regions.csv', ['code', 'name', 'iso_country']),
  { path: 'vrs-standing-data/routes.csv.gz', check: (b) => parseCatalog(b).count },
  { path: 'vrs-standing-data/airlines.csv', check: (b) => parseVrsAirlines(b).count },
  { path: 'vrs-standing-data/model-type.csv', check: (b) => parseModelTypes(b).count },
  { path: 'vrs-standing-data/aircraft.csv.gz', check: (b) => parseRegistry(b).count },
  { path: 'vrs-standing-data/code-blocks.csv', check: (b) => parseCodeBlocks(b).count },
  { path: 'vrs-standing-data/countries.csv', check: (b) => parseVrsCountries(b).count },
  plain('vrs-standing-data/registration-prefixes.csv', ['Prefix', 'CountryISO2']),
  { path: 'flightgazer/operators.csv', check: (b) => parseOperators(b).count },
  {
    path: 'alliances.json',
    check: (b) => {
      const doc = parseAlliances(b);
      return { ...newCount('alliances.json'), rows: doc.alliances.reduce((n, a) => n + a.members.length, 0) };
    },
  },
];
