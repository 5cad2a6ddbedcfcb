// the side panel: a selected aircraft (its live record or its estimate spelled out, its route with
// its route_source, its airframe history with each leg's route_source, links to the documents) and
// a clicked airport (observed totals and boards, each row's source), and the flight log's sections
// (flights-panel.ts): an airframe's days and their flights, an airport's movements of yesterday.
import { getJson, type Answer } from './api.ts';
import { el, fmt, table, utc } from './dom.ts';
import { flightsSection, movementsSection, type FlightsView } from './flights-panel.ts';
import type { Aircraft, Estimate, Trace } from './types.ts';

export class Panel {
  private token = 0;

  constructor(
    private readonly root: HTMLElement,
    private readonly onClose: () => void,
    private readonly flights: FlightsView | null = null,
  ) {}

  close(): void {
    this.token++;
    this.flights?.clear();
    this.root.hidden = true;
    this.root.replaceChildren();
  }

  private open(title: string, ...body: HTMLElement[]): number {
    const close = el('button', { class: 'close', type: 'button', 'aria-label': 'close' }, '×');
    close.addEventListener('click', () => {
      this.close();
      this.onClose();
    });
    this.flights?.clear();
    this.root.replaceChildren(close, el('h2', {}, title), ...body);
    this.root.hidden = false;
    return ++this.token;
  }

  get isOpen(): boolean {
    return !this.root.hidden;
  }

  /** an aircraft: what is known now, its route, then its trace (drawn by the caller) and airframe history */
  async aircraft(
    hex: string,
    live: Aircraft | null,
    estimate: Estimate | null,
    loadTrace: (t: Trace | null) => void,
    typeName: (t: string) => string | null,
    nowS: number | null,
  ): Promise<void> {
    const name = live?.flight ?? estimate?.flight ?? hex;
    const now = live ? liveFacts(live, typeName, nowS) : estimate ? estimateFacts(estimate) : el('p', {}, 'Not in the live picture now.');
    const callsign = live?.flight ?? estimate?.flight;
    const routeBox = el('section', { class: 'route' }, callsign ? el('p', { class: 'loading' }, 'route…') : null);
    const traceBox = el('section', { class: 'trace' }, el('p', { class: 'loading' }, 'trace…'));
    const frameBox = el('section', { class: 'airframe' }, el('p', { class: 'loading' }, 'airframe history…'));
    const links = el(
      'p',
      { class: 'links' },
      el('a', { href: `/v1/airframes/${hex}` }, 'airframe history (JSON)'),
      ' · ',
      el('a', { href: `/v1/trace/${hex}` }, 'trace (JSON)'),
    );
    const token = this.open(`${name} · ${hex}`, now, routeBox, links, traceBox, frameBox);
    const [trace, frame, route] = await Promise.all([
      getJson<Trace>(`/v1/trace/${hex}`),
      getJson<any>(`/v1/airframes/${hex}`),
      callsign && /^[A-Z0-9]{2,8}$/.test(callsign) ? getJson<any>(`/v1/route/${callsign}`) : Promise.resolve(null),
    ]);
    if (token !== this.token) return;
    loadTrace(trace.ok ? trace.body : null);
    traceBox.replaceChildren(trace.ok ? traceFacts(trace.body) : el('p', { class: 'none' }, `No trace: ${problem(trace)}`));
    frameBox.replaceChildren(...(frame.ok ? airframeFacts(frame.body) : [el('h3', {}, 'Airframe history'), el('p', { class: 'none' }, problem(frame))]));
    if (frame.ok && this.flights) frameBox.prepend(flightsSection(hex, frame.body.legs ?? null, this.flights, () => token === this.token));
    if (route) routeBox.replaceChildren(...routeFacts(route));
    if (frame.ok && frame.body.operator) this.root.querySelector('.live .operator')?.replaceChildren(frame.body.operator);
  }

  /** an airport: its observed totals and boards, and its movements of yesterday (UTC) as of `nowS` (the live clock) */
  async airport(code: string, nowS: number | null = null): Promise<void> {
    const body = el('section', { class: 'airport' }, el('p', { class: 'loading' }, 'airport…'));
    const moves = el('div', {}, el('p', { class: 'loading' }, 'movements…'));
    const token = this.open(code, body, moves);
    const alive = () => token === this.token;
    const [r, m] = await Promise.all([getJson<any>(`/v1/airports/${code}`), movementsSection(code, nowS ?? Date.now() / 1000, alive)]);
    if (!alive()) return;
    moves.replaceChildren(...(m ? [m] : []));
    if (!r.ok) {
      body.replaceChildren(el('p', { class: 'none' }, problem(r)));
      return;
    }
    const a = r.body;
    this.root.querySelector('h2')!.textContent = `${a.iata} · ${a.ident} · ${a.name}`;
    body.replaceChildren(...airportFacts(a));
  }
}

const problem = (r: Answer<unknown>) => (r.ok ? '' : `${r.error}: ${r.detail}`);

const facts = (pairs: [string, string | number | null | undefined][]) =>
  el('dl', {}, ...pairs.flatMap(([k, v]) => [el('dt', {}, k), el('dd', {}, v === null || v === undefined || v === '' ? '–' : String(v))]));

function liveFacts(a: Aircraft, typeName: (t: string) => string | null, nowS: number | null): HTMLElement {
  const type = a.t ? [a.t, typeName(a.t)].filter(Boolean).join(' · ') : null;
  const heard = a.seen === undefined ? null : `${a.seen.toFixed(1)} s ago${nowS === null ? '' : ` (${utc(nowS - a.seen)})`}`;
  const box = facts([
    ['registration', a.r],
    ['type', type],
    ['operator', null],
    ['altitude', a.alt_baro === 'ground' ? 'on the ground' : fmt(a.alt_baro, ' ft')],
    ['ground speed', fmt(a.gs, ' kt')],
    ['track', fmt(a.track, '°')],
    ['vertical rate', fmt(a.baro_rate, ' ft/min')],
    ['squawk', a.squawk],
    ['category', a.category],
    ['last message', heard],
  ]);
  // the operator comes with the airframe document: its cell is filled when that arrives
  box.querySelectorAll('dd')[2]!.classList.add('operator');
  return el('section', { class: 'live' }, el('h3', {}, 'Live'), box);
}

/** /v1/route/{callsign}: both ends and where they come from (spec 1, honesty rule 4) */
function routeFacts(r: Answer<any>): HTMLElement[] {
  if (!r.ok) return [el('h3', {}, 'Route'), el('p', { class: 'none' }, r.status === 404 ? 'No route known for this callsign.' : problem(r))];
  const b = r.body;
  const said: Record<string, string> = {
    observed: 'observed: the network heard both ends',
    'observed+catalog': 'observed+catalog: the community catalog supplied the end coverage never reached',
    catalog: 'catalog: the community catalog supplied both ends',
  };
  return [
    el('h3', {}, 'Route'),
    facts([
      ['route', `${b.org} → ${b.dst}`],
      ['flight', b.flight],
      ['route source', said[b.route_source] ?? b.route_source],
    ]),
  ];
}

function estimateFacts(e: Estimate): HTMLElement {
  return el(
    'section',
    { class: 'estimate' },
    el('h3', {}, 'Estimate'),
    el(
      'p',
      { class: 'warning' },
      `An estimated position, not an observation: the network last heard this aircraft at ${utc(e.last_seen.at)} and flies it on from there.`,
    ),
    facts([
      ['last heard at', `${e.last_seen.lat.toFixed(3)}, ${e.last_seen.lon.toFixed(3)}`],
      ['altitude (last heard)', fmt(e.alt_baro, ' ft')],
      ['ground speed (last heard)', fmt(e.gs, ' kt')],
      ['destination', e.destination],
      ['ETA', e.eta === undefined ? null : utc(e.eta)],
    ]),
  );
}

function traceFacts(t: Trace): HTMLElement {
  const first = t.points[0];
  const last = t.points[t.points.length - 1];
  return el(
    'section',
    {},
    el('h3', {}, 'Trace (last 30 minutes)'),
    facts([
      ['points', t.points.length],
      ['from – to', first && last ? `${utc(first[0])} – ${utc(last[0])}` : null],
      ['take-off', t.departure ? `${utc(t.departure.at)} (heard)` : 'not heard (first heard aloft)'],
      ['landing', t.arrival ? `${utc(t.arrival.at)} (heard)` : 'not heard'],
    ]),
  );
}

function airframeFacts(f: any): HTMLElement[] {
  const legs: any[] | null = f.legs;
  return [
    el('h3', {}, 'Airframe history'),
    facts([
      ['registration', f.reg],
      ['type', [f.type, f.type_name].filter(Boolean).join(' · ')],
      ['operator', f.operator ?? f.operator_icao],
      ['country', f.country],
      ['registry source', f.source],
    ]),
    legs === null
      ? el('p', { class: 'none' }, 'The flight log is not loaded: legs unknown.')
      : legs.length === 0
        ? el('p', { class: 'none' }, 'Not heard in the window (a gap means the network did not hear it, nothing more).')
        : table(
            'legs',
            ['date', 'from', 'to', 'callsign', 'route source'],
            legs.map((l) => [l.date, l.org, l.dst, l.callsign, l.route_source]),
          ),
    el('p', { class: 'note' }, 'Observed by the network, never an official registry.'),
  ];
}

function airportFacts(a: any): HTMLElement[] {
  const o = a.observed;
  const out: HTMLElement[] = [
    facts([
      ['place', [a.municipality, a.iso_country].filter(Boolean).join(', ')],
      ['class', a.class],
      ['times', `local (${a.tz})`],
    ]),
    el('h3', {}, `Observed${a.window_days ? ` over ${a.window_days} days` : ''}`),
    o
      ? facts([
          ['departures', fmt(o.departures)],
          ['destinations', fmt(o.destinations)],
          ['aircraft (tails)', fmt(o.tails)],
          ['days observed', fmt(o.days_observed)],
        ])
      : el('p', { class: 'none' }, 'The flight log is not loaded.'),
  ];
  if (o?.routes?.length)
    out.push(
      table(
        'routes',
        ['to', 'flights', 'days'],
        o.routes.map((r: any) => [r.dst, r.flights, r.days]),
      ),
    );
  out.push(el('h3', {}, 'Departures board'));
  out.push(
    a.board.length
      ? table(
          'board',
          ['dep', 'flight', 'to', 'arr', 'type', 'flights', 'source'],
          a.board.map((r: any) => [r.dep, r.flight, r.dst, r.arr, r.type, r.flights, r.source]),
        )
      : el('p', { class: 'none' }, 'No typical departures.'),
  );
  out.push(el('h3', {}, 'Arrivals board'));
  out.push(
    a.arrivals.length
      ? table(
          'board',
          ['arr', 'flight', 'from', 'dep', 'type', 'flights', 'source'],
          a.arrivals.map((r: any) => [r.arr, r.flight, r.org, r.dep, r.type, r.flights, r.source]),
        )
      : el('p', { class: 'none' }, 'No typical arrivals.'),
  );
  out.push(el('p', { class: 'note' }, 'source: observed = heard by the network; published = from a timetable, not an observation; both = the two agree.'));
  return out;
}
