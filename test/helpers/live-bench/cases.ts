// what the live bench asks, of Contrail and of readsb's own API (its --net-api-port, README-json.md
// "/?circle", "/?box", "/?all"), as one list of cases: a query times an Accept-Encoding.

interface Query {
  id: string;
  name: string;
  /** varied points: each request at another point drawn from the traffic, this radius (nm) */
  radiusNm?: number;
  /** a fixed URL otherwise */
  contrailPath?: string;
  readsbPath?: string;
}

const QUERIES: readonly Query[] = [
  { id: 'point25', name: 'point 25 nm (varied)', radiusNm: 25 },
  { id: 'point250', name: 'point 250 nm (varied)', radiusNm: 250 },
  // the same box both ways: lon 5..15, lat 45..55 (readsb: lat south, lat north, lon west, lon east)
  { id: 'bbox', name: 'bbox central Europe', contrailPath: '/v1/aircraft?bbox=5,45,15,55', readsbPath: '/re-api/?box=45,55,5,15' },
  { id: 'all', name: 'whole network', contrailPath: '/v1/aircraft', readsbPath: '/re-api/?all' },
  // a route a serving worker forwards to the main thread (readsb has none like it: Contrail only,
  // or against a Contrail peer, bench/live.ts --peer-entry)
  { id: 'now', name: 'counts /v1/now (forwarded by a worker)', contrailPath: '/v1/now' },
];

/** how the request asks to be encoded: nothing, or as a browser asks (readsb itself only knows zstd) */
export const ENCODINGS = { plain: '', browser: 'gzip, deflate, br' } as const;
type Encoding = keyof typeof ENCODINGS;

export interface Case {
  /** `point25` or `point25+browser` */
  id: string;
  name: string;
  query: Query;
  encoding: Encoding;
}

const pick = <T extends string>(list: string, known: readonly T[], flag: string): T[] => {
  const ids = list
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (!ids.length) throw new Error(`--${flag} is empty; give a comma-separated list of: ${known.join(', ')}`);
  for (const id of ids) {
    if (!known.includes(id as T)) throw new Error(`--${flag}: unknown "${id}"; known: ${known.join(', ')}`);
  }
  return known.filter((k) => ids.includes(k));
};

/** the cases named by --queries and --encodings (comma-separated), in the order of QUERIES */
export function selectCases(queries: string, encodings: string): Case[] {
  const qs = pick(
    queries,
    QUERIES.map((q) => q.id),
    'queries',
  );
  const es = pick(encodings, Object.keys(ENCODINGS) as Encoding[], 'encodings');
  return QUERIES.filter((q) => qs.includes(q.id)).flatMap((query) =>
    es.map((encoding) => ({
      id: encoding === 'plain' ? query.id : `${query.id}+${encoding}`,
      name: encoding === 'plain' ? query.name : `${query.name}, ${ENCODINGS[encoding]}`,
      query,
      encoding,
    })),
  );
}
