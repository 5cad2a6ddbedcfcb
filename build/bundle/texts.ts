// the text files of a researchers' bundle: LICENSE, CREDITS and README. pure apart from reading the
// shipped license and the reference-data source list; the field list comes from the contract
// (schemas/flight-log.schema.json), so the README cannot drift from the Parquet it describes.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadSchemas } from '../../schemas/index.ts';

const HERE = dirname(fileURLToPath(import.meta.url));
const LICENSE_FILE = join(HERE, '../../data/licenses/ODbL-1.0.txt');

export interface Source {
  id: string;
  name: string;
  license: string;
  license_url?: string;
  credit: string;
  upstream?: string;
  retrieved?: string;
}

export interface BundleTexts {
  /** credits page URL (spec 1 {credits_url}) */
  creditsUrl: string;
  /** reference-data sources (data/ref/sources.json) */
  sources: Source[];
  /** credits of the traffic the log was built from, one line each (feeders, upstream networks) */
  traffic: string[];
}

export function licenseText(): string {
  return readFileSync(LICENSE_FILE, 'utf8');
}

/** Reads data/ref/sources.json (or a copy) as a list of sources; throws naming the file when malformed. */
export function readSources(file: string): Source[] {
  const list = JSON.parse(readFileSync(file, 'utf8')) as unknown;
  if (!Array.isArray(list)) throw new Error(`${file}: expected a JSON array of sources`);
  for (const s of list as Source[]) {
    if (typeof s?.name !== 'string' || typeof s.credit !== 'string' || typeof s.license !== 'string') {
      throw new Error(`${file}: every source needs name, license and credit strings; fix ${JSON.stringify(s).slice(0, 80)}`);
    }
  }
  return list as Source[];
}

export function creditsText(t: BundleTexts): string {
  const lines = [
    'CREDITS',
    '',
    'This bundle is licensed under the Open Database License 1.0 (see LICENSE).',
    `Republishing it, or anything made from it, carries these credits; the live list is at ${t.creditsUrl}.`,
    '',
    'Observations',
    '',
    ...t.traffic.map((c) => `- ${c}`),
    '',
    'Reference data',
    '',
  ];
  for (const s of t.sources) {
    lines.push(`- ${s.name}: ${s.credit}`, `  license: ${s.license}${s.license_url ? ` (${s.license_url})` : ''}`);
    if (s.upstream) lines.push(`  source: ${s.upstream}${s.retrieved ? `, retrieved ${s.retrieved}` : ''}`);
  }
  return lines.join('\n') + '\n';
}

export interface ReadmeFacts {
  kind: 'daily' | 'rolling';
  from: string;
  to: string;
  legs: number;
  /** artifact build the tables come from, or null (daily bundles carry no tables) */
  buildId: string | null;
  creditsUrl: string;
}

export function readmeText(f: ReadmeFacts): string {
  const schema = loadSchemas().get('flight-log') as { properties: Record<string, { type: unknown; description: string }> } | undefined;
  if (!schema) throw new Error('schemas/flight-log.schema.json is missing: the bundle README lists its fields');
  const period = f.from === f.to ? f.from : `${f.from} to ${f.to}`;
  const fields = Object.entries(schema.properties).map(([name, p]) => {
    const type = Array.isArray(p.type) ? p.type.join(' or ') : String(p.type);
    return `- ${name} (${type}): ${p.description}`;
  });
  return [
    `Contrail flight data, ${f.kind} bundle, ${period}`,
    '',
    `Observed flight legs heard by the network's receivers: ${f.legs} legs.`,
    'License: ODbL 1.0 (LICENSE). Credit the feeders and every source in CREDITS when you republish.',
    `Credits page: ${f.creditsUrl}`,
    '',
    'Files',
    '',
    '- legs.parquet: the flight log for the period, one row per observed leg, Parquet (zstd),',
    '  sorted by day, hex, first_ts. Read it with DuckDB:',
    "    SELECT org, dst, count(*) FROM 'legs.parquet' WHERE org <> dst GROUP BY ALL ORDER BY 3 DESC;",
    ...(f.buildId
      ? [
          `- tables/: derived tables of build ${f.buildId} as Parquet: airframes.parquet (one row per airframe,`,
          '  its legs in order in `history`), airports.parquet (observed departures, arrivals, tails and days per',
          '  OurAirports ident, circuits excluded), routes.parquet (each callsign\'s route with its route_source).',
        ]
      : []),
    '- LICENSE, CREDITS, README: this text and the terms.',
    '- SHA256SUMS: checksums of every other file; verify with `sha256sum -c SHA256SUMS`.',
    '',
    'Columns of legs.parquet',
    '',
    ...fields,
    '',
    'Data honesty',
    '',
    '1. History is observation, never an official registry. A gap means the network\'s sources did not',
    '   hear the aircraft, nothing more.',
    '2. Every leg here was heard by a receiver. Airports (org, dst) are set only where the take-off or',
    '   landing was heard at an airport; null means it was not heard, not that the flight did not happen.',
    '3. In the artifacts, airport board rows carry their own source: observed, published (inferred from',
    '   timetables, not a receiver observation) or both.',
    '4. A flight\'s route_source is observed (both ends seen), observed+catalog (the community supplied the',
    '   end coverage never reached) or catalog (the community supplied both). Observation outranks the',
    '   catalog whenever it speaks.',
    '5. Estimated positions are never archived or exported: they are not in this bundle.',
    '',
    'A leg is in the day of its first heard point (UTC). A leg still flying after the newest day built has',
    'open = true (no landing yet, arr_ts and dst null); a later bundle has it closed.',
    '',
  ].join('\n');
}
