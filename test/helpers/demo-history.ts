// the demo's four history targets (issue 43) counted on a built tree and its log, for
// bench/demo-history.ts (prints them) and test/sim/demo.slow.test.ts (asserts them on its `make demo` tree):
// 1. fixed-wing legs that begin or end at a heliport, seaplane base or balloonport (the log's ends,
//    the aircraft's class from its type: lib/reference/aircraft-class.ts);
// 2. legs with route_source observed missing from either airport's board (the departure board of the
//    origin with the callsign to that destination, the arrivals of the destination from that origin);
// 3. legs with both ends heard at a field and route_source null;
// 4. airframes whose airline's name and country come from different rows: the pair must be one row of
//    one source (a VRS row has no country; a FlightGazer row's company or friendly name with its
//    country), or a VRS name with the country of a FlightGazer row that names the same operator
//    (lib/reference/airlines.ts sameOperator, the rule in docs/api.md).
// reads the files directly (a gzipped JSON object per key, artifacts/keys.ts), never the server.
// buildDemoHistory makes such a tree as the demo does (sim/demo.ts): sim history, then the nightly (bench --build).
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { openLog } from '../../build/log/read.ts';
import { currentVersion } from '../../artifacts/tree.ts';
import { classOfType, UNKNOWN_CLASS, type AircraftClass } from '../../lib/reference/aircraft-class.ts';
import { parseAirports } from '../../lib/reference/airports.ts';
import { parseOperators, parseVrsAirlines, sameOperator, type Operator } from '../../lib/reference/airlines.ts';
import { countryCodes, parseCountries, parseVrsCountries } from '../../lib/reference/countries.ts';
import { readRefFile } from '../../lib/reference/index.ts';
import { installed } from '../../lib/install.ts';
import { buildTypes, parseModelTypes } from '../../lib/reference/types.ts';
import type { FlightsDoc } from '../../artifacts/flights-doc.ts';

/** what the four checks need of the reference data */
export interface HistoryRef {
  /** OurAirports kind of an ident (heliport, seaplane_base, ...), null when unknown */
  kindOf(ident: string): string | null;
  classOf(type: string | null): AircraftClass;
  /** whether an airline's name and country (alpha-2 or null) are one row's (see the header) */
  oneRow(icao: string, name: string, country: string | null): boolean;
}

export interface HistoryCheck {
  legs: number;
  fixedWingLegs: number;
  /** 1 */
  fixedWingAtPad: number;
  observedLegs: number;
  /** 2: observed legs missing from the origin's board or from the destination's arrivals */
  missingFromBoard: number;
  missingFromDepartures: number;
  missingFromArrivals: number;
  /** of the missing, those whose callsign flew that route on at least 2 days (the board's minDays,
   * artifacts/board.ts: a board row is a typical slot, so a flight heard once is on no board by design) */
  missingFlownTwice: number;
  /** observed legs whose callsign flew that route on at least 2 days */
  observedFlownTwice: number;
  bothHeardAtFields: number;
  /** 3 */
  bothHeardNull: number;
  airframesWithAirline: number;
  /** 4 */
  mixedAirline: number;
  /** a few examples of each failure, for the report */
  examples: string[];
}

const PADS_FOR: Record<string, readonly string[]> = {
  land: ['heliport', 'seaplane_base', 'balloonport'],
  amphibian: ['heliport', 'balloonport'],
  sea: ['heliport', 'balloonport'],
};
const EXAMPLES_EACH = 5;

/** runs `node --import tsx <script> args` from the install folder; its progress on our stderr */
function runScript(script: string, args: string[]): Promise<void> {
  return new Promise((ok, fail) => {
    const child = spawn(process.execPath, ['--import', 'tsx', installed(script), ...args], { cwd: installed('.'), stdio: ['ignore', 'ignore', 'inherit'] });
    child.on('error', fail);
    child.on('exit', (code, signal) => (code === 0 ? ok() : fail(new Error(`${script} exited ${code ?? signal}; see its output above`))));
  });
}

/** Simulates `days` of history ending yesterday (UTC) into dir/globe_history and runs the nightly into
 * dir/log and dir/artifacts, with the demo's steps and flags (sim/demo.ts); simArgs: seed, aircraft, faults. */
export async function buildDemoHistory(o: { dir: string; days: number; ref: string; simArgs: string[] }): Promise<void> {
  const p = (name: string) => join(o.dir, name);
  const first = new Date((Math.floor(Date.now() / 86400000) - o.days) * 86400000).toISOString().slice(0, 10);
  await runScript('sim/cli.ts', ['history', '--days', String(o.days), '--start', first, '--out', p('globe_history'), '--ref', o.ref, ...o.simArgs]);
  await runScript('build/nightly.ts', ['--history', p('globe_history'), '--log', p('log'), '--artifacts', p('artifacts'), '--ref', o.ref, '--bundles', '']);
}

/** The checks' reference data from a data/ref folder (the demo's, or test/fixtures/ref-small). */
export async function historyRef(dir: string): Promise<HistoryRef> {
  const read = (p: string) => readRefFile(dir, p);
  const [airportsB, airlinesB, operatorsB, typesB, countriesB, vrsCountriesB] = await Promise.all([
    read('ourairports/airports.csv.gz'),
    read('vrs-standing-data/airlines.csv'),
    read('flightgazer/operators.csv'),
    read('vrs-standing-data/model-type.csv'),
    read('ourairports/countries.csv'),
    read('vrs-standing-data/countries.csv'),
  ]);
  const kinds = new Map(parseAirports(airportsB).airports.map((a) => [a.ident, a.kind]));
  const types = buildTypes(parseModelTypes(typesB).rows);
  const code = countryCodes([...parseCountries(countriesB).rows, ...parseVrsCountries(vrsCountriesB).rows]);
  const vrs = new Map<string, string[]>();
  for (const r of parseVrsAirlines(airlinesB).rows) if (r.icao) vrs.set(r.icao, [...(vrs.get(r.icao) ?? []), r.name]);
  const ops = new Map<string, Operator[]>();
  for (const o of parseOperators(operatorsB).rows) ops.set(o.icao, [...(ops.get(o.icao) ?? []), o]);
  return {
    kindOf: (ident) => kinds.get(ident) ?? null,
    classOf: (type) => (type ? classOfType(types.get(type.toUpperCase())) : UNKNOWN_CLASS),
    oneRow(icao, name, country) {
      const fg = ops.get(icao) ?? [];
      const fgOwn = fg.some((o) => (o.company === name || o.friendly === name) && (country === null || (o.country !== null && code(o.country) === country)));
      if (fgOwn) return true;
      const names = vrs.get(icao) ?? [];
      if (country === null) return names.includes(name);
      return names.includes(name) && fg.some((o) => o.country !== null && code(o.country) === country && sameOperator(name, o));
    },
  };
}

/** a flight of a published /v1/flights document, as its builder writes it */
type Flight = FlightsDoc['flights'][number];
interface Board {
  iata: string;
  board: { callsign: string | null; dst: string }[];
  arrivals: { callsign: string | null; org: string }[];
}
interface AirframeAirline {
  hex: string;
  airline: { icao: string; name: string; country: string | null } | null;
}

/** the gzipped JSON objects under one key folder of a version (not its subfolders) */
function objectsUnder(dir: string, folder: string): { key: string; doc: unknown }[] {
  const at = join(dir, folder);
  let names: string[];
  try {
    names = readdirSync(at);
  } catch {
    return [];
  }
  return names
    .filter((n) => n.endsWith('.gz'))
    .map((n) => ({ key: `${folder}/${n.slice(0, -3)}`, doc: JSON.parse(gunzipSync(readFileSync(join(at, n))).toString('utf8')) }));
}

/** Counts the four targets on the current version of `artifacts` and the log in `log`. */
export async function checkHistory(artifacts: string, log: string, ref: HistoryRef): Promise<HistoryCheck> {
  const v = currentVersion(artifacts);
  if (!v) throw new Error(`${artifacts}: nothing published (run the nightly build first)`);
  const out: HistoryCheck = {
    legs: 0,
    fixedWingLegs: 0,
    fixedWingAtPad: 0,
    observedLegs: 0,
    missingFromBoard: 0,
    missingFromDepartures: 0,
    missingFromArrivals: 0,
    missingFlownTwice: 0,
    observedFlownTwice: 0,
    bothHeardAtFields: 0,
    bothHeardNull: 0,
    airframesWithAirline: 0,
    mixedAirline: 0,
    examples: [],
  };
  const counts = new Map<string, number>();
  const example = (kind: string, line: string) => {
    const n = counts.get(kind) ?? 0;
    counts.set(kind, n + 1);
    if (n < EXAMPLES_EACH) out.examples.push(`${kind}: ${line}`);
  };
  // 1: every leg of the log, where the ends were placed
  const db = await openLog(log);
  try {
    for (const r of await db.rows('SELECT hex, callsign, type, org, dst, day::VARCHAR AS day FROM legs')) {
      out.legs++;
      const pads = PADS_FOR[ref.classOf(r.type as string | null).surface];
      if (!pads) continue;
      out.fixedWingLegs++;
      const bad = [r.org, r.dst].find((e) => typeof e === 'string' && pads.includes(ref.kindOf(e) ?? ''));
      if (bad !== undefined) {
        out.fixedWingAtPad++;
        example(
          'fixed-wing at a pad',
          `${r.hex} ${r.callsign ?? '-'} ${r.type} ${r.day} ${r.org ?? '-'}->${r.dst ?? '-'} (${bad}: ${ref.kindOf(bad as string)})`,
        );
      }
    }
  } finally {
    db.close();
  }
  // 2, 3: the published flights against the published boards
  const boards = new Map<string, Board>();
  for (const { doc } of objectsUnder(v.dir, 'v1/airports')) {
    const b = doc as Board;
    if (b.iata) boards.set(b.iata, b);
  }
  const days = new Map<string, Set<string>>();
  const missing: string[] = [];
  for (const hexDir of readdirSync(join(v.dir, 'v1/flights'), { withFileTypes: true })) {
    if (!hexDir.isDirectory()) continue;
    for (const { key, doc } of objectsUnder(v.dir, `v1/flights/${hexDir.name}`)) {
      for (const f of (doc as { flights: Flight[] }).flights) {
        if (f.departure && f.arrival && f.org_ident && f.dst_ident) {
          out.bothHeardAtFields++;
          if (f.route_source === null) {
            out.bothHeardNull++;
            example('both ends heard, route_source null', `${key} ${f.callsign ?? '-'} ${f.org_ident}->${f.dst_ident}`);
          }
        }
        if (f.route_source !== 'observed' || !f.callsign || !f.org || !f.dst || f.org === f.dst) continue;
        out.observedLegs++;
        const route = `${f.callsign} ${f.org} ${f.dst}`;
        days.set(route, (days.get(route) ?? new Set()).add(key.slice(-10)));
        const dep = boards.get(f.org)?.board.some((r) => r.callsign === f.callsign && r.dst === f.dst) ?? false;
        const arr = boards.get(f.dst)?.arrivals.some((r) => r.callsign === f.callsign && r.org === f.org) ?? false;
        if (!dep) out.missingFromDepartures++;
        if (!arr) out.missingFromArrivals++;
        if (!dep || !arr) {
          out.missingFromBoard++;
          missing.push(route);
          example(
            'observed, not on a board',
            `${key} ${f.callsign} ${f.org}->${f.dst}${dep ? '' : ` (not on ${f.org}'s board)`}${arr ? '' : ` (not in ${f.dst}'s arrivals)`}`,
          );
        }
      }
    }
  }
  out.missingFlownTwice = missing.filter((m) => days.get(m)!.size >= 2).length;
  for (const d of days.values()) if (d.size >= 2) out.observedFlownTwice += d.size;
  // 4: each airframe's airline
  for (const { doc } of objectsUnder(v.dir, 'v1/airframes')) {
    const a = (doc as AirframeAirline).airline;
    if (!a) continue;
    out.airframesWithAirline++;
    if (!ref.oneRow(a.icao, a.name, a.country)) {
      out.mixedAirline++;
      example('airline from two rows', `${(doc as AirframeAirline).hex} ${a.icao} "${a.name}" ${a.country ?? 'null'}`);
    }
  }
  return out;
}
