// the aircraft list beside the map (docs/api.md "The aircraft list"): the aircraft the map draws in
// its view (so it always agrees with the count), sortable by callsign, type, altitude, speed and
// distance from the map's centre; a click or Enter on a row selects the aircraft on the map, and a
// selection made on the map marks its row. the first ROWS rows of the order are rendered: a view of
// thousands says how many more there are rather than building a table nobody scrolls.
import { el, fmt } from './dom.ts';
import type { Aircraft } from './types.ts';

export type SortKey = 'callsign' | 'type' | 'altitude' | 'speed' | 'distance';
/** rows rendered; the sky worker sends only these (sky-worker.ts) */
export const ROWS = 200;

const COLUMNS: [SortKey, string][] = [
  ['callsign', 'Callsign'],
  ['type', 'Type'],
  ['altitude', 'Altitude'],
  ['speed', 'Speed'],
  ['distance', 'Distance'],
];

export interface ListRow {
  a: Aircraft;
  /** nautical miles from the map's centre */
  nm: number;
}

const alt = (a: Aircraft) => (a.alt_baro === 'ground' ? 0 : (a.alt_baro ?? Number.NaN));
const text = (s: string | undefined) => s ?? '';

/** The rows in order: missing values last whichever the direction, then by hex, so the order is total. */
export function sortRows(rows: ListRow[], key: SortKey, descending: boolean): ListRow[] {
  const value = (r: ListRow): string | number => {
    switch (key) {
      case 'callsign':
        return text(r.a.flight ?? r.a.r);
      case 'type':
        return text(r.a.t);
      case 'altitude':
        return alt(r.a);
      case 'speed':
        return r.a.gs ?? Number.NaN;
      case 'distance':
        return r.nm;
    }
  };
  const missing = (v: string | number) => v === '' || (typeof v === 'number' && Number.isNaN(v));
  return rows
    .map((r) => ({ r, v: value(r) }))
    .sort((x, y) => {
      const mx = missing(x.v);
      const my = missing(y.v);
      if (mx !== my) return mx ? 1 : -1;
      const c = mx ? 0 : x.v < y.v ? -1 : x.v > y.v ? 1 : 0;
      return (descending ? -c : c) || (x.r.a.hex < y.r.a.hex ? -1 : 1);
    })
    .map((x) => x.r);
}

/** great-circle distance in nautical miles */
export function nmBetween(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const r = Math.PI / 180;
  const h = Math.sin(((lat2 - lat1) * r) / 2) ** 2 + Math.cos(lat1 * r) * Math.cos(lat2 * r) * Math.sin(((lon2 - lon1) * r) / 2) ** 2;
  return 2 * 3440.065 * Math.asin(Math.min(1, Math.sqrt(h)));
}

export class AircraftList {
  private key: SortKey = 'distance';
  private descending = false;
  private rows: ListRow[] = [];
  /** how many are in view: more than `rows` where the sky worker sent only the first ROWS */
  private total = 0;
  /** a new order was chosen (the sky worker then sends that order's first rows) */
  onSort: (key: SortKey, descending: boolean) => void = () => {};
  private selected: string | null = null;
  private readonly body = el('tbody') as HTMLTableSectionElement;
  private readonly head = el('tr');
  private readonly more = el('p', { class: 'more' });

  constructor(
    root: HTMLElement,
    private readonly onSelect: (hex: string) => void,
  ) {
    root.append(el('table', { class: 'list', 'aria-label': 'aircraft in view' }, el('thead', {}, this.head), this.body), this.more);
    this.body.addEventListener('click', (e) => this.pick(e.target));
    this.body.addEventListener('keydown', (e) => {
      if (e.key === 'Enter' || e.key === ' ') {
        e.preventDefault();
        this.pick(e.target);
      }
    });
    this.renderHead();
  }

  private pick(target: EventTarget | null): void {
    const row = (target as HTMLElement | null)?.closest('tr[data-hex]');
    if (row) this.onSelect(row.getAttribute('data-hex')!);
  }

  sortBy(key: SortKey): void {
    // the same column again turns the order round; a new one starts with its natural order
    this.descending = key === this.key ? !this.descending : key === 'altitude' || key === 'speed';
    this.key = key;
    this.renderHead();
    this.render();
    this.onSort(key, this.descending);
  }

  /** the hexes in the order shown (the tests read it) */
  order(): string[] {
    return sortRows(this.rows, this.key, this.descending).map((r) => r.a.hex);
  }

  /** the rows in view (or the first ROWS of `total` in this list's order) */
  set(rows: ListRow[], total = rows.length): void {
    this.rows = rows;
    this.total = Math.max(total, rows.length);
    this.render();
  }

  select(hex: string | null): void {
    this.selected = hex;
    for (const tr of this.body.querySelectorAll('tr.selected')) tr.classList.remove('selected');
    const tr = hex ? this.body.querySelector(`tr[data-hex="${hex}"]`) : null;
    if (tr) {
      tr.classList.add('selected');
      tr.scrollIntoView({ block: 'nearest' });
    }
  }

  private renderHead(): void {
    this.head.replaceChildren(
      ...COLUMNS.map(([key, name]) => {
        const b = el('button', { type: 'button', class: 'sort' }, name, key === this.key ? (this.descending ? ' ▼' : ' ▲') : '');
        b.addEventListener('click', () => this.sortBy(key));
        return el('th', { 'aria-sort': key === this.key ? (this.descending ? 'descending' : 'ascending') : 'none', 'data-key': key }, b);
      }),
    );
  }

  private render(): void {
    const sorted = sortRows(this.rows, this.key, this.descending);
    const shown = sorted.slice(0, ROWS);
    // the rows are kept and only their changed cells rewritten: rebuilding 200 rows at every update
    // cost a full layout of the side panel each time (docs/perf-log/map.md)
    while (this.body.rows.length > shown.length) this.body.lastElementChild!.remove();
    while (this.body.rows.length < shown.length)
      this.body.append(
        el('tr', { tabindex: '0' }, el('td', {}), el('td', {}), el('td', { class: 'num' }), el('td', { class: 'num' }), el('td', { class: 'num' })),
      );
    shown.forEach(({ a, nm }, i) => {
      const tr = this.body.rows[i]!;
      if (tr.getAttribute('data-hex') !== a.hex) tr.setAttribute('data-hex', a.hex);
      tr.classList.toggle('selected', a.hex === this.selected);
      const cells = [a.flight ?? a.r ?? a.hex, a.t ?? '–', a.alt_baro === 'ground' ? 'ground' : fmt(a.alt_baro), fmt(a.gs), nm.toFixed(nm < 10 ? 1 : 0)];
      for (let c = 0; c < cells.length; c++) {
        const td = tr.cells[c]!;
        if (td.textContent !== cells[c]) td.textContent = cells[c]!;
      }
    });
    this.more.textContent =
      this.total > ROWS
        ? `and ${(this.total - ROWS).toLocaleString('en')} more in view: zoom in, or sort, to see them`
        : sorted.length
          ? ''
          : 'No aircraft in view.';
  }
}
