// country names to ISO 3166-1 alpha-2 codes. FlightGazer's operator list spells a country as an
// upper-case English name (HUNGARY, RUSSIAN FEDERATION, IRAN (ISLAMIC REPUBLIC OF)); the code
// comes from a shipped table, never from a guess: OurAirports' countries.csv (its names and its
// keywords), VRS's countries.csv (Viet Nam), then i18n-iso-countries' English names with their
// official long forms (Russian Federation, Republic of Korea). a name
// neither knows has no code (null), and the caller shows no country rather than a word.
import countries from 'i18n-iso-countries';
import { readCsv, skip, type FileCount } from './csv.ts';

interface CountryRow {
  code: string;
  name: string;
  /** other names OurAirports gives the country (its keywords column) */
  keywords: string[];
}

const ALPHA2 = /^[A-Z]{2}$/;

export function parseCountries(input: string | Buffer, file = 'ourairports/countries.csv'): { rows: CountryRow[]; count: FileCount } {
  return readCsv(file, input, ['code', 'name', 'keywords'], (get) => {
    const code = get('code').toUpperCase();
    if (!ALPHA2.test(code)) return skip('bad country code');
    const name = get('name');
    if (!name) return skip('missing name');
    const keywords = get('keywords')
      .split(',')
      .map((k) => k.trim())
      .filter(Boolean);
    return { code, name, keywords };
  });
}

/** VRS standing data's countries.csv (ISO, Name): more names for the same codes */
export function parseVrsCountries(input: string | Buffer, file = 'vrs-standing-data/countries.csv'): { rows: CountryRow[]; count: FileCount } {
  return readCsv(file, input, ['ISO', 'Name'], (get) => {
    const code = get('ISO').toUpperCase();
    if (!ALPHA2.test(code)) return skip('bad country code');
    const name = get('Name');
    if (!name) return skip('missing name');
    return { code, name, keywords: [] };
  });
}

/** upper case, accents and punctuation dropped: "Côte d'Ivoire" and "COTE D'IVOIRE" are one key */
const key = (name: string) =>
  name
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toUpperCase()
    .replace(/[^A-Z0-9]+/g, ' ')
    .trim();

/** a name -> alpha-2 lookup over the tables' rows (earlier rows first), then i18n-iso-countries (English) */
export function countryCodes(rows: readonly CountryRow[]): (name: string) => string | null {
  const byName = new Map<string, string>();
  for (const r of rows) if (!byName.has(key(r.name))) byName.set(key(r.name), r.code);
  // keywords only where no country is called that: a keyword never takes another country's name
  for (const r of rows) for (const k of r.keywords) if (!byName.has(key(k))) byName.set(key(k), r.code);
  const cache = new Map<string, string | null>();
  return (name) => {
    const k = key(name);
    if (!k) return null;
    let code = cache.get(k);
    if (code === undefined) {
      const found = byName.get(k) ?? countries.getAlpha2Code(name, 'en') ?? countries.getSimpleAlpha2Code(name, 'en') ?? null;
      code = found && ALPHA2.test(found) ? found : null;
      cache.set(k, code);
    }
    return code;
  };
}
