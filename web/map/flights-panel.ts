// the panel's flight-log sections (docs/map.md "Flights and movements"): a selected airframe's recent
// days, each a button that fetches /v1/flights/{hex}/{date}, draws its tracks and lists its flights;
// and an airport's movements of yesterday (UTC) with the runway in use. errors are said in words.
import { getJson } from './api.ts';
import { el, table } from './dom.ts';
import { flightDays, flightRows, movementRow, runwayUse, said, yesterdayUtc, type FlightsDoc, type RunwayCounts } from './flights-model.ts';

/** where a fetched day's flights are drawn (flights-layer.ts) */
export interface FlightsView {
  show(doc: FlightsDoc): void;
  clear(): void;
}

/** an airframe's "Flights" section: its recent days; a click on one draws and lists that day's flights */
export function flightsSection(hex: string, legs: readonly { date?: unknown }[] | null, view: FlightsView, alive: () => boolean): HTMLElement {
  const days = flightDays(legs);
  const out = el('div', { class: 'day-flights' });
  const box = el('section', { class: 'flights' }, el('h3', {}, 'Flights'));
  if (days.length === 0) {
    box.append(el('p', { class: 'none' }, legs === null ? 'The flight log is not loaded: no days to show.' : 'No days heard in the window.'));
    return box;
  }
  const buttons = days.map((d) => el('button', { type: 'button', class: 'flight-day', 'data-date': d, 'aria-pressed': 'false' }, d));
  let asked = 0;
  for (const b of buttons)
    b.addEventListener('click', async () => {
      const date = b.getAttribute('data-date')!;
      const mine = ++asked;
      for (const o of buttons) o.setAttribute('aria-pressed', String(o === b));
      view.clear();
      out.replaceChildren(el('p', { class: 'loading' }, `flights of ${date}…`));
      const r = await getJson<FlightsDoc>(`/v1/flights/${hex}/${date}`);
      if (!alive() || mine !== asked) return;
      if (!r.ok) {
        out.replaceChildren(el('p', { class: 'none' }, said(r, `flight of this airframe on ${date} (UTC)`)));
        return;
      }
      view.show(r.body);
      out.replaceChildren(
        table('flights', ['callsign', 'route', 'route source', 'take-off', 'landing', 'runways'], flightRows(r.body)),
        el('p', { class: 'links' }, el('a', { href: `/v1/flights/${hex}/${date}` }, `flights of ${date} (JSON)`)),
      );
    });
  box.append(el('p', { class: 'note' }, 'Days heard (UTC), newest first: pick one to draw its flights.'), el('div', { class: 'days' }, ...buttons), out);
  return box;
}

interface MovementsDoc {
  iata: string;
  date: string;
  tz: string;
  movements: Parameters<typeof movementRow>[0][];
  counts: { takeoffs: number; landings: number; runways: RunwayCounts };
}

/** an airport's movements of yesterday (UTC): the runway in use, counts per runway, and every movement in a scrolling list */
export async function movementsSection(code: string, nowS: number, alive: () => boolean): Promise<HTMLElement | null> {
  const date = yesterdayUtc(nowS);
  const box = el('section', { class: 'day-moves' }, el('h3', {}, `Movements on ${date} (UTC, yesterday)`));
  const r = await getJson<MovementsDoc>(`/v1/airports/${code}/movements/${date}`);
  if (!alive()) return null;
  if (!r.ok) {
    box.append(el('p', { class: 'none' }, said(r, `take-off or landing at ${code} on ${date} (UTC)`)));
    return box;
  }
  const d = r.body;
  const use = runwayUse(d.counts.runways);
  const inUse = [use.takeoffs && `take-offs on ${use.takeoffs}`, use.landings && `landings on ${use.landings}`].filter(Boolean).join(', ');
  box.append(
    el('p', { class: 'in-use' }, inUse ? `Runway in use: ${inUse}.` : 'Runway in use: not known (no runway fitted, or two alike).'),
    el('p', {}, `${d.counts.takeoffs} take-offs, ${d.counts.landings} landings heard; times local (${d.tz}) and UTC.`),
    table(
      'runways',
      ['runway', 'take-offs', 'landings'],
      use.rows.map((x) => [x.runway, x.takeoffs, x.landings]),
    ),
    el(
      'div',
      { class: 'scroll' },
      table(
        'movements',
        ['local', 'UTC', 'kind', 'callsign', 'runway', 'other end'],
        d.movements.map((m) => movementRow(m)),
      ),
    ),
    el('p', { class: 'links' }, el('a', { href: `/v1/airports/${code}/movements/${date}` }, `movements of ${date} (JSON)`)),
  );
  return box;
}
