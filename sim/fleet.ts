// the simulated fleet: airline airframes on real catalog sectors, flown with the types that
// airline really operates (the VRS registry's airframes of that airline: its real airframes first,
// then new ones of the same types, with a hex inside a civil ICAO block of the airline's own country
// and a registration of that country's prefix), and general aviation based at small fields near
// big ones. airframe i depends only on (seed, i) and airframes before it, so a bigger fleet extends
// a smaller one.
import type { RegistryEntry } from '../lib/reference/registry.ts';
import { distanceNm } from '../lib/geo.ts';
import { rng, type Rng } from '../lib/random.ts';
import { LIGHT, LONG_HAUL_NM, fittingTypes, perfOf, type Perf } from './perf.ts';
import type { Sector, SimAirport, SimRoute, World } from './world.ts';

export interface Airframe {
  index: number;
  hex: string;
  reg: string | null;
  perf: Perf;
  /** registry extras written into trace headers, as readsb does from its database */
  ownOp: string | null;
  year: number | null;
  kind: 'airline' | 'ga';
  /** a real airframe of the VRS registry, or one made up for the simulation */
  source: 'registry' | 'generated';
  /** airline: the catalog callsigns of its rotations, from its base and back (rotation k flies outs[k] and backs[k]) */
  outs: SimRoute[];
  backs: SimRoute[];
  /** ga: the home field */
  home: SimAirport | null;
  /** local minute of the day's first off-block */
  firstMin: number;
}

interface AirlineFleet {
  /** the airline's registry airframes with a type the simulator can fly */
  airframes: RegistryEntry[];
  /** its types, distinct */
  types: Perf[];
  /** ISO country of most of its airframes' ICAO addresses */
  country: string | null;
  /** the operator name its registry rows use most */
  operator: string | null;
}

export interface FleetIndex {
  /** routes that have a catalog way back */
  paired: World['routes'];
  /** the airlines with registry airframes the simulator can fly */
  airlines: Map<string, AirlineFleet>;
  /** sectors flown by those airlines with a type that reaches, short and long haul, each with the cumulative callsign weight for picking one */
  short: Picker;
  long: Picker;
  blocksByCountry: Map<string, World['blocks']>;
  /** every civil country block */
  civilBlocks: World['blocks'];
  gaFields: SimAirport[];
}

interface Picker {
  sectors: Sector[];
  weight: number[];
}

/** share of the fleet that is general aviation */
const GA_SHARE = 0.15;
/** share of airline airframes on long-haul sectors: about one airliner in five in service is a
 * twin-aisle (rounded from fleet counts); picked by callsign count alone it would be one in twenty,
 * since a long-haul city pair has one or two flight numbers where a short one has many */
const LONG_SHARE = 0.2;

/** most round trips an airline airframe flies in a day */
const MAX_TRIPS = 4;

const mostCommon = (xs: (string | null)[]): string | null => {
  const n = new Map<string, number>();
  for (const x of xs) if (x) n.set(x, (n.get(x) ?? 0) + 1);
  let best: string | null = null;
  for (const [k, v] of n) if (best === null || v > n.get(best)! || (v === n.get(best)! && k < best)) best = k;
  return best;
};

function indexAirlines(world: World): Map<string, AirlineFleet> {
  const rows = new Map<string, RegistryEntry[]>();
  for (const e of world.registry) {
    if (!e.airline_code || !e.type || !e.reg || e.private) continue;
    const p = perfOf(e.type);
    if (!p || p.cls === 'light') continue;
    let l = rows.get(e.airline_code);
    if (!l) rows.set(e.airline_code, (l = []));
    l.push(e);
  }
  const out = new Map<string, AirlineFleet>();
  for (const [code, airframes] of rows) {
    const types = [...new Set(airframes.map((e) => e.type!))].sort().map((t) => perfOf(t)!);
    const country = mostCommon(airframes.map((e) => world.codeBlocks.countryOfHex(e.hex)));
    out.set(code, { airframes, types, country, operator: mostCommon(airframes.map((e) => e.operator)) });
  }
  return out;
}

export function indexFleet(world: World): FleetIndex {
  const paired = world.routes.filter((r) => r.back !== null);
  const airlines = indexAirlines(world);
  const sectors = world.sectors.filter((s) => {
    const a = airlines.get(s.airline);
    return a !== undefined && fittingTypes(a.types, s.nm).length > 0;
  });
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
    for (let dl = -1; dl <= 1; dl++)
      for (let dn = -1; dn <= 1; dn++) {
        for (const b of grid.get(cell(a.lat + dl, a.lon + dn)) ?? []) if (distanceNm(a.lat, a.lon, b.lat, b.lon) < 25) return true;
      }
    return false;
  });
  const short = picker(sectors.filter((s) => s.nm < LONG_HAUL_NM));
  const long = picker(sectors.filter((s) => s.nm >= LONG_HAUL_NM));
  return { paired: paired.length ? paired : world.routes, airlines, short, long, blocksByCountry, civilBlocks: [...blocksByCountry.values()].flat(), gaFields };
}

interface Taken {
  /** every registry hex and every hex handed out: a made-up airframe never takes a real one's address */
  hexes: Set<string>;
  /** registry airframes already in the fleet */
  real: Set<string>;
  regs: Set<string>;
  callsigns: Set<string>;
}

/** Builds `size` airframes for a seed. */
export function buildFleet(world: World, index: FleetIndex, seed: number, size: number): Airframe[] {
  if (index.short.sectors.length + index.long.sectors.length === 0)
    throw new Error('sim: no catalog sector is flown by an airline with registry airframes that reach it (is the catalog cut too short?)');
  // the registry's own registrations are never handed to a made-up airframe
  const taken: Taken = {
    hexes: new Set(world.registry.map((e) => e.hex)),
    real: new Set(),
    regs: new Set(world.registry.map((e) => e.reg ?? '').filter(Boolean)),
    callsigns: new Set(),
  };
  const out: Airframe[] = [];
  for (let i = 0; i < size; i++) out.push(makeAirframe(world, index, seed, i, taken));
  return out;
}

/** a city pair with more flights a day is picked more often */
function picker(sectors: Sector[]): Picker {
  const weight: number[] = [];
  let w = 0;
  for (const s of sectors) weight.push((w += Math.min(s.ab.length, s.ba.length)));
  return { sectors, weight };
}

function pickSector(ix: FleetIndex, r: Rng): Sector {
  const long = r.chance(LONG_SHARE);
  const p = (long && ix.long.sectors.length) || !ix.short.sectors.length ? ix.long : ix.short;
  const x = r.next() * p.weight[p.weight.length - 1]!;
  let lo = 0;
  let hi = p.weight.length - 1;
  while (lo < hi) {
    const m = (lo + hi) >> 1;
    if (p.weight[m]! > x) hi = m;
    else lo = m + 1;
  }
  return p.sectors[lo]!;
}

function makeAirframe(world: World, ix: FleetIndex, seed: number, i: number, taken: Taken): Airframe {
  const r = rng(seed, 'airframe', i);
  const ga = r.chance(GA_SHARE) && ix.gaFields.length > 0;
  if (ga) {
    const home = r.pick(ix.gaFields);
    const perf = r.pick(LIGHT);
    const hex = newHex(world, ix, r, home.iso_country, taken.hexes);
    return {
      index: i,
      hex,
      reg: newReg(world, r, world.codeBlocks.countryOfHex(hex) ?? home.iso_country, taken.regs),
      perf,
      ownOp: null,
      year: 1970 + r.int(50),
      kind: 'ga',
      source: 'generated',
      outs: [],
      backs: [],
      home,
      firstMin: 8 * 60 + r.int(150),
    };
  }
  // a sector with callsigns no other airframe flies yet (a flight number is one aircraft's); a
  // fleet larger than the catalog's sectors allow reuses some
  let sector = pickSector(ix, r);
  let outs: SimRoute[] = [];
  let backs: SimRoute[] = [];
  for (let attempt = 0; attempt < 16; attempt++) {
    if (attempt > 0) sector = pickSector(ix, r);
    const airline = ix.airlines.get(sector.airline)!;
    // the airline's aircraft are based at the end in its own country
    const flip = sector.b.iso_country === airline.country && sector.a.iso_country !== airline.country;
    const [ab, ba] = flip ? [sector.ba, sector.ab] : [sector.ab, sector.ba];
    outs = ab.filter((x) => !taken.callsigns.has(x.callsign)).slice(0, MAX_TRIPS);
    backs = ba.filter((x) => !taken.callsigns.has(x.callsign)).slice(0, MAX_TRIPS);
    if (outs.length && backs.length) break;
    outs = ab.slice(0, MAX_TRIPS);
    backs = ba.slice(0, MAX_TRIPS);
  }
  for (const x of [...outs, ...backs]) taken.callsigns.add(x.callsign);
  const airline = ix.airlines.get(sector.airline)!;
  const fits = fittingTypes(airline.types, sector.nm);
  const firstMin = 5 * 60 + 30 + r.int(270);
  // a real airframe of this airline with a type that reaches, when the registry has a free one
  const fitting = airline.airframes.filter((e) => fits.some((p) => p.type === e.type));
  const free = fitting.filter((e) => !taken.real.has(e.hex));
  const base = { index: i, kind: 'airline' as const, outs, backs, home: null, firstMin };
  if (free.length) {
    const e = r.pick(free);
    taken.real.add(e.hex);
    return { ...base, hex: e.hex, reg: e.reg, perf: perfOf(e.type!)!, ownOp: e.operator, year: e.year, source: 'registry' };
  }
  // a new airframe of a type the airline flies (as often as its registry airframes have it), registered at home
  const type = r.pick(fitting).type!;
  const country = airline.country ?? outs[0]!.org.iso_country;
  const hex = newHex(world, ix, r, country, taken.hexes);
  return {
    ...base,
    hex,
    reg: newReg(world, r, world.codeBlocks.countryOfHex(hex) ?? country, taken.regs),
    perf: perfOf(type)!,
    ownOp: airline.operator,
    year: 2000 + r.int(25),
    source: 'generated',
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

/**
 * a registration in the country's prefix format, checked against the prefix's own pattern and not
 * one already taken (the registry's own or another made-up airframe's); null when none fits
 */
export function newReg(world: World, r: Rng, country: string, taken: Set<string> = new Set()): string | null {
  const prefixes = world.prefixes.filter((p) => p.country === country);
  for (let attempt = 0; attempt < 8; attempt++) {
    for (const p of prefixes) {
      const sep = p.hyphen ? '-' : '';
      const tries =
        p.prefix === 'N'
          ? [`N${digits(r, 3)}${letters(r, 2)}`]
          : [3, 4, 2].map((n) => `${p.prefix}${sep}${letters(r, n)}`).concat([4, 5].map((n) => `${p.prefix}${sep}${digits(r, n)}`));
      for (const reg of tries) {
        if (!p.check.test(reg) || taken.has(reg)) continue;
        taken.add(reg);
        return reg;
      }
    }
  }
  return null;
}
