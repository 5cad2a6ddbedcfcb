import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decideRoute, observe, routeDoc, type CallsignEvidence, type EndGroup } from '../../artifacts/routes-table.ts';
import { decodeLookup, decodeRoutesTable, encodeRoutesTable, servedRoutesOf } from '../../artifacts/meta.ts';
import { checkCatalogRow } from '../../artifacts/catalog-check.ts';
import { emptyReviews, indexReviews, parseReviewCsv } from '../../artifacts/catalog-review.ts';
import { computeRoutes } from '../../build/steps/routes/build.ts';
import { problems } from '../../schemas/index.ts';
import { makeRef } from '../helpers/ref-fixture.ts';

const T0 = 1_717_200_000; // 2024-06-01, pinned
const ev = (callsign: string, groups: EndGroup[], types: string[] = ['A320']): CallsignEvidence => ({
  callsign,
  groups,
  legs: groups.reduce((s, g) => s + g.legs, 0),
  days: groups.length,
  last_ts: Math.max(T0, ...groups.map((g) => g.last_ts)),
  types,
});
const g = (org: string | null, dst: string | null, legs: number, last_ts = T0): EndGroup => ({ org, dst, legs, last_ts });
const ref = makeRef();
const verdict = (cs: string, codes: string[], types: string[] = ['A320'], reviews = emptyReviews, policy: 'auto' | 'reviewed' = 'auto') =>
  checkCatalogRow(cs, codes, types, makeRef(), reviews, policy);

test('the majority pair of observed legs is the route, labelled observed', () => {
  const d = decideRoute(ev('SWR100', [g('LSZH', 'EGLL', 3), g('LSZH', 'EDDF', 1, T0 + 999)]), null, ref);
  assert.deepEqual(d.entry, { org: 'ZRH', dst: 'LHR', org_ident: 'LSZH', dst_ident: 'EGLL', route_source: 'observed', org_seen: true, dst_seen: true });
});

test('a tie between pairs goes to the most recent one', () => {
  const d = decideRoute(ev('SWR100', [g('LSZH', 'EGLL', 2, T0), g('LSZH', 'EDDF', 2, T0 + 60)]), null, ref);
  assert.equal(d.entry?.dst, 'FRA');
});

test('a single leg is enough only when it is the only evidence', () => {
  assert.equal(decideRoute(ev('SWR1', [g('LSZH', 'EGLL', 1)]), null, ref).entry?.dst, 'LHR');
  const two = decideRoute(ev('SWR1', [g('LSZH', 'EGLL', 1), g('LSGG', 'EDDF', 1)]), null, ref);
  assert.equal(two.entry, null);
  assert.equal(two.reason, 'observed_ambiguous');
});

test('circuits never count as a route (the builder leaves them out of the evidence)', () => {
  // a callsign heard only flying circuits has no evidence rows at all: no route, no catalog needed
  assert.equal(decideRoute(null, null, ref).entry, null);
  assert.deepEqual(observe(ev('HBABC', [])).route, null);
});

test('an observed route to an airport without an IATA code is not served, and the catalog is not asked', () => {
  const d = decideRoute(ev('SWR5', [g('LSZH', 'LSZT', 3)]), verdict('SWR5', ['LSZH', 'EGLL']), ref);
  assert.equal(d.entry, null);
  assert.equal(d.reason, 'observed_without_iata');
});

test('the catalog answers only where observation is silent, labelled catalog', () => {
  const d = decideRoute(null, verdict('SWR7', ['LSZH', 'KJFK'], []), ref);
  assert.equal(d.entry?.route_source, 'catalog');
  assert.deepEqual([d.entry?.org, d.entry?.dst], ['ZRH', 'JFK']);
  // observation with a full pair outranks a different catalog row
  const o = decideRoute(ev('SWR7', [g('LSZH', 'EGLL', 2)]), verdict('SWR7', ['LSZH', 'KJFK']), ref);
  assert.deepEqual([o.entry?.dst, o.entry?.route_source], ['LHR', 'observed']);
});

test('observed origin plus catalog destination is observed+catalog only when the catalog origin agrees', () => {
  const agree = decideRoute(ev('SWR9', [g('LSZH', null, 4)]), verdict('SWR9', ['LSZH', 'EGLL']), ref);
  assert.deepEqual([agree.entry?.org, agree.entry?.dst, agree.entry?.route_source], ['ZRH', 'LHR', 'observed+catalog']);
  const disagree = decideRoute(ev('SWR9', [g('LSGG', null, 4)]), verdict('SWR9', ['LSZH', 'EGLL']), ref);
  assert.equal(disagree.entry, null);
  assert.equal(disagree.reason, 'catalog_contradicted');
});

test('a catalog destination contradicted by an observed landing is never served', () => {
  const d = decideRoute(ev('SWR11', [g(null, 'EDDF', 1)]), verdict('SWR11', ['LSZH', 'EGLL']), ref);
  assert.equal(d.entry, null);
  assert.equal(d.reason, 'catalog_contradicted');
  // even one dissenting observation among agreeing ones blocks the end
  const mixed = decideRoute(ev('SWR11', [g(null, 'EGLL', 1), g(null, 'EDDF', 1)]), verdict('SWR11', ['LSZH', 'EGLL']), ref);
  assert.equal(mixed.entry, null);
});

test('a multi-stop catalog row is served only for the segment an observed end picks out', () => {
  const v = verdict('SWR21', ['LSZH', 'EGLL', 'KJFK'], ['B77W']);
  assert.equal(decideRoute(null, v, ref).reason, 'catalog_multistop_unanchored');
  const d = decideRoute(ev('SWR21', [g('EGLL', null, 2)], ['B77W']), v, ref);
  assert.deepEqual([d.entry?.org, d.entry?.dst, d.entry?.route_source], ['LHR', 'JFK', 'observed+catalog']);
});

test('automatic checks reject unknown airlines, unknown, closed or IATA-less airports, org = dst and legs too long for the type', () => {
  assert.deepEqual(verdict('XXX1', ['LSZH', 'EGLL']), { ok: false, reason: 'unknown_airline', review: { status: 'unreviewed' } });
  assert.equal(verdict('N123AB', ['LSZH', 'EGLL']).ok, false);
  assert.equal((verdict('SWR1', ['LSZH', 'ZZZZ']) as { reason: string }).reason, 'unknown_airport');
  assert.equal((verdict('SWR1', ['LSZH', 'LSZX']) as { reason: string }).reason, 'airport_closed');
  assert.equal((verdict('SWR1', ['LSZH', 'LSZT']) as { reason: string }).reason, 'airport_without_iata');
  assert.equal((verdict('SWR1', ['LSZH', 'LSZH']) as { reason: string }).reason, 'same_airport');
  assert.equal((verdict('SWR1', ['LSZH', 'RJTT'], ['DH8D']) as { reason: string }).reason, 'too_long_for_type');
  assert.equal(verdict('SWR1', ['LSZH', 'RJTT'], ['B77W']).ok, true);
  // an unknown type sets no limit
  assert.equal(verdict('SWR1', ['LSZH', 'RJTT'], ['ZZZZ']).ok, true);
});

test('review: reject wins over accept, accept counts only after the automatic checks, reviewed policy needs an accept', () => {
  const { entries, count } = parseReviewCsv(
    [
      'callsign,route,decision,reviewer,date,note',
      'SWR1,LSZH-EGLL,accept,ana,2025-01-02,timetable',
      'SWR1,*,reject,ben,2025-01-03,callsign reused',
      'SWR2,LSZH-EGLL,accept,ana,2025-01-02,',
      'SWR3,LSZH-LSZT,accept,ana,2025-01-02,accepted but no IATA',
      'SWR4,LSZH-EGLL,maybe,ana,2025-01-02,',
      'SWR5,LSZH-EGLL,accept,,2025-01-02,',
      'SWR6,LSZH-EGLL,accept,ana,2025-02-30,',
      'SWR7,*,accept,ana,2025-01-02,',
      'SW R8,LSZH-EGLL,accept,ana,2025-01-02,',
      'SWR9,LSZH,accept,ana,2025-01-02,',
      'SWR10,LSZH-EGLL,accept',
    ].join('\n'),
  );
  assert.equal(entries.length, 4);
  assert.equal(count.skipped, 7);
  assert.deepEqual(count.reasons, {
    'bad decision': 1,
    'missing reviewer': 1,
    'bad date': 1,
    'accept needs the exact route': 1,
    'bad callsign': 1,
    'bad route': 1,
    'column count': 1,
  });
  const reviews = indexReviews(entries);
  assert.equal((verdict('SWR1', ['LSZH', 'EGLL'], [], reviews) as { reason: string }).reason, 'rejected_by_review');
  const accepted = verdict('SWR2', ['LSZH', 'EGLL'], [], reviews, 'reviewed');
  assert.equal(accepted.ok && accepted.review.status, 'accepted');
  // the accept named another route: the upstream row changed, so it needs a new review
  assert.equal((verdict('SWR2', ['LSZH', 'KJFK'], [], reviews, 'reviewed') as { reason: string }).reason, 'not_reviewed');
  assert.equal((verdict('SWR3', ['LSZH', 'LSZT'], [], reviews) as { reason: string }).reason, 'airport_without_iata');
  assert.equal(verdict('SWR4', ['LSZH', 'EGLL'], [], reviews, 'auto').ok, true);
  assert.equal(verdict('SWR4', ['LSZH', 'EGLL'], [], reviews, 'reviewed').ok, false);
});

test('a review file with a missing column is refused with a message naming it', () => {
  assert.throws(() => parseReviewCsv('callsign,decision\nSWR1,accept\n'), /missing column\(s\) route, reviewer, date/);
});

test('computeRoutes: heard callsigns first, catalog-only callsigns after, each outcome counted', () => {
  const ref2 = makeRef({ SWR1: ['LSZH', 'EGLL'], SWR2: ['LSZH', 'KJFK'], SWR3: ['LSGG', 'EGLL'], BAW12: ['EGLL', 'LSZH'] });
  const evidence = new Map([
    ['SWR1', ev('SWR1', [g('LSZH', 'EGLL', 5)])],
    ['SWR2', ev('SWR2', [g('LSZH', null, 2)])],
    ['SWR3', ev('SWR3', [g('LSZH', null, 2)])],
    ['BAW012', ev('BAW012', [g(null, 'LSZH', 1)])],
  ]);
  const { table, outcomes } = computeRoutes(evidence, ref2, emptyReviews, 'auto');
  assert.deepEqual(Object.fromEntries([...table].map(([k, e]) => [k, [e.org, e.dst, e.route_source]])), {
    SWR1: ['ZRH', 'LHR', 'observed'],
    SWR2: ['ZRH', 'JFK', 'observed+catalog'],
    // heard under its broadcast spelling: the catalog's BAW12 row is not listed a second time
    BAW012: ['LHR', 'ZRH', 'observed+catalog'],
  });
  assert.deepEqual(outcomes, { observed: 1, 'observed+catalog': 2, catalog_contradicted: 1 });
  const doc = encodeRoutesTable(table);
  assert.deepEqual(problems('routes-table', doc), []);
  assert.deepEqual(Object.keys(doc), ['BAW012', 'SWR1', 'SWR2']);
  // what the server loads is what the build meant, through the one decoder
  assert.deepEqual(
    [...decodeRoutesTable(JSON.parse(JSON.stringify(doc)))],
    [...table].sort(([a], [b]) => (a < b ? -1 : 1)).map(([k, e]) => [k, [e.org, e.dst, e.route_source]]),
  );
  // the nightly's replay takes the served table straight from the build's: the same entries as the round trip
  const served = servedRoutesOf(table);
  assert.deepEqual(new Map(served), decodeRoutesTable(JSON.parse(JSON.stringify(doc))));
  assert.equal(served.size, 3);
});

test('computeRoutes with the previous build: unmoved heard callsigns and rows unheard then and now take its decisions, the rest are decided', () => {
  const ref2 = makeRef({ SWR1: ['LSZH', 'EGLL'], SWR2: ['LSZH', 'KJFK'], SWR3: ['LSGG', 'EGLL'], SWR4: ['LSZH', 'EDDF'] });
  const full = computeRoutes(
    new Map([
      ['SWR1', ev('SWR1', [g('LSZH', 'EGLL', 5)])],
      ['SWR2', ev('SWR2', [g('LSZH', null, 2)])],
      ['SWR9', ev('SWR9', [g('LSGG', 'EDDF', 3)])],
    ]),
    ref2,
    emptyReviews,
    'auto',
  );
  const past = new Map(full.decisions);
  // the past says SWR9 flew Geneva-Heathrow (not what deciding its evidence gives): taking it proves it was not decided again
  past.set('SWR9', {
    heard: true,
    outcome: 'observed',
    entry: { org: 'GVA', dst: 'LHR', org_ident: 'LSGG', dst_ident: 'EGLL', route_source: 'observed', org_seen: true, dst_seen: true },
  });
  // and the unheard SWR3 row had no route then: it is taken as it was
  past.set('SWR3', { heard: false, outcome: 'catalog_rejected', entry: null });
  const seen: [string, boolean][] = [];
  // tonight SWR1 moved (its evidence is read again), SWR9 did not, SWR2 was not heard in the window any more
  const night = computeRoutes(
    new Map([['SWR1', ev('SWR1', [g('LSZH', 'EGLL', 6)])]]),
    ref2,
    emptyReviews,
    'auto',
    (cs, _d, _ev, _v, reused) => seen.push([cs, reused]),
    { decisions: past, unmoved: ['SWR9'] },
  );
  assert.deepEqual(seen.sort(), [
    ['SWR1', false],
    ['SWR2', false],
    ['SWR3', true],
    ['SWR4', true],
    ['SWR9', true],
  ]);
  assert.equal(night.table.get('SWR9')!.org, 'GVA', 'the unmoved callsign keeps the previous decision');
  assert.equal(night.table.has('SWR3'), false);
  // SWR2 was heard then, not now: its row is decided from the catalog alone
  assert.equal(night.table.get('SWR2')!.route_source, 'catalog');
  assert.deepEqual(night.outcomes, { observed: 2, catalog: 2, catalog_rejected: 1 });
  assert.deepEqual(new Map(night.decisions).get('SWR2'), { heard: false, outcome: 'catalog', entry: night.table.get('SWR2') });
  // an unmoved callsign the previous build did not hear is a broken state, never silently decided
  assert.throws(() => computeRoutes(new Map(), ref2, emptyReviews, 'auto', undefined, { decisions: past, unmoved: ['SWR3'] }), /SWR3 has no heard decision/);
});

test('a malformed meta/routes or meta/lookup is refused whole, never half-loaded', () => {
  assert.throws(() => decodeRoutesTable([]), /not an object of callsigns/);
  assert.throws(() => decodeRoutesTable({ SWR1: ['ZRH', 'LHR'] }), /entry of "SWR1" is not \[org, dst, route_source\]/);
  assert.throws(() => decodeRoutesTable({ SWR1: ['ZRH', 'LHR', 'rumour'] }), /SWR1/);
  assert.throws(() => decodeRoutesTable({ SWR1: ['zurich', 'LHR', 'observed'] }), /SWR1/);
  assert.throws(() => decodeLookup({ airports_icao_to_iata: {}, airport_positions: {} }), /lacks/);
  assert.deepEqual(decodeLookup({ airports_icao_to_iata: { LSZH: 'ZRH' }, airport_positions: {}, airlines: ['SWR'] }).airlines, ['SWR']);
});

test('route documents match the route schema and say where each end came from', () => {
  const v = verdict('SWR9', ['LSZH', 'EGLL']);
  const e = ev('SWR9', [g('LSZH', null, 4)]);
  const d = decideRoute(e, v, ref);
  const doc = routeDoc('SWR9', d.entry!, e, v, ref);
  assert.deepEqual(problems('route', doc), []);
  assert.equal(doc.flight, 'LX9');
  assert.deepEqual(doc.catalog, { stops: ['ZRH', 'LHR'], review: 'auto', reviewer: null, reviewed_on: null });
  assert.deepEqual(doc.observed, { legs: 4, days: 1, last_seen: T0 });
  const obs = decideRoute(ev('SWR1', [g('LSZH', 'EGLL', 2)]), null, ref);
  const od = routeDoc('SWR1', obs.entry!, null, null, ref);
  assert.equal(od.catalog, null);
  assert.deepEqual(problems('route', od), []);
  assert.notDeepEqual(problems('route', { ...od, route_source: 'guess' }), []);
});

test('the /v1/routes response schema takes [org, dst] or null per callsign, nothing else', () => {
  assert.deepEqual(problems('routes', { routes: { SWR1: ['ZRH', 'LHR'], XYZ9: null } }), []);
  assert.notDeepEqual(problems('routes', { routes: { SWR1: ['ZRH'] } }), []);
  assert.notDeepEqual(problems('routes', { routes: { SWR1: ['ZRH', 'LHR', 'observed'] } }), []);
});
