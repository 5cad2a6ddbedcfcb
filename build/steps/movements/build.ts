// builder: the movements documents (artifacts/movements-doc.ts), one per served airport
// (airports/served.ts) and UTC day of the log, a day at a time: the heard take-offs and landings
// of that day's legs and the day before's (a flight that lands after midnight), routed. written
// under the IATA code and again under the ICAO code (same bytes), as the airport document is.
import type { BuildContext } from '../context.ts';
import { keys } from '../../../artifacts/keys.ts';
import { movementsDoc, type MovementRow, type MovementsAirport } from '../../../artifacts/movements-doc.ts';
import { allRows, columnsOf } from '../duck.ts';
import { daysOf, daysToWrite, previousFor } from '../reuse.ts';
import { servedAirports } from '../airports/served.ts';
import { MOVEMENTS_STEP } from './step.ts';

/** a day's take-offs and landings at known airports, on that UTC day; `runway(end)` and `circuit` are SQL over legs l and legs_routed r */
function movementsSql(day: string, runway: (end: 'dep' | 'arr') => string, circuit: string): string {
  const side = (kind: string, at: string, here: string, other: string, otherIdent: string, end: 'dep' | 'arr') => `
    SELECT '${kind}' AS kind, r.${at} AS "at", r.${here} AS ident, ${runway(end)} AS runway, r.callsign, r.hex, r.reg, r.type,
      r.${other} AS other, r.${otherIdent} AS other_ident, r.route_source, ${circuit} AS circuit
    FROM legs_routed r JOIN legs l ON l.hex = r.hex AND l.first_ts = r.first_ts AND l.day = r.day
    WHERE r.day BETWEEN DATE '${day}' - 1 AND DATE '${day}' AND r.${here} IS NOT NULL AND r.${at} IS NOT NULL`;
  const start = Date.parse(`${day}T00:00:00Z`) / 1000;
  const takeoffs = side('takeoff', 'dep_ts', 'org_ident', 'dst', 'dst_ident', 'dep');
  const landings = side('landing', 'arr_ts', 'dst_ident', 'org', 'org_ident', 'arr');
  return `SELECT * FROM (${takeoffs} UNION ALL ${landings})
    WHERE "at" >= ${start} AND "at" < ${start + 86400} ORDER BY ident, "at", kind, hex`;
}

export async function buildMovements(ctx: BuildContext): Promise<void> {
  const db = ctx.db;
  const have = (await columnsOf(db, 'legs'))!;
  const runway = (end: 'dep' | 'arr') => (have.has(`${end}_runway`) ? `l."${end}_runway"` : 'NULL');
  const circuit = have.has('circuit') ? 'coalesce(l.circuit, false)' : 'coalesce(r.org_ident = r.dst_ident, false)';
  const served = new Map<string, MovementsAirport & { icaoKey: string | null }>();
  for (const a of servedAirports(ctx)) served.set(a.ident, { iata: a.iata, icao: a.icaoKey, ident: a.ident, tz: a.tz, icaoKey: a.icaoKey });
  const days = (await allRows<{ day: string }>(db, 'SELECT DISTINCT day::VARCHAR AS day FROM legs_routed ORDER BY 1')).map((r) => r.day);
  const prev = previousFor(ctx, MOVEMENTS_STEP.reuse.closedDays);
  const write = daysToWrite(days, 'dir' in prev && prev.days ? daysOf(MOVEMENTS_STEP.reuse.closedDays, prev.days).added : null);
  const count = (k: string) => (ctx.counts[`movements.${k}`] = (ctx.counts[`movements.${k}`] ?? 0) + 1);
  ctx.progress.start('movements: airport-days', days.length);
  for (const day of days) {
    const rebuild = write.has(day);
    const rows = await allRows<MovementRow & { ident: string }>(db, movementsSql(day, runway, circuit));
    for (let i = 0; i < rows.length; ) {
      let j = i;
      while (j < rows.length && rows[j]!.ident === rows[i]!.ident) j++;
      const airport = served.get(rows[i]!.ident);
      if (airport) {
        const key = keys.movements(airport.iata, day);
        const icaoKey = airport.icaoKey === null ? null : keys.movements(airport.icaoKey, day);
        // a closed day keeps its objects; a spelling the previous build lacks is built again
        const kept = !rebuild && ctx.writer.keep(key);
        const keptIcao = icaoKey !== null && !rebuild && ctx.writer.keep(icaoKey);
        if (kept && (icaoKey === null || keptIcao)) count('kept');
        else {
          const { icaoKey: _, ...ref } = airport;
          const doc = movementsDoc(
            ref,
            day,
            rows.slice(i, j).map(({ ident: _i, ...m }) => ({ ...m, circuit: Boolean(m.circuit) })),
          );
          const json = JSON.stringify(doc);
          if (!kept) ctx.writer.putJson(key, json, doc);
          if (icaoKey !== null && !keptIcao) ctx.writer.putBytes(icaoKey, json);
          count('documents');
        }
      }
      i = j;
    }
    ctx.progress.tick();
    await ctx.writer.drain();
  }
  ctx.progress.done(`${ctx.counts['movements.documents'] ?? 0} written, ${ctx.counts['movements.kept'] ?? 0} kept`);
}
