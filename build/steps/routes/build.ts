// step: the routes table from the log (aggregated in DuckDB, streamed by callsign; a night that
// reuses the previous build folds its saved evidence, routes/evidence-fold.ts, and takes the decisions
// whose inputs did not move from it, routes/decisions.ts) and the checked, reviewed community
// catalog. writes v1/route/<callsign> (the heard callsigns'; the catalog-only ones' only with
// --catalog-route-files), meta/routes, meta/lookup (artifacts/meta.ts) and meta/catalog-routes, and returns
// what later steps need: the table itself (airports) and the DuckDB view `legs_routed` (legs with
// IATA ends, a missing end filled from the table when the heard end agrees; airframes and refdata).
import { existsSync, readFileSync } from 'node:fs';
import type { DuckDBConnection } from '@duckdb/node-api';
import type { BuildContext, RefAirports, RoutedLegs } from '../context.ts';
import { keys } from '../../../artifacts/keys.ts';
import { checkCatalogRow, type CatalogVerdict } from '../../../artifacts/catalog-check.ts';
import { emptyReviews, indexReviews, parseReviewCsv, type ReviewIndex, type ReviewPolicy } from '../../../artifacts/catalog-review.ts';
import { decideRoute, routeDoc, type CallsignEvidence, type RouteDecision, type RoutesTable } from '../../../artifacts/routes-table.ts';
import type { RefView } from '../../../artifacts/reference-view.ts';
import { encodeLookup, encodeRoutesTable } from '../../../artifacts/meta.ts';
import { catalogRoutesCollector } from '../../../artifacts/catalog-routes.ts';
import { allRows, loadTable, streamRows } from '../duck.ts';
import { evidenceSql, prepareEvidence, saveEvidence } from './evidence-fold.ts';
import { legsRoutedSql } from './legs-routed.ts';
import { readDecisions, writeDecisions, type PastDecision } from './decisions.ts';
import { PICKED_FROM_LEGS } from '../changed-callsigns.ts';
import { previousFor } from '../reuse.ts';
import { ROUTES_STEP } from './step.ts';
import { installed } from '../../../lib/install.ts';

export interface RoutesOptions {
  /** the reviewed list; a missing file means nothing was reviewed */
  reviewFile: string | null;
  /** auto: catalog answers that pass the automatic checks are served (labelled review "auto"); reviewed: only accepted ones */
  policy: ReviewPolicy;
}

/** documents between waits for the write workers */
const DRAIN_EVERY = 4096;

const DEFAULT_ROUTES_OPTIONS: RoutesOptions = { reviewFile: installed('data/catalog-review.csv'), policy: 'auto' };

/** the evidence per callsign from the tables prepareEvidence made (routes/evidence-fold.ts); `only`: a table of the callsigns wanted */
async function readEvidence(db: DuckDBConnection, tick: (n: number) => void, only?: string): Promise<Map<string, CallsignEvidence>> {
  const out = new Map<string, CallsignEvidence>();
  for await (const rows of streamRows<CallsignEvidence>(db, evidenceSql(only))) {
    for (const r of rows) out.set(r.callsign, r);
    tick(rows.length);
  }
  return out;
}

/**
 * The heard callsigns' evidence: every one's; or, given the previous build's decisions and the
 * callsigns the fold moved, only the evidence of those whose decision cannot be taken from it, the
 * others listed as `unmoved` (their evidence is not read: about half the heard callsigns of a night)
 */
async function heardEvidence(
  db: DuckDBConnection,
  past: { decisions: ReadonlyMap<string, PastDecision>; moved: ReadonlySet<string> } | null,
  tick: (n: number) => void,
): Promise<{ evidence: Map<string, CallsignEvidence>; unmoved: string[] }> {
  if (!past) return { evidence: await readEvidence(db, tick), unmoved: [] };
  const unmoved: string[] = [];
  const need: string[] = [];
  for (const { callsign } of await allRows<{ callsign: string }>(db, `SELECT callsign FROM ev_days`)) {
    if (!past.moved.has(callsign) && past.decisions.get(callsign)?.heard) unmoved.push(callsign);
    else need.push(callsign);
  }
  await loadTable(
    db,
    'ev_need',
    [['callsign', 'VARCHAR']],
    need.map((cs) => [cs]),
  );
  const evidence = await readEvidence(db, tick, 'ev_need');
  await db.run(`DROP TABLE ev_need`);
  return { evidence, unmoved };
}

function readReviews(opts: RoutesOptions): { reviews: ReviewIndex; skipped: number } {
  if (!opts.reviewFile || !existsSync(opts.reviewFile)) return { reviews: emptyReviews, skipped: 0 };
  const { entries, count } = parseReviewCsv(readFileSync(opts.reviewFile), opts.reviewFile);
  return { reviews: indexReviews(entries), skipped: count.skipped };
}

export interface RoutesResult {
  table: RoutesTable;
  /** how many callsigns ended each way (route_source or the reason for no route) */
  outcomes: Record<string, number>;
  /** every decision, for the next night (routes/decisions.ts) */
  decisions: [string, PastDecision][];
}

/** what a night may take from the previous build instead of deciding again (routes/decisions.ts) */
export interface PastRoutes {
  decisions: ReadonlyMap<string, PastDecision>;
  /** heard callsigns whose evidence did not move, absent from `evidence`: each takes its past decision */
  unmoved: readonly string[];
}

/** called once per decision; `reused`: taken from the previous build (no evidence or verdict at hand) */
type EachDecision = (cs: string, d: RouteDecision, ev: CallsignEvidence | null, v: CatalogVerdict | null, reused: boolean) => void;

/**
 * The pure part of the builder: every decision, given the evidence and the reference data. With
 * `past`, the unmoved heard callsigns and the catalog rows unheard then and now take the previous
 * build's decision; every other one is decided here.
 */
export function computeRoutes(
  evidence: Map<string, CallsignEvidence>,
  ref: RefView,
  reviews: ReviewIndex,
  policy: ReviewPolicy,
  each?: EachDecision,
  past: PastRoutes | null = null,
): RoutesResult {
  const table: RoutesTable = new Map();
  const outcomes: Record<string, number> = {};
  const decisions: [string, PastDecision][] = [];
  const note = (cs: string, heard: boolean, d: RouteDecision, ev: CallsignEvidence | null, v: CatalogVerdict | null, reused: boolean) => {
    const k = d.entry ? d.entry.route_source : d.reason!;
    outcomes[k] = (outcomes[k] ?? 0) + 1;
    if (d.entry) table.set(cs, d.entry);
    decisions.push([cs, { heard, outcome: k, entry: d.entry }]);
    each?.(cs, d, ev, v, reused);
  };
  const reuse = (cs: string, heard: boolean, p: PastDecision) =>
    note(
      cs,
      heard,
      { entry: p.entry, catalogUsed: p.entry !== null && p.entry.route_source !== 'observed', reason: p.entry ? null : (p.outcome as RouteDecision['reason']) },
      null,
      null,
      true,
    );
  const verdictOf = (cs: string, types: readonly string[]): CatalogVerdict | null => {
    const key = ref.catalogKey(cs) ?? cs;
    const codes = ref.catalogRoute(cs);
    return codes ? checkCatalogRow(key, codes, types, ref, reviews, policy) : null;
  };
  // callsigns the network heard: observation first, the catalog where it is silent
  const heard = new Set<string>();
  const spoken = new Set<string>();
  for (const [cs, ev] of evidence) {
    heard.add(cs);
    spoken.add(ref.catalogKey(cs) ?? cs);
    const v = verdictOf(cs, ev.types);
    note(cs, true, decideRoute(ev, v, ref), ev, v, false);
  }
  for (const cs of past?.unmoved ?? []) {
    const p = past!.decisions.get(cs);
    if (!p?.heard) throw new Error(`computeRoutes: the unmoved callsign ${cs} has no heard decision in the previous build`);
    heard.add(cs);
    spoken.add(ref.catalogKey(cs) ?? cs);
    reuse(cs, true, p);
  }
  // catalog callsigns never heard in the window
  for (const row of ref.catalogRows()) {
    if (spoken.has(row.callsign) || heard.has(row.callsign)) continue;
    const p = past?.decisions.get(row.callsign);
    if (p && !p.heard) {
      reuse(row.callsign, false, p);
      continue;
    }
    const v = checkCatalogRow(row.callsign, row.airports, [], ref, reviews, policy);
    note(row.callsign, false, decideRoute(null, v, ref), null, v, false);
  }
  return { table, outcomes, decisions };
}

async function loadRoutesTable(db: DuckDBConnection, table: RoutesTable, _airports: RefAirports): Promise<RoutedLegs> {
  for (const t of Object.values(PICKED_FROM_LEGS)) await db.run(`DROP TABLE IF EXISTS ${t}`);
  const rows = function* () {
    for (const [cs, e] of table) yield [cs, e.org, e.dst, e.org_ident, e.dst_ident, e.route_source, e.org_seen, e.dst_seen] as const;
  };
  await loadTable(
    db,
    'routes_table',
    [
      ['callsign', 'VARCHAR'],
      ['org', 'VARCHAR'],
      ['dst', 'VARCHAR'],
      ['org_ident', 'VARCHAR'],
      ['dst_ident', 'VARCHAR'],
      ['route_source', 'VARCHAR'],
      ['org_seen', 'BOOLEAN'],
      ['dst_seen', 'BOOLEAN'],
    ],
    rows(),
  );
  await db.run(legsRoutedSql('legs_routed', 'legs'));
  return { view: 'legs_routed', table: 'routes_table' };
}

/** what the routes step makes for the later steps */
export interface RoutesMade {
  table: RoutesTable;
  legs: RoutedLegs;
}

export function makeRoutesBuilder(opts: RoutesOptions = DEFAULT_ROUTES_OPTIONS): (ctx: BuildContext, airports: RefAirports) => Promise<RoutesMade> {
  return async (ctx, airports) => {
    const ref = ctx.ref;
    const { reviews, skipped } = readReviews(opts);
    ctx.progress.start('routes: log evidence', 0);
    // folded from the previous build's evidence when it can be trusted, else counted from the window
    const path = await prepareEvidence(ctx.db, ctx.reuse ?? null, ctx.logDays ?? null);
    // the previous build's decisions (routes/decisions.ts): a heard callsign whose evidence the fold
    // did not move takes its decision from there, so its evidence is not even read
    const previous = previousFor(ctx, ROUTES_STEP.reuse.decisions);
    const decisions = 'dir' in previous ? readDecisions(previous.dir) : null;
    const { evidence, unmoved } = await heardEvidence(ctx.db, decisions && path.moved && { decisions, moved: path.moved }, (n) => ctx.progress.tick(n));
    ctx.progress.done(`${evidence.size + unmoved.length} callsigns heard (${path.line})`);
    const past = decisions && { decisions, unmoved };
    // every decision ticks: the heard callsigns, then the catalog's rows that none of them spoke for
    const unmovedSet = new Set(unmoved);
    const spoken = new Set([...evidence.keys(), ...unmoved].map((cs) => ref.catalogKey(cs) ?? cs));
    let unheard = 0;
    for (const row of ref.catalogRows()) if (!spoken.has(row.callsign) && !evidence.has(row.callsign) && !unmovedSet.has(row.callsign)) unheard++;
    ctx.progress.start('routes: decide', evidence.size + unmoved.length + unheard);
    // decide first (pure), then write: the writing loop waits for the write workers now and then,
    // so the documents queued for them stay a few batches, not half a million
    const decided: Parameters<typeof routeDoc>[] = [];
    // a decision taken from the previous build was made from the same evidence (or, unheard, the
    // same catalog row), reference data and code: its document is the previous one, kept unbuilt
    const reused: { cs: string; heard: boolean }[] = [];
    let taken = 0;
    // a catalog-only route (never heard in the window) gets no file unless the deployment asks for
    // them (--catalog-route-files): the server builds its document from the routes table and
    // meta/catalog-routes (docs/api.md "Routes of catalog-only callsigns")
    const catalogOnly = catalogRoutesCollector(ref);
    let unwritten = 0;
    const {
      table,
      outcomes,
      decisions: now,
    } = computeRoutes(
      evidence,
      ref,
      reviews,
      opts.policy,
      (cs, d, ev, v, wasReused) => {
        if (wasReused) taken++;
        const heard = ev !== null || unmovedSet.has(cs);
        // a decision taken from the previous build has no verdict at hand: its review is looked up again (the same review list)
        if (d.entry && !heard) catalogOnly.add(cs, d.entry, v?.review ?? reviews.outcome(cs, (ref.catalogRoute(cs) ?? []).join('-')));
        if (d.entry && !heard && !ctx.catalogRouteFiles) unwritten++;
        else if (d.entry && wasReused) reused.push({ cs, heard });
        else if (d.entry) decided.push([cs, d.entry, ev, v, ref]);
        ctx.progress.tick();
      },
      past,
    );
    ctx.progress.done(`${table.size} routes (${now.length - table.size} callsigns without one; ${taken} decisions taken from the previous build)`);
    ctx.progress.start('routes: write', decided.length + reused.length);
    let kept = 0;
    let keptHeard = 0;
    for (const { cs, heard } of reused) {
      if (!ctx.writer.keep(keys.route(cs)))
        throw new Error(`the previous build has no ${keys.route(cs)}: its tree is inconsistent with its inputs; rerun with --rebuild`);
      if (heard) keptHeard++;
      else kept++;
      ctx.progress.tick();
    }
    for (let i = 0; i < decided.length; i++) {
      const args = decided[i]!;
      ctx.writer.put(keys.route(args[0]), routeDoc(...args));
      ctx.progress.tick();
      if (i % DRAIN_EVERY === DRAIN_EVERY - 1) await ctx.writer.drain();
    }
    ctx.writer.put(keys.routesTable(), encodeRoutesTable(table));
    ctx.writer.put(keys.lookup(), encodeLookup(ref));
    ctx.writer.put(keys.catalogRoutes(), catalogOnly.doc());
    const legs = await loadRoutesTable(ctx.db, table, airports);
    // the state files go in by hand: renamed into place, beside the hard-link copy or after it (or
    // after the check of a taken-over folder, which a night's routes step may still wait for here)
    await ctx.writer.readyForFiles();
    writeDecisions(ctx.writer.dir, now);
    await saveEvidence(ctx.db, ctx.writer.dir);
    ctx.counts.routes = table.size;
    for (const [k, n] of Object.entries(outcomes)) ctx.counts[`routes.${k}`] = n;
    if (skipped) ctx.counts['routes.review_rows_skipped'] = skipped;
    const fmt = Object.entries(outcomes)
      .map(([k, n]) => `${k} ${n}`)
      .join(', ');
    ctx.progress.done(
      // the count it started with (the files), then the table's
      `${decided.length + reused.length} routes as files, ${unwritten} catalog-only ones without (the server answers them from the table); ${table.size} in the table (${fmt}; ${kept} unheard and unchanged, ${keptHeard} heard with unmoved evidence, kept unbuilt); ${reviews.size} review rows${skipped ? `, ${skipped} malformed skipped` : ''}`,
    );
    return { table, legs };
  };
}

export const buildRoutes = makeRoutesBuilder();
