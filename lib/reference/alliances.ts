// alliances.json: sourced memberships (one source URL per alliance). The file is hand-compiled,
// so its shape is checked and a malformed file is refused with the path of the first problem.
import { RefdataError } from './csv.ts';

interface AllianceMember {
  icao: string;
  iata: string | null;
  name: string;
}

interface Alliance {
  slug: string;
  name: string;
  /** the alliance's own member page */
  source: string;
  members: AllianceMember[];
}

export interface Alliances {
  as_of: string;
  alliances: Alliance[];
}

function fail(file: string, where: string, what: string): never {
  throw new RefdataError(`${file}: ${where} ${what}`);
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export function parseAlliances(input: string | Buffer, file = 'alliances.json'): Alliances {
  let doc: unknown;
  try {
    doc = JSON.parse(input.toString());
  } catch (err) {
    fail(file, 'is', `not valid JSON (${(err as Error).message})`);
  }
  if (!isObj(doc)) fail(file, 'top level', 'must be an object');
  const asOf = doc.as_of;
  if (typeof asOf !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(asOf)) fail(file, 'as_of', 'must be a date YYYY-MM-DD');
  if (!Array.isArray(doc.alliances) || doc.alliances.length === 0) fail(file, 'alliances', 'must be a non-empty array');
  const slugs = new Set<string>();
  const alliances = doc.alliances.map((a: unknown, i: number): Alliance => {
    const at = `alliances[${i}]`;
    if (!isObj(a)) fail(file, at, 'must be an object');
    if (typeof a.slug !== 'string' || !/^[a-z0-9]+(-[a-z0-9]+)*$/.test(a.slug)) fail(file, `${at}.slug`, 'must be lower-case words joined by -');
    if (slugs.has(a.slug)) fail(file, `${at}.slug`, `duplicates "${a.slug}"`);
    slugs.add(a.slug);
    if (typeof a.name !== 'string' || !a.name.trim()) fail(file, `${at}.name`, 'must be a non-empty string');
    if (typeof a.source !== 'string' || !/^https:\/\/\S+$/.test(a.source)) fail(file, `${at}.source`, 'must be an https URL');
    if (!Array.isArray(a.members) || a.members.length === 0) fail(file, `${at}.members`, 'must be a non-empty array');
    const members = a.members.map((m: unknown, j: number): AllianceMember => {
      const mat = `${at}.members[${j}]`;
      if (!isObj(m)) fail(file, mat, 'must be an object');
      if (typeof m.icao !== 'string' || !/^[A-Z]{3}$/.test(m.icao)) fail(file, `${mat}.icao`, 'must be a 3-letter ICAO airline designator');
      if (m.iata !== undefined && m.iata !== null && (typeof m.iata !== 'string' || !/^[A-Z0-9]{2}$/.test(m.iata))) {
        fail(file, `${mat}.iata`, 'must be a 2-character IATA code or absent');
      }
      if (typeof m.name !== 'string' || !m.name.trim()) fail(file, `${mat}.name`, 'must be a non-empty string');
      return { icao: m.icao, iata: (m.iata as string | undefined) ?? null, name: m.name };
    });
    return { slug: a.slug, name: a.name, source: a.source, members };
  });
  return { as_of: asOf, alliances };
}
