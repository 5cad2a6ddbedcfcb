// light and dark (docs/api.md "Dark mode"): the URL's ?theme= first, then the choice kept in this
// browser, then the system's prefers-color-scheme. the page's colours are CSS variables under
// body.dark; the canvases (basemap tiles, aircraft, labels) read theirs from `palette()`.

export type Theme = 'light' | 'dark';

export interface Palette {
  sea: string;
  land: string;
  coast: string;
  border: string;
  country: string;
  city: string;
  /** the halo round canvas text, so a name reads over land, sea and aircraft alike */
  halo: string;
  label: string;
  airport: string;
  airportRing: string;
  selected: string;
  estimate: string;
}

const PALETTES: Record<Theme, Palette> = {
  light: {
    sea: '#c9dbe6',
    land: '#eceae3',
    coast: '#9fb3bf',
    border: '#a9a49a',
    country: '#6f665a',
    city: '#2b2b2b',
    halo: 'rgba(255,255,255,0.85)',
    label: '#111',
    airport: '#3c4a5c',
    airportRing: '#fff',
    selected: '#000',
    estimate: '#4a4a9a',
  },
  dark: {
    sea: '#16202b',
    land: '#2a2e35',
    coast: '#3e4d5c',
    border: '#59606a',
    country: '#a3a9b0',
    city: '#dfe3e8',
    halo: 'rgba(0,0,0,0.75)',
    label: '#f0f0f0',
    airport: '#b9c6d6',
    airportRing: '#16202b',
    selected: '#fff',
    estimate: '#a9a9f0',
  },
};

const KEY = 'contrail-theme';
let current: Theme = 'light';
const listeners: ((t: Theme) => void)[] = [];

export const palette = (): Palette => PALETTES[current];
export const theme = (): Theme => current;

export function initialTheme(fromUrl: Theme | null): Theme {
  if (fromUrl) return fromUrl;
  try {
    const kept = localStorage.getItem(KEY);
    if (kept === 'dark' || kept === 'light') return kept;
  } catch {
    // storage refused (a private window's policy): the system's choice then
  }
  return typeof matchMedia === 'function' && matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
}

export function setTheme(t: Theme, keep = false): void {
  current = t;
  document.body.classList.toggle('dark', t === 'dark');
  if (keep) {
    try {
      localStorage.setItem(KEY, t);
    } catch {
      // not kept: it still holds for this page
    }
  }
  for (const f of listeners) f(t);
}

export const onTheme = (f: (t: Theme) => void) => void listeners.push(f);
