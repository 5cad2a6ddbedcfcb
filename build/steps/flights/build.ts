// builder: the flights documents (artifacts/flights-doc.ts), one per airframe and UTC day of the
// window, a day at a time (its legs, routed, joined to their positions and their tracks). a legs
// table without the newer columns (positions, runways, circuit: the tests' narrow tables) reads them
// as null; the log itself always has them (build/log/read.ts).
import type { BuildContext } from '../context.ts';
import { keys } from '../../../artifacts/keys.ts';
import { flightsDoc, type FlightPoint, type FlightRow } from '../../../artifacts/flights-doc.ts';
import { allRows, columnsOf } from '../duck.ts';
import { daysOf, daysToWrite, previousFor } from '../reuse.ts';
import { FLIGHTS_STEP } from './step.ts';
import { dayTracks, trackKey } from './tracks.ts';

/** log columns the flights read beside legs_routed: null where the log (or a test's table) lacks one */
const LEG_EXTRAS = ['dep_lat', 'dep_lon', 'arr_lat', 'arr_lon', 'dep_runway', 'arr_runway', 'distance_km', 'max_alt_ft', 'circuit'] as const;

export async function buildFlights(ctx: BuildContext): Promise<void> {
  const db = ctx.db;
  const have = (await columnsOf(db, 'legs'))!;
  const hasPoints = (await columnsOf(db, 'points')) !== null;
  const extras = LEG_EXTRAS.map((c) => (have.has(c) ? `l."${c}"` : c === 'circuit' ? 'coalesce(r.org_ident = r.dst_ident, false)' : 'NULL') + ` AS "${c}"`);
  const days = (await allRows<{ day: string }>(db, 'SELECT DISTINCT day::VARCHAR AS day FROM legs_routed ORDER BY 1')).map((r) => r.day);
  const prev = previousFor(ctx, FLIGHTS_STEP.reuse.closedDays);
  const write = daysToWrite(days, 'dir' in prev && prev.days ? daysOf(FLIGHTS_STEP.reuse.closedDays, prev.days).added : null);
  const count = (k: string) => (ctx.counts[`flights.${k}`] = (ctx.counts[`flights.${k}`] ?? 0) + 1);
  ctx.progress.start('flights: airframe-days', days.length);
  for (const day of days) {
    const rebuild = write.has(day);
    const rows = await allRows<FlightRow & { hex: string }>(
      db,
      `SELECT r.hex, r.callsign, r.reg, r.type, r.first_ts, r.last_ts, r.dep_ts, r.arr_ts, r.org, r.dst, r.org_ident, r.dst_ident,
         r.route_source, ${extras.join(', ')}
       FROM legs_routed r JOIN legs l ON l.hex = r.hex AND l.first_ts = r.first_ts AND l.day = r.day
       WHERE r.day = DATE '${day}' ORDER BY r.hex, r.first_ts`,
    );
    const tracks = rebuild && hasPoints ? await dayTracks(db, day) : new Map<string, FlightPoint[]>();
    for (let i = 0; i < rows.length; ) {
      let j = i;
      while (j < rows.length && rows[j]!.hex === rows[i]!.hex) j++;
      const hex = rows[i]!.hex;
      const key = keys.flights(hex, day);
      if (!rebuild && ctx.writer.keep(key)) count('kept');
      else {
        const legs = rows.slice(i, j).map((r) => ({ ...r, circuit: Boolean(r.circuit), track: tracks.get(trackKey(hex, r.first_ts)) ?? [] }));
        ctx.writer.put(key, flightsDoc(hex, day, legs));
        count('documents');
      }
      i = j;
    }
    ctx.progress.tick();
    await ctx.writer.drain();
  }
  ctx.progress.done(`${ctx.counts['flights.documents'] ?? 0} written, ${ctx.counts['flights.kept'] ?? 0} kept`);
}
