// builder of /v1/airports/{code}: one document per airport with an IATA code, written under its
// IATA code and again under its ICAO code (same bytes), so object storage or a CDN answers both
// spellings without logic. aggregation runs in DuckDB (airports/sql.ts); documents are pure
// (artifacts/airport-doc.ts). runs after the routes builder (it reads the routes table when present).
// a night that reuses the previous build aggregates and builds only the airports airports/changed.ts
// names; the others keep their documents unbuilt.
import { assertValid } from '../../../schemas/index.ts';
import { airportDocument } from '../../../artifacts/airport-doc.ts';
import { keys } from '../../../artifacts/keys.ts';
import type { RoutesTable } from '../../../artifacts/routes-table.ts';
import type { BuildContext, RefAirports, RoutedLegs } from '../context.ts';
import { CHANGED_IDENTS, changedAirports } from './changed.ts';
import { AIRPORT_COUNTS, airportRoutes, airportSlots, airportTotals, boardStart, loadMixTables, routeBlockMinutes } from './sql.ts';
import { prepareCounts, saveCounts } from '../counts-fold.ts';
import { readTimetables } from './timetables.ts';
import { servedAirports } from './served.ts';
import { AIRPORTS_STEP, COUNTS_FAMILY } from './step.ts';

/** `legs`: the routes step's table in DuckDB, to find the airports whose boards its changes reach (without it every airport is built) */
export async function buildAirports(ctx: BuildContext, routes: RoutesTable, _airports: RefAirports, legs?: RoutedLegs): Promise<void> {
  const ref = ctx.ref;
  const airports = servedAirports(ctx);

  // an increment: only the airports whose documents can have changed (airports/changed.ts)
  let changed: Set<string> | null = null;
  if (ctx.archiveThrough && legs && ctx.reuse) {
    ctx.progress.start('airports: changed', 0);
    changed = await changedAirports(ctx, ctx.db, legs);
    ctx.progress.done(changed ? `${changed.size} IATA codes with legs in the changed days or a changed route` : 'not known: every airport is built');
  }
  const log = ctx.archiveThrough ? await aggregate(ctx, legs ?? null, changed ? CHANGED_IDENTS : undefined) : null;
  if (changed) await ctx.db.run(`DROP TABLE ap_changed`);
  const timetables = readTimetables(ctx.timetablesDir, airports, ctx.nowMs);
  const lookups = {
    flightOf: (cs: string) => ref.flightNumber(cs),
    routeOf: (cs: string) => routes.get(cs),
    blockMinutes: (org: string, dst: string) => log?.blocks.get(`${org}-${dst}`) ?? null,
    airlineOf: (cs: string) => ctx.refdata.airlines.airlineOfCallsign(cs)?.icao ?? null,
  };

  ctx.progress.start(changed ? `airports (${changed.size} IATA codes with legs in the changed days or a changed route)` : 'airports', airports.length);
  let icaoKeys = 0;
  let kept = 0;
  for (const a of airports) {
    const icaoKey = a.icaoKey;
    if (icaoKey) icaoKeys++;
    if (changed && !changed.has(a.iata)) {
      keep(ctx, a.iata, icaoKey);
      kept++;
      ctx.progress.tick();
      continue;
    }
    const doc = airportDocument({
      airport: a,
      log: log && {
        windowDays: ctx.windowDays,
        totals: log.totals.get(a.ident)?.totals,
        mix: log.totals.get(a.ident)?.mix,
        routes: log.routes.get(a.ident),
        departures: log.departures.get(a.ident),
        arrivals: log.arrivals.get(a.ident),
      },
      timetable: timetables.byIata.get(a.iata) ?? null,
      lookups,
    });
    // validate (when sampled) and serialise once, store under both spellings
    const json = JSON.stringify(doc);
    ctx.writer.putJson(keys.airport(a.iata), json, doc);
    if (icaoKey) ctx.writer.putBytes(keys.airport(icaoKey), json);
    ctx.progress.tick();
  }
  // what the hourly roll needs to merge the next local day's timetable without the log
  const minutes: Record<string, number> = {};
  for (const [pair, m] of [...(log?.blocks ?? [])].sort(([a], [b]) => (a < b ? -1 : 1))) minutes[pair] = Math.round(m);
  ctx.writer.put(keys.boardBlocks(), { minutes });
  ctx.counts.airports = airports.length;
  ctx.counts.airport_icao_keys = icaoKeys;
  ctx.counts.timetables = timetables.byIata.size;
  ctx.counts.timetables_rejected = timetables.rejected;
  ctx.progress.done(
    `${airports.length} airports (+${icaoKeys} ICAO keys), ${log ? log.totals.size : 0} observed${changed ? ` of the ${airports.length - kept} built (${kept} unchanged, kept unbuilt)` : ''}, ` +
      `${timetables.byIata.size} timetables (${timetables.rejected} rejected)`,
  );
}

/** keep an airport's documents (IATA and ICAO spellings) the previous build wrote */
function keep(ctx: BuildContext, iata: string, icaoKey: string | null): void {
  for (const key of [keys.airport(iata), ...(icaoKey ? [keys.airport(icaoKey)] : [])]) {
    if (!ctx.writer.keep(key)) throw new Error(`the previous build has no ${key}: its tree is inconsistent with its inputs; rerun with --rebuild`);
  }
}

/** `idents`: the airports to aggregate (SQL), default every one with an IATA code */
async function aggregate(ctx: BuildContext, legs: RoutedLegs | null, idents?: string) {
  const ref = ctx.ref;
  await loadMixTables(
    ctx.db,
    (hex) => ctx.refdata.codeBlocks.isMilitaryHex(hex),
    ctx.refdata.airlines.all.map((a) => a.icao),
  );
  const tzOf = (ident: string) => ref.airport(ident)?.tz ?? null;
  const from = boardStart(ctx.archiveThrough!, ctx.windowStart);
  // each aggregation is its own progress step: they are the long part of the build
  const step = async <T extends Map<string, unknown>>(name: string, run: () => Promise<T>): Promise<T> => {
    ctx.progress.start(`airports: ${name}`, 0);
    const out = await run();
    ctx.progress.done(`${out.size} airports`);
    return out;
  };
  // the totals' counts, folded from the previous build's when it can be trusted (counts-fold.ts)
  await prepareCounts(ctx, ctx.db, legs, COUNTS_FAMILY, AIRPORT_COUNTS, 'airports: totals', AIRPORTS_STEP.reuse.totals);
  const totals = await step('totals', () => airportTotals(ctx.db, idents));
  const routes = await step('routes', () => airportRoutes(ctx.db, idents));
  await saveCounts(ctx, ctx.db, legs, COUNTS_FAMILY, AIRPORT_COUNTS);
  const departures = await step(`departure boards from ${from}`, () => airportSlots(ctx.db, 'dep', from, tzOf, idents));
  const arrivals = await step(`arrival boards from ${from}`, () => airportSlots(ctx.db, 'arr', from, tzOf, idents));
  const blocks = await step('route block times', () => routeBlockMinutes(ctx.db, from));
  return { totals, routes, departures, arrivals, blocks };
}
