// the simulator's view of the shipped reference data (data/ref): airports with runways, the
// catalog's two-airport airline routes (only callsigns that are a real IATA flight number, grouped
// into sectors flown both ways), the airline table, the registry, ICAO address blocks and
// registration prefixes. adapter (reads files) + pure indexing; parsing reuses lib/reference's parsers.
import { gunzipSync } from 'node:zlib';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAirports, type Airport } from '../lib/reference/airports.ts';
import { parseRunways } from '../lib/reference/runways.ts';
import { buildLocator, type AirportLocator } from '../lib/reference/locate.ts';
import { parseCatalog, type CatalogRow } from '../lib/reference/catalog.ts';
import { parseRegistry, type RegistryEntry } from '../lib/reference/registry.ts';
import { parseCodeBlocks, buildCodeBlocks, type CodeBlock, type CodeBlocks } from '../lib/reference/codeblocks.ts';
import { readCsv } from '../lib/reference/csv.ts';
import { mergeAirlines, parseOperators, parseVrsAirlines, type AirlineTable } from '../lib/reference/airlines.ts';
import { distanceNm } from '../lib/geo.ts';

/** a runway end: its threshold and its OurAirports designator (27R; null when the row has none) */
export interface SimRunwayEnd {
  lat: number;
  lon: number;
  ident: string | null;
}

interface Runway {
  a: SimRunwayEnd;
  b: SimRunwayEnd;
}

/** an airport the simulator can fly from: open, with at least one located runway */
export interface SimAirport extends Airport {
  runways: Runway[];
}

export interface SimRoute {
  callsign: string;
  airline: string;
  org: SimAirport;
  dst: SimAirport;
  nm: number;
}

/**
 * one airline's city pair flown both ways: every catalog callsign of each direction, by flight
 * number. `a` is the end the airline's aircraft are based at (see sim/fleet.ts).
 */
export interface Sector {
  airline: string;
  a: SimAirport;
  b: SimAirport;
  nm: number;
  ab: SimRoute[];
  ba: SimRoute[];
}

interface RegPrefix {
  prefix: string;
  country: string;
  hyphen: boolean;
  check: RegExp;
}

export interface World {
  airports: SimAirport[];
  /** every open airport with an IATA code (the log fast path spreads legs over all of them) */
  iata: Airport[];
  byIdent: Map<string, SimAirport>;
  /** catalog routes with two usable airline airports, and the callsign flying the way back when the catalog has one */
  routes: { out: SimRoute; back: SimRoute | null }[];
  /** the same routes as city pairs flown both ways by one airline, with all their callsigns */
  sectors: Sector[];
  airlines: AirlineTable;
  registry: RegistryEntry[];
  blocks: CodeBlock[];
  codeBlocks: CodeBlocks;
  prefixes: RegPrefix[];
  locator: AirportLocator;
}

export interface WorldOptions {
  /** data/ref */
  ref: string;
  /** read only the first N catalog rows (tests: the catalog is 618k rows, ~7 s to parse); 0 = all */
  routeRows: number;
}

const read = (ref: string, path: string) => {
  const raw = readFileSync(join(ref, path));
  return path.endsWith('.gz') ? gunzipSync(raw) : raw;
};

/** the first n data lines of a csv (with its header) */
function headLines(buf: Buffer, n: number): Buffer {
  if (n <= 0) return buf;
  let at = 0;
  for (let i = 0; i <= n && at >= 0; i++) at = buf.indexOf(10, at + 1);
  return at < 0 ? buf : buf.subarray(0, at + 1);
}

export function loadWorld(opts: WorldOptions): World {
  const { airports } = parseAirports(read(opts.ref, 'ourairports/airports.csv.gz'));
  const { runways } = parseRunways(read(opts.ref, 'ourairports/runways.csv.gz'));
  const rwByIdent = new Map<string, Runway[]>();
  for (const r of runways) {
    if (r.closed || !r.le || !r.he) continue;
    // a runway shorter than ~500 m is a strip the locator may not resolve cleanly
    if (distanceNm(r.le.lat, r.le.lon, r.he.lat, r.he.lon) < 0.3) continue;
    let list = rwByIdent.get(r.airport_ident);
    if (!list) rwByIdent.set(r.airport_ident, (list = []));
    list.push({ a: { lat: r.le.lat, lon: r.le.lon, ident: r.le_ident }, b: { lat: r.he.lat, lon: r.he.lon, ident: r.he_ident } });
  }
  const usable: SimAirport[] = [];
  const byIdent = new Map<string, SimAirport>();
  const byCode = new Map<string, SimAirport>();
  for (const a of airports) {
    const rws = rwByIdent.get(a.ident);
    if (!rws || !['large_airport', 'medium_airport', 'small_airport'].includes(a.kind)) continue;
    const s: SimAirport = { ...a, runways: rws };
    usable.push(s);
    byIdent.set(a.ident, s);
    if (a.icao && !byCode.has(a.icao)) byCode.set(a.icao, s);
  }
  const catalog = parseCatalog(headLines(read(opts.ref, 'vrs-standing-data/routes.csv.gz'), opts.routeRows)).rows;
  const airlines = mergeAirlines(
    parseVrsAirlines(read(opts.ref, 'vrs-standing-data/airlines.csv')).rows,
    parseOperators(read(opts.ref, 'flightgazer/operators.csv')).rows,
  );
  const direct = directRoutes(catalog, byCode, airlines);
  const blocks = parseCodeBlocks(read(opts.ref, 'vrs-standing-data/code-blocks.csv')).rows;
  return {
    airports: usable,
    iata: airports.filter((a) => a.iata && a.kind !== 'closed'),
    byIdent,
    routes: pairRoutes(direct),
    sectors: groupSectors(direct),
    airlines,
    registry: parseRegistry(read(opts.ref, 'vrs-standing-data/aircraft.csv.gz')).rows,
    blocks,
    codeBlocks: buildCodeBlocks(blocks),
    prefixes: parsePrefixes(read(opts.ref, 'vrs-standing-data/registration-prefixes.csv')),
    locator: buildLocator(airports, runways),
  };
}

const AIRLINE_KINDS = new Set(['large_airport', 'medium_airport']);

const FLIGHT_NO = /^[1-9][0-9]{0,3}$/;

/**
 * two-airport catalog rows between airline airports whose callsign is a commercial flight number:
 * the airline's ICAO code and digits only (`SWR318`, not the ATC-style `AFR31GR`) that the product
 * turns into an IATA flight number (`LX318`) as boards show it, and not a positioning flight.
 */
function directRoutes(rows: readonly CatalogRow[], byCode: ReadonlyMap<string, SimAirport>, airlines: AirlineTable): SimRoute[] {
  const direct: SimRoute[] = [];
  for (const r of rows) {
    if (r.airports.length !== 2 || !/^[A-Z]{3}$/.test(r.airline) || !r.callsign.startsWith(r.airline) || !FLIGHT_NO.test(r.callsign.slice(3))) continue;
    if (airlines.flightNumberFromCallsign(r.callsign) === null) continue;
    const org = byCode.get(r.airports[0]!);
    const dst = byCode.get(r.airports[1]!);
    if (!org || !dst || org === dst || !org.iata || !dst.iata) continue;
    if (!AIRLINE_KINDS.has(org.kind) || !AIRLINE_KINDS.has(dst.kind)) continue;
    const nm = distanceNm(org.lat, org.lon, dst.lat, dst.lon);
    // beyond the longest scheduled flights (SIN-JFK ~8,300 nm) the catalog row is a data error
    if (nm < 40 || nm > 8300) continue;
    direct.push({ callsign: r.callsign, airline: r.airline, org, dst, nm });
  }
  return direct;
}

/** each route with its way back when listed (the first catalog callsign flying it) */
function pairRoutes(direct: readonly SimRoute[]): { out: SimRoute; back: SimRoute | null }[] {
  const byLeg = new Map<string, SimRoute>();
  for (const r of direct) {
    const k = `${r.airline}|${r.org.ident}|${r.dst.ident}`;
    if (!byLeg.has(k)) byLeg.set(k, r);
  }
  return direct.map((out) => ({ out, back: byLeg.get(`${out.airline}|${out.dst.ident}|${out.org.ident}`) ?? null }));
}

const flightNo = (r: SimRoute) => Number(r.callsign.slice(3));

/** routes grouped by airline and city pair, kept when the catalog has both directions */
function groupSectors(direct: readonly SimRoute[]): Sector[] {
  const byLeg = new Map<string, SimRoute[]>();
  for (const r of direct) {
    const k = `${r.airline}|${r.org.ident}|${r.dst.ident}`;
    let l = byLeg.get(k);
    if (!l) byLeg.set(k, (l = []));
    if (!l.some((x) => x.callsign === r.callsign)) l.push(r);
  }
  const out: Sector[] = [];
  for (const [k, ab] of byLeg) {
    const [airline, o, d] = k.split('|') as [string, string, string];
    if (o > d) continue; // each pair once
    const ba = byLeg.get(`${airline}|${d}|${o}`);
    if (!ba) continue;
    ab.sort((x, y) => flightNo(x) - flightNo(y));
    ba.sort((x, y) => flightNo(x) - flightNo(y));
    out.push({ airline, a: ab[0]!.org, b: ab[0]!.dst, nm: ab[0]!.nm, ab, ba });
  }
  return out;
}

function parsePrefixes(input: Buffer | string): RegPrefix[] {
  return readCsv('vrs-standing-data/registration-prefixes.csv', input, ['Prefix', 'CountryISO2', 'HasHyphen', 'DecodeFullRegex'], (get) => {
    let check: RegExp;
    try {
      check = new RegExp(`^(?:${get('DecodeFullRegex')})$`);
    } catch {
      return { prefix: '', country: '', hyphen: false, check: /^$/ };
    }
    return { prefix: get('Prefix'), country: get('CountryISO2').toUpperCase(), hyphen: get('HasHyphen') === '1', check };
  }).rows.filter((p) => p.prefix !== '');
}
