// the filters' form in the side panel (filters.ts holds the rule): altitude from and to, types
// (designators or silhouette classes), military only. every change applies at once.
import { el } from './dom.ts';
import { filtersOn, parseFeet, parseTypes, type Filters } from './filters.ts';

export class FilterBox {
  private readonly altMin = el('input', {
    type: 'text',
    inputmode: 'numeric',
    id: 'f-alt-min',
    placeholder: 'ft',
    size: '6',
    'aria-label': 'altitude from, feet',
  }) as HTMLInputElement;
  private readonly altMax = el('input', {
    type: 'text',
    inputmode: 'numeric',
    id: 'f-alt-max',
    placeholder: 'ft',
    size: '6',
    'aria-label': 'altitude to, feet',
  }) as HTMLInputElement;
  private readonly types = el('input', {
    type: 'text',
    id: 'f-type',
    placeholder: 'A320, B738, helicopter',
    'aria-label': 'types: designators or classes',
  }) as HTMLInputElement;
  private readonly mil = el('input', { type: 'checkbox', id: 'f-mil' }) as HTMLInputElement;
  private readonly clear = el('button', { type: 'button', class: 'clear' }, 'Clear') as HTMLButtonElement;

  constructor(
    root: HTMLElement,
    initial: Filters,
    private readonly onChange: (f: Filters) => void,
  ) {
    this.show(initial);
    const form = el(
      'details',
      { class: 'filters', ...(filtersOn(initial) ? { open: '' } : {}) },
      el('summary', {}, 'Filters'),
      el('div', { class: 'row' }, el('label', { for: 'f-alt-min' }, 'Altitude'), this.altMin, '–', this.altMax, ' ft'),
      el('div', { class: 'row' }, el('label', { for: 'f-type' }, 'Type'), this.types),
      el('div', { class: 'row' }, this.mil, el('label', { for: 'f-mil' }, 'Military only (ICAO military address blocks)'), this.clear),
    );
    for (const i of [this.altMin, this.altMax, this.types]) i.addEventListener('change', () => this.onChange(this.read()));
    this.mil.addEventListener('change', () => this.onChange(this.read()));
    this.clear.addEventListener('click', () => {
      this.show({ altMin: null, altMax: null, types: [], military: false });
      this.onChange(this.read());
    });
    root.append(form);
  }

  private show(f: Filters): void {
    this.altMin.value = f.altMin === null ? '' : String(f.altMin);
    this.altMax.value = f.altMax === null ? '' : String(f.altMax);
    this.types.value = f.types.join(', ');
    this.mil.checked = f.military;
  }

  read(): Filters {
    return { altMin: parseFeet(this.altMin.value), altMax: parseFeet(this.altMax.value), types: parseTypes(this.types.value), military: this.mil.checked };
  }
}
