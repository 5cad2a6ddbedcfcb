// the airframe document (spec 2.5): who the aircraft is (registry first, the log's own reg/type
// where the registry is silent, the state of registration from the hex's code block) and its
// observed legs, newest first, at most 200.
import type { RefView } from './reference-view.ts';
import type { RouteSource } from './routes-table.ts';

export const MAX_LEGS = 200;
/** provenance of fields the flight log (the decoder's database as heard) supplied */
const LOG_SOURCE = 'flight-log';

export interface AirframeLeg {
  /** UTC day of the take-off, or of the first position when the take-off was not heard */
  date: string;
  org: string | null;
  dst: string | null;
  org_ident: string | null;
  dst_ident: string | null;
  callsign: string | null;
  dep: number | null;
  arr: number | null;
  first_seen: number;
  last_seen: number;
  route_source: Exclude<RouteSource, 'catalog'> | null;
  /** for a leg the routes table filled an end of: that entry's route_source (artifacts/ROUTES.md section 4) */
  table_source: RouteSource | null;
  /** the {date} of the /v1/flights/{hex}/{date} document holding this leg: the UTC day of first_seen (docs/api.md "Links between documents") */
  flights_date: string;
}

/** what the flight log says about the airframe as a whole */
export interface LogIdentity {
  /** latest non-null reg / type heard */
  reg: string | null;
  type: string | null;
  /** majority 3-letter prefix of airline-shaped callsigns */
  operator_icao: string | null;
}

interface AirlineInfo {
  icao: string;
  iata: string | null;
  name: string;
  country: string | null;
  /** observed = from operator_icao; registry = from the registry row's airline code */
  source: 'observed' | 'registry';
}

export interface AirframeIdentity {
  hex: string;
  reg: string | null;
  type: string | null;
  type_name: string | null;
  category: string | null;
  operator: string | null;
  operator_icao: string | null;
  year: number | null;
  country: string | null;
  source: string | null;
  airline: AirlineInfo | null;
  /** from the registry row; not on the airframe document (the refdata aircraft document shows it) */
  serial: string | null;
}

export interface AirframeDoc extends Omit<AirframeIdentity, 'serial'> {
  /** where its flights live: /v1/flights/{hex}/{date}, the hex filled in, {date} a leg's flights_date */
  flights_url: string;
  legs: AirframeLeg[] | null;
  /** spec 1 rule 2 */
  coverage: 'observed';
}

/**
 * Registry first (it names its provenance), the log as fallback field by field; `source` names
 * every table that supplied a field, joined by '+', null when nothing is known.
 */
export function airframeIdentity(
  hex: string,
  log: LogIdentity | null,
  ref: Pick<RefView, 'registry' | 'type' | 'airline' | 'countryOfHex' | 'isMilitaryHex'>,
): AirframeIdentity {
  const row = ref.registry(hex);
  const sources: string[] = [];
  if (row && (row.reg || row.type || row.operator || row.year !== null)) sources.push(row.source);
  const reg = row?.reg ?? log?.reg ?? null;
  const type = row?.type ?? log?.type ?? null;
  if ((!row?.reg && log?.reg) || (!row?.type && log?.type)) sources.push(LOG_SOURCE);
  const info = type ? ref.type(type) : null;
  const operator_icao = log?.operator_icao ?? null;
  // observation outranks: the airline flying it now, else the registry's airline code. a state
  // aircraft (a hex of a military block) is given none: a designator it flies under is no civil
  // airline (the NATO C-17 477ff3 under BRK, issue 43); operator_icao still says what was heard
  let airline: AirlineInfo | null = null;
  const state = ref.isMilitaryHex(hex);
  const observed = !state && operator_icao ? ref.airline(operator_icao) : null;
  const registered = !state && !observed && row?.airline && /^[A-Z]{3}$/.test(row.airline) ? ref.airline(row.airline) : null;
  const a = observed ?? registered;
  if (a) airline = { icao: a.icao, iata: a.iata, name: a.name, country: a.country, source: observed ? 'observed' : 'registry' };
  return {
    hex,
    reg,
    type,
    type_name: info?.name ?? null,
    category: info?.category ?? null,
    operator: row?.operator ?? null,
    operator_icao,
    year: row?.year ?? null,
    country: ref.countryOfHex(hex),
    source: sources.length ? sources.join('+') : null,
    airline,
    serial: row?.serial ?? null,
  };
}

const newestFirst = (a: AirframeLeg, b: AirframeLeg) => b.first_seen - a.first_seen || b.last_seen - a.last_seen;

/** `legs` null = the log artifact is not loaded; [] = not seen in the window */
export function airframeDoc(id: AirframeIdentity, legs: AirframeLeg[] | null): AirframeDoc {
  const { serial: _serial, ...rest } = id;
  return { ...rest, flights_url: flightsUrl(id.hex), legs: legs === null ? null : [...legs].sort(newestFirst).slice(0, MAX_LEGS), coverage: 'observed' };
}

/**
 * The airframe document as JSON text, its legs given as JSON text already in document form (newest
 * first, at most MAX_LEGS, fields in AirframeLeg order, no spaces: what DuckDB's to_json makes in
 * build/steps/airframes/build.ts). The same bytes as JSON.stringify(airframeDoc(id, JSON.parse(legs)))
 * without parsing the legs and writing them again: that was most of an airframe's cost.
 */
export function airframeJson(id: AirframeIdentity, legsJson: string): string {
  return `${airframeHead(id)}${legsJson}${AIRFRAME_TAIL}`;
}

/** the URL template of an airframe's flights documents (schemas/flights.schema.json) */
const flightsUrl = (hex: string) => `/v1/flights/${hex}/{date}`;

/** the document's text before its legs: the identity without `serial`, its flights_url, then `"legs":` */
function airframeHead(id: AirframeIdentity): string {
  const { serial: _serial, ...rest } = id;
  const head = JSON.stringify(rest); // never empty: hex is always there
  return `${head.slice(0, -1)},"flights_url":${JSON.stringify(flightsUrl(id.hex))},"legs":`;
}

const AIRFRAME_TAIL = ',"coverage":"observed"}';
const TAIL_BYTES = Buffer.from(AIRFRAME_TAIL);

/**
 * airframeJson as UTF-8 bytes, the legs given as the UTF-8 bytes of their JSON text: the document
 * is assembled in one buffer of its own (it can be moved to a write worker, not copied) and the
 * legs never become a JavaScript string (a year's airframes made the garbage collector the main
 * thread's biggest cost when they did).
 */
export function airframeBytes(id: AirframeIdentity, legsJson: Uint8Array): Uint8Array {
  const head = Buffer.from(airframeHead(id));
  const out = new Uint8Array(head.length + legsJson.length + TAIL_BYTES.length);
  out.set(head, 0);
  out.set(legsJson, head.length);
  out.set(TAIL_BYTES, head.length + legsJson.length);
  return out;
}

/** the bytes of an airframe document around its legs: what airframeBytes puts before and after them */
export interface AirframeFrame {
  head: Buffer;
  tail: Buffer;
}

export const airframeFrame = (id: AirframeIdentity): AirframeFrame => ({ head: Buffer.from(airframeHead(id)), tail: TAIL_BYTES });

/**
 * The legs of an airframe document as airframeBytes wrote it (the bytes between its head and its
 * tail, `[...]`), when it is the document of the identity `frame` was made from: null when its head
 * or tail is not what that identity and this code would write (a document of other inputs, or of
 * other code).
 */
export function airframeLegsOf(doc: Uint8Array, frame: AirframeFrame): Uint8Array | null {
  const { head, tail } = frame;
  const end = doc.length - tail.length;
  if (end < head.length + 2 || !Buffer.from(doc.buffer, doc.byteOffset, head.length).equals(head)) return null;
  if (!Buffer.from(doc.buffer, doc.byteOffset + end, tail.length).equals(tail)) return null;
  if (doc[head.length] !== 0x5b || doc[end - 1] !== 0x5d) return null; // [ ... ]
  return doc.subarray(head.length, end);
}

/** true when the document says anything at all (else the hex is not worth a document) */
