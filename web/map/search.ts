// the search box (docs/api.md "Search"): one box for hex, callsign, registration, squawk or type,
// asked of the /v2 routes (search-plan.ts says which), the answers merged by hex. one hit selects
// and centres the aircraft at once; several are listed to pick from (click or Enter).
import { getJson } from './api.ts';
import { el } from './dom.ts';
import { searchPlan, type SearchKey } from './search-plan.ts';
import type { Aircraft } from './types.ts';

const SHOWN = 50;

export interface Found {
  a: Aircraft;
  /** the keys it was found by */
  by: SearchKey[];
}

/** Ask every search the text could be and merge the answers by hex (a hex answered first). */
async function search(text: string): Promise<{ found: Found[]; failed: string[] }> {
  const plan = searchPlan(text);
  const answers = await Promise.all(plan.map(([key, path]) => getJson<{ ac: Aircraft[] }>(path).then((r) => ({ key, r }))));
  const byHex = new Map<string, Found>();
  const failed: string[] = [];
  for (const { key, r } of answers) {
    if (!r.ok) {
      failed.push(`${key}: ${r.error}`);
      continue;
    }
    for (const a of r.body.ac) {
      const f = byHex.get(a.hex);
      if (f) f.by.push(key);
      else byHex.set(a.hex, { a, by: [key] });
    }
  }
  return { found: [...byHex.values()], failed };
}

export class SearchBox {
  readonly input: HTMLInputElement;
  private readonly results = el('ul', { class: 'results', role: 'listbox', 'aria-label': 'search results' });
  private readonly note = el('p', { class: 'search-note', 'aria-live': 'polite' });
  private token = 0;

  constructor(
    root: HTMLElement,
    private readonly onPick: (a: Aircraft) => void,
  ) {
    this.input = el('input', {
      type: 'search',
      id: 'search',
      placeholder: 'Search: hex, callsign, registration, squawk, type',
      'aria-label': 'search aircraft',
      autocomplete: 'off',
      spellcheck: 'false',
    }) as HTMLInputElement;
    const form = el('form', { class: 'search', role: 'search' }, this.input);
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      void this.run(this.input.value);
    });
    this.results.addEventListener('click', (e) => this.pick(e.target));
    this.results.addEventListener('keydown', (e) => {
      if (e.key === 'Enter') this.pick(e.target);
    });
    root.append(form, this.note, this.results);
  }

  private found: Found[] = [];

  private pick(target: EventTarget | null): void {
    const li = (target as HTMLElement | null)?.closest('li[data-hex]');
    const f = li && this.found.find((x) => x.a.hex === li.getAttribute('data-hex'));
    if (f) this.choose(f.a);
  }

  private choose(a: Aircraft): void {
    this.clear();
    this.onPick(a);
  }

  clear(): void {
    this.results.replaceChildren();
    this.note.textContent = '';
    this.found = [];
  }

  /** search for `text`; resolves once the answer is shown (or selected) */
  async run(text: string): Promise<void> {
    const token = ++this.token;
    if (!searchPlan(text).length) {
      this.clear();
      this.note.textContent = text.trim()
        ? `Nothing can match ${JSON.stringify(text.trim())}: a hex is 6 hex digits, a squawk 4 octal ones, a callsign up to 8 letters or digits.`
        : '';
      return;
    }
    this.note.textContent = 'Searching…';
    const { found, failed } = await search(text);
    if (token !== this.token) return;
    this.found = found;
    if (found.length === 1) return this.choose(found[0]!.a);
    this.results.replaceChildren(
      ...found
        .slice(0, SHOWN)
        .map(({ a, by }) =>
          el(
            'li',
            { 'data-hex': a.hex, tabindex: '0', role: 'option' },
            el('b', {}, a.flight ?? a.r ?? a.hex),
            ` ${[a.r, a.t, a.hex].filter(Boolean).join(' · ')}`,
            el('span', { class: 'by' }, ` by ${by.join(', ')}`),
          ),
        ),
    );
    this.note.textContent = found.length
      ? `${found.length} aircraft${found.length > SHOWN ? `, the first ${SHOWN} listed` : ''}${failed.length ? ` (${failed.join('; ')})` : ''}`
      : `No live aircraft matches ${JSON.stringify(text.trim())}${failed.length ? ` (${failed.join('; ')})` : ''}.`;
  }
}
