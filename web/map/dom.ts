// building the side panel's DOM: text always goes in as text (a callsign from the feed is never markup)

type Child = Node | string | number | null | undefined | false;

export function el(tag: string, attrs: Record<string, string> = {}, ...children: Child[]): HTMLElement {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  for (const c of children) if (c !== null && c !== undefined && c !== false) e.append(c instanceof Node ? c : String(c));
  return e;
}

/** a table with a header row; each cell is text */
export function table(cls: string, head: string[], rows: (string | number | null)[][]): HTMLElement {
  return el(
    'table',
    { class: cls },
    el('thead', {}, el('tr', {}, ...head.map((h) => el('th', {}, h)))),
    el('tbody', {}, ...rows.map((r) => el('tr', {}, ...r.map((c) => el('td', {}, c ?? '–'))))),
  );
}

/** unix seconds as HH:MM:SS UTC */
export const utc = (s: number) => `${new Date(s * 1000).toISOString().slice(11, 19)}Z`;

// one formatter for all: toLocaleString builds a new one per call, 70 µs each, 600 calls per list update (docs/perf-log/map.md)
const EN = new Intl.NumberFormat('en');
export const fmt = (n: number | null | undefined, unit = '') => (n === null || n === undefined ? '–' : `${EN.format(Math.round(n))}${unit}`);
