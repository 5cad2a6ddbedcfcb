// aircraft types by ICAO 8643 designator from the VRS model-type table: a display name and a
// coarse category.
//
// name: model-type.csv has several rows per designator (marketing names, military and VIP
// variants, retired spellings). Among the active rows (IsActive = 1; all rows when none is),
// the manufacturer named most often wins, and the name is its first row that is not a
// VIP/corporate derivative (BBJ, ACJ, Prestige, ...), as manufacturer + model.
//
// category, first rule that applies (the table has no size or seat count, so the jet classes
// lean on the wake category and on two short curated designator lists):
//   fake designator ('-GND', '-TWR')      -> null (vehicles and towers)
//   species H                             -> helicopter
//   species G                             -> gyrocopter
//   species T                             -> tiltrotor
//   designator in REGIONAL_JETS           -> regional
//   engine type T                         -> turboprop
//   engine type P                         -> piston
//   engine type E                         -> electric
//   engine type J, wake H or M/H          -> wide, except NARROW_HEAVY designators -> narrow
//   engine type J, business-jet family    -> business  (model names: Citation, Learjet,
//                                            Gulfstream, Challenger, Global, Falcon 7X, ...)
//   engine type J, wake L or L/M          -> business  (light jets; trainers land here too)
//   engine type J, one engine             -> military  (no single-engine airliner exists)
//   engine type J, otherwise              -> narrow
//   anything else (rocket, unknown)       -> other
import { readCsv, skip, type FileCount } from './csv.ts';

type TypeCategory =
  | 'wide'
  | 'narrow'
  | 'regional'
  | 'business'
  | 'military'
  | 'turboprop'
  | 'piston'
  | 'electric'
  | 'helicopter'
  | 'gyrocopter'
  | 'tiltrotor'
  | 'other';

interface TypeInfo {
  designator: string;
  manufacturer: string;
  model: string;
  /** manufacturer + model */
  name: string;
  /** number of engines; null for 'C' (coupled) or unknown */
  engines: number | null;
  engine_type: string | null;
  /** A aft, B wing-buried, F fuselage-buried, N nose, W wing; null when the table leaves it blank (it mostly does) */
  engine_placement: string | null;
  species: string | null;
  wake: string | null;
  category: TypeCategory | null;
  /** every other manufacturer + model spelling listed for the designator */
  variants: string[];
}

interface Row {
  designator: string;
  manufacturer: string;
  model: string;
  engines: string;
  engineType: string;
  enginePlacement: string;
  species: string;
  wake: string;
  active: boolean;
}

/** jets built for fewer than ~120 seats on short sectors */
export const REGIONAL_JETS: ReadonlySet<string> = new Set([
  'CRJ1',
  'CRJ2',
  'CRJ7',
  'CRJ9',
  'CRJX', // Bombardier CRJ
  'E135',
  'E145',
  'E45X',
  'E170',
  'E75S',
  'E75L',
  'E190',
  'E195',
  'E275',
  'E290',
  'E295', // Embraer ERJ / E-Jets
  'F28',
  'F70',
  'F100',
  'B461',
  'B462',
  'B463',
  'RJ70',
  'RJ85',
  'RJ1H',
  'J328', // Fokker, BAe 146/Avro RJ, 328JET
  'SU95',
  'AJ27',
  'MRJ9',
  'A148',
  'YK40',
  'T134', // Superjet, ARJ21, SpaceJet, An-148, Yak-40, Tu-134
]);

/** heavy-wake jets with one aisle */
export const NARROW_HEAVY: ReadonlySet<string> = new Set(['B703', 'B720', 'DC85', 'DC86', 'DC87', 'IL62', 'VC10', 'CONC', 'T144']);

const BUSINESS_RE =
  /Citation|Learjet|Lear Jet|Gulfstream|Challenger [3-7]\d\d|Global (Express|[0-9])|Falcon (\d|[0-9]+X)|Phenom|Praetor|Legacy|Hawker|BAe-125|HS-125|Premier|Beechjet|Westwind|Astra|Sabreliner|JetStar|Jetstar|HondaJet|HA-420|PC-24|Eclipse|Vision|Nextant|Corvette|Jet Commander/;
const VIP_RE = /\b(BBJ\d?|ACJ[-\w]*|Prestige|VIP|Corporate|Challenger 8\d0|Lineage)\b/;

const REQUIRED = ['ICAO', 'Manufacturer', 'Model', 'Engines', 'EngineTypeCode', 'SpeciesCode', 'WakeTurbulenceCode', 'IsActive'] as const;
const DESIGNATOR_RE = /^(-[A-Z]{3}|[A-Z0-9]{2,4})$/;

export function parseModelTypes(input: string | Buffer, file = 'vrs-standing-data/model-type.csv'): { rows: Row[]; count: FileCount } {
  return readCsv(file, input, REQUIRED, (get) => {
    const designator = get('ICAO').toUpperCase();
    if (!DESIGNATOR_RE.test(designator)) return skip('bad designator');
    const engines = get('Engines');
    if (engines && !/^(\d+|C)$/.test(engines)) return skip('bad engine count');
    const active = get('IsActive');
    if (active !== '0' && active !== '1') return skip('bad IsActive');
    const row: Row = {
      designator,
      manufacturer: get('Manufacturer'),
      model: get('Model'),
      engines,
      engineType: get('EngineTypeCode'),
      enginePlacement: get('EnginePlacementCode'),
      species: get('SpeciesCode'),
      wake: get('WakeTurbulenceCode'),
      active: active === '1',
    };
    return row;
  });
}

const label = (r: Row) => [r.manufacturer, r.model].filter(Boolean).join(' ');

/** the category rule of the header comment, on one designator's primary row and all its names */
function categorize(
  designator: string,
  r: { engines: number | null; engineType: string; species: string; wake: string },
  names: readonly string[],
): TypeCategory | null {
  if (designator.startsWith('-')) return null;
  if (r.species === 'H') return 'helicopter';
  if (r.species === 'G') return 'gyrocopter';
  if (r.species === 'T') return 'tiltrotor';
  if (REGIONAL_JETS.has(designator)) return 'regional';
  if (r.engineType === 'T') return 'turboprop';
  if (r.engineType === 'P') return 'piston';
  if (r.engineType === 'E') return 'electric';
  if (r.engineType !== 'J') return 'other';
  if (r.wake === 'H' || r.wake === 'M/H') return NARROW_HEAVY.has(designator) ? 'narrow' : 'wide';
  if (names.some((n) => BUSINESS_RE.test(n))) return 'business';
  if (r.wake === 'L' || r.wake === 'L/M') return 'business';
  if (r.engines === 1) return 'military';
  return 'narrow';
}

export interface TypeTable {
  readonly size: number;
  get(designator: string): TypeInfo | null;
  typeName(designator: string): string | null;
  category(designator: string): TypeCategory | null;
  all(): IterableIterator<TypeInfo>;
}

export function buildTypes(rows: readonly Row[]): TypeTable {
  const groups = new Map<string, Row[]>();
  for (const r of rows) {
    let g = groups.get(r.designator);
    if (!g) groups.set(r.designator, (g = []));
    g.push(r);
  }
  const table = new Map<string, TypeInfo>();
  for (const [designator, g] of groups) {
    // the manufacturer most rows name (active rows first), then its first plain active row
    const pool = g.some((r) => r.active) ? g.filter((r) => r.active) : g;
    const votes = new Map<string, number>();
    for (const r of pool) votes.set(r.manufacturer, (votes.get(r.manufacturer) ?? 0) + 1);
    let maker = pool[0]!.manufacturer;
    for (const [m, n] of votes) if (n > votes.get(maker)!) maker = m;
    const mine = pool.filter((r) => r.manufacturer === maker);
    const primary = mine.find((r) => !VIP_RE.test(r.model)) ?? mine[0]!;
    const engines = /^\d+$/.test(primary.engines) ? Number(primary.engines) : null;
    const names = [...new Set(g.map(label))];
    table.set(designator, {
      designator,
      manufacturer: primary.manufacturer,
      model: primary.model,
      name: label(primary),
      engines,
      engine_type: primary.engineType || null,
      engine_placement: /^[ABFNW]$/.test(primary.enginePlacement) ? primary.enginePlacement : null,
      species: primary.species || null,
      wake: primary.wake || null,
      category: categorize(designator, { engines, engineType: primary.engineType, species: primary.species, wake: primary.wake }, names),
      variants: names.filter((n) => n !== label(primary)),
    });
  }
  const norm = (d: string) => d.trim().toUpperCase();
  return {
    size: table.size,
    get: (d) => table.get(norm(d)) ?? null,
    typeName: (d) => table.get(norm(d))?.name ?? null,
    category: (d) => table.get(norm(d))?.category ?? null,
    all: () => table.values(),
  };
}
