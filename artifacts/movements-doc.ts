// the movements document of one airport-day (schemas/movements.schema.json): every take-off and
// landing the network heard at the airport on that UTC day, in time order, with the airport's local
// time beside unix seconds, and the day's counts per runway and per UTC hour. pure: the movements
// step (build/steps/movements/) reads the rows, this shapes them.
import { utcOffsetMinutes } from '../lib/localtime.ts';
import type { RouteSource } from './routes-table.ts';

/** one heard take-off or landing, as the movements step reads it from legs_routed */
export interface MovementRow {
  kind: 'takeoff' | 'landing';
  at: number;
  runway: string | null;
  callsign: string | null;
  hex: string;
  reg: string | null;
  type: string | null;
  /** the other end: the destination of a take-off, the origin of a landing (IATA, and its ident) */
  other: string | null;
  other_ident: string | null;
  route_source: RouteSource | null;
  circuit: boolean;
}

export interface MovementsAirport {
  iata: string;
  /** the ICAO code it is also served under, or null */
  icao: string | null;
  /** OurAirports ident, as the flight log and the flights documents name airports */
  ident: string;
  tz: string;
}

/** the counts' key of movements whose runway is not known */
export const UNKNOWN_RUNWAY = 'unknown';

interface Tally {
  takeoffs: number;
  landings: number;
}

/** ISO 8601 local time with the zone's offset at that instant, e.g. 2026-11-20T07:05:00+01:00 */
export function localIso(at: number, tz: string): string {
  const off = utcOffsetMinutes(tz, at);
  const wall = new Date((at + off * 60) * 1000).toISOString().slice(0, 19);
  const abs = Math.abs(off);
  return `${wall}${off < 0 ? '-' : '+'}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}

function movementOf(r: MovementRow, tz: string) {
  const other = r.kind === 'takeoff' ? { dst: r.other, dst_ident: r.other_ident } : { org: r.other, org_ident: r.other_ident };
  return {
    at: r.at,
    local: localIso(r.at, tz),
    kind: r.kind,
    runway: r.runway,
    callsign: r.callsign,
    hex: r.hex,
    reg: r.reg,
    type: r.type,
    ...other,
    route_source: r.route_source,
    circuit: r.circuit,
  };
}

export interface MovementsDoc {
  iata: string;
  icao: string | null;
  ident: string;
  date: string;
  tz: string;
  movements: ReturnType<typeof movementOf>[];
  counts: { takeoffs: number; landings: number; runways: Record<string, Tally>; hours_utc: Tally[] };
  coverage: 'observed';
}

/** A day's document from its rows (any order; at least one, each on `date`, UTC). Ties in time: landings first, then by hex. */
export function movementsDoc(airport: MovementsAirport, date: string, rows: readonly MovementRow[]): MovementsDoc {
  if (rows.length === 0) throw new Error(`movementsDoc ${airport.iata} ${date}: no movements (a day without movements has no document)`);
  const start = Date.parse(`${date}T00:00:00Z`) / 1000;
  const stray = rows.find((r) => r.at < start || r.at >= start + 86400);
  if (stray) throw new Error(`movementsDoc ${airport.iata} ${date}: ${stray.kind} of ${stray.hex} at ${stray.at} is not on that UTC day`);
  const sorted = [...rows].sort(
    (a, b) => a.at - b.at || (a.kind === b.kind ? 0 : a.kind === 'landing' ? -1 : 1) || (a.hex < b.hex ? -1 : a.hex > b.hex ? 1 : 0),
  );
  const runways: Record<string, Tally> = {};
  const hours: Tally[] = Array.from({ length: 24 }, () => ({ takeoffs: 0, landings: 0 }));
  const total: Tally = { takeoffs: 0, landings: 0 };
  for (const r of sorted) {
    const field = r.kind === 'takeoff' ? 'takeoffs' : 'landings';
    const rw = (runways[r.runway ?? UNKNOWN_RUNWAY] ??= { takeoffs: 0, landings: 0 });
    rw[field]++;
    hours[Math.floor((r.at - start) / 3600)]![field]++;
    total[field]++;
  }
  const byName = Object.fromEntries(Object.entries(runways).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  return {
    iata: airport.iata,
    icao: airport.icao,
    ident: airport.ident,
    date,
    tz: airport.tz,
    movements: sorted.map((r) => movementOf(r, airport.tz)),
    counts: { ...total, runways: byName, hours_utc: hours },
    coverage: 'observed',
  };
}
