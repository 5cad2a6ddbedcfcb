// the simulated fleet: airline airframes on real catalog routes (real registry airframes where
// the registry lists one for the airline and a fitting type, else a generated hex inside a real
// ICAO block of the country with a registration of its prefix) and general aviation based at
// small fields near big ones. airframe i depends only on (seed, i) and airframes before it, so a
// bigger fleet extends a smaller one.
import type { RegistryEntry } from '../lib/reference/registry.ts';
import { distanceNm } from '../lib/geo.ts';
import { rng, type Rng } from '../lib/random.ts';
import { LIGHT, perfOf, typesFor, type Perf } from './perf.ts';
import type { SimAirport, SimRoute, World } from './world.ts';

export interface Airframe {
  index: number;
  hex: string;
  reg: string | null;
  perf: Perf;
  /** registry extras written into trace headers, as readsb does from its database */
  ownOp: string | null;
  year: number | null;
  kind: 'airline' | 'ga';
  /** airline: the sector flown back and forth */
  out: SimRoute | null;
  back: SimRoute | null;
  /** ga: the home field */
  home: SimAirport | null;
  /** local minute of the day's first off-block */
  firstMin: number;
}

export interface FleetIndex {
  /** routes that have a catalog way back */
  paired: World['routes'];
  registryByAirline: Map<string, RegistryEntry[]>;
  blocksByCountry: Map<string, World['blocks']>;
  /** every civil country block */
  civilBlocks: World['blocks'];
  gaFields: SimAirport[];
}

/** share of the fleet that is general aviation */
const GA_SHARE = 0.15;

export function indexFleet(world: World): FleetIndex {
  const paired = world.routes.filter((r) => r.back !== null);
  const registryByAirline = new Map<string, RegistryEntry[]>();
  for (const e of world.registry) {
    if (!e.airline_code || !e.type || !perfOf(e.type) || !e.reg) continue;
    let l = registryByAirline.get(e.airline_code);
    if (!l) registryByAirline.set(e.airline_code, (l = []));
    l.push(e);
  }
  const blocksByCountry = new Map<string, World['blocks']>();
  for (const b of world.blocks) {
    if (b.military || b.country === 'ZZ') continue;
    let l = blocksByCountry.get(b.country);
    if (!l) blocksByCountry.set(b.country, (l = []));
    l.push(b);
  }
  // ga fields: small airports within 25 nm of a large one (where receivers are: see coverage.ts)
  const large = world.airports.filter((a) => a.kind === 'large_airport');
  const cell = (lat: number, lon: number) => `${Math.floor(lat)}|${Math.floor(lon)}`;
  const grid = new Map<string, SimAirport[]>();
  for (const a of large) {
    const k = cell(a.lat, a.lon);
    grid.set(k, [...(grid.get(k) ?? []), a]);
  }
  const gaFields = world.airports.filter((a) => {
    if (a.kind !== 'small_airport') return false;
    for (let dl = -1; dl <= 1; dl++) for (let dn = -1; dn <= 1; dn++) {
      for (const b of grid.get(cell(a.lat + dl, a.lon + dn)) ?? []) if (distanceNm(a.lat, a.lon, b.lat, b.lon) < 25) return true;
    }
    return false;
  });
  return { paired: paired.length ? paired : world.routes, registryByAirline, blocksByCountry, civilBlocks: [...blocksByCountry.values()].flat(), gaFields };
}

/** Builds `size` airframes for a seed. */
export function buildFleet(world: World, index: FleetIndex, seed: number, size: number): Airframe[] {
  const used = new Set<string>();
  const out: Airframe[] = [];
  for (let i = 0; i < size; i++) out.push(makeAirframe(world, index, seed, i, used));
  return out;
}

function makeAirframe(world: World, ix: FleetIndex, seed: number, i: number, used: Set<string>): Airframe {
  const r = rng(seed, 'airframe', i);
  const ga = r.chance(GA_SHARE) && ix.gaFields.length > 0;
  if (ga) {
    const home = r.pick(ix.gaFields);
    const perf = r.pick(LIGHT);
    const hex = newHex(world, ix, r, home.iso_country, used);
    return {
      index: i, hex, reg: newReg(world, r, world.codeBlocks.countryOfHex(hex) ?? home.iso_country), perf, ownOp: null,
      year: 1970 + r.int(50), kind: 'ga', out: null, back: null, home, firstMin: 8 * 60 + r.int(150),
    };
  }
  const route = r.pick(ix.paired);
  const perfs = typesFor(route.out.nm);
  // a real airframe of this airline with a type fitting the sector, when the registry has a free one
  const candidates = (ix.registryByAirline.get(route.out.airline) ?? []).filter((e) => !used.has(e.hex) && perfs.some((p) => p.type === e.type));
  const firstMin = 5 * 60 + 30 + r.int(270);
  if (candidates.length) {
    const e = r.pick(candidates);
    used.add(e.hex);
    return { index: i, hex: e.hex, reg: e.reg, perf: perfOf(e.type!)!, ownOp: e.operator, year: e.year, kind: 'airline', out: route.out, back: route.back, home: null, firstMin };
  }
  const country = route.out.org.iso_country;
  const hex = newHex(world, ix, r, country, used);
  return {
    index: i, hex, reg: newReg(world, r, world.codeBlocks.countryOfHex(hex) ?? country), perf: r.pick(perfs), ownOp: null,
    year: 2000 + r.int(25), kind: 'airline', out: route.out, back: route.back, home: null, firstMin,
  };
}

/** a free hex inside a civil block of the country (or of any country when it has none) */
export function newHex(world: World, ix: FleetIndex, r: Rng, country: string, used: Set<string>): string {
  const own = ix.blocksByCountry.get(country) ?? [];
  const all = ix.civilBlocks;
  // the country's own blocks first; a country whose blocks are full or nested away falls back to any civil block
  for (let attempt = 0; attempt < 256; attempt++) {
    const b = pickBySize(r, attempt < 64 && own.length ? own : all);
    const hex = (b.start + r.int(b.finish - b.start + 1)).toString(16).padStart(6, '0');
    // the smallest block holding the hex must be this civil country block (blocks nest)
    if (used.has(hex) || world.codeBlocks.isMilitaryHex(hex) || world.codeBlocks.countryOfHex(hex) !== b.country) continue;
    used.add(hex);
    return hex;
  }
  throw new Error(`sim: no free hex found in the blocks of ${country}; the fleet is larger than the address space allows`);
}

/** a block chosen in proportion to its size: a country's one-address blocks are not as likely as its main one */
function pickBySize(r: Rng, blocks: World['blocks']): World['blocks'][number] {
  let total = 0;
  for (const b of blocks) total += b.finish - b.start + 1;
  let x = r.next() * total;
  for (const b of blocks) {
    x -= b.finish - b.start + 1;
    if (x < 0) return b;
  }
  return blocks[blocks.length - 1]!;
}

const LETTERS = 'ABCDEFGHIJKLMNPQRSTUVWXYZ';
const letters = (r: Rng, n: number) => Array.from({ length: n }, () => LETTERS[r.int(LETTERS.length)]).join('');
const digits = (r: Rng, n: number) => Array.from({ length: n }, (_, k) => String(k === 0 ? 1 + r.int(9) : r.int(10))).join('');

/** a registration in the country's prefix format, checked against the prefix's own pattern; null when none fits */
export function newReg(world: World, r: Rng, country: string): string | null {
  const prefixes = world.prefixes.filter((p) => p.country === country);
  for (const p of prefixes) {
    const sep = p.hyphen ? '-' : '';
    const tries = p.prefix === 'N' ? [`N${digits(r, 3)}${letters(r, 2)}`] : [3, 4, 2].map((n) => `${p.prefix}${sep}${letters(r, n)}`).concat(`${p.prefix}${sep}${digits(r, 4)}`);
    for (const reg of tries) if (p.check.test(reg)) return reg;
  }
  return null;
}
