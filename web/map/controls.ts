// the map's controls: the status line (aircraft in the view, in the network, estimates, how the map
// is fed), the legend (altitude colours, silhouettes, what an estimate looks like), and the buttons
// for the list and dark mode. the status line counts what the sky layer drew, never a padded box.
import L from 'leaflet';
import { bandColour, bandOf } from './colour.ts';
import { el } from './dom.ts';
import { addShape, type ShapeId } from './shapes.ts';

export function statusControl(map: L.Map): (text: string) => void {
  const box = el('div', { class: 'status leaflet-bar', role: 'status', 'aria-live': 'polite' }, 'Connecting…');
  const C = L.Control.extend({ onAdd: () => box });
  new C({ position: 'topleft' }).addTo(map);
  return (text) => {
    box.textContent = text;
  };
}

/** a silhouette as a small inline SVG for the legend */
function icon(shape: ShapeId, colour: string): SVGElement {
  let d = '';
  addShape(
    { moveTo: (x, y) => (d += `M${x.toFixed(1)} ${y.toFixed(1)}`), lineTo: (x, y) => (d += `L${x.toFixed(1)} ${y.toFixed(1)}`), closePath: () => (d += 'Z') },
    shape,
    10,
    10,
    45,
    0.8,
  );
  const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
  svg.setAttribute('width', '20');
  svg.setAttribute('height', '20');
  svg.setAttribute('aria-hidden', 'true');
  const path = document.createElementNS('http://www.w3.org/2000/svg', 'path');
  path.setAttribute('d', d);
  path.setAttribute('fill', colour);
  path.setAttribute('stroke', 'rgba(0,0,0,0.5)');
  path.setAttribute('stroke-width', '0.6');
  svg.append(path);
  return svg;
}

const SHAPE_NAMES: [ShapeId, string][] = [
  ['heavy', 'wide-body'],
  ['airliner', 'airliner'],
  ['regional', 'regional jet'],
  ['business', 'business jet'],
  ['turboprop', 'turboprop'],
  ['light', 'light aircraft'],
  ['helicopter', 'helicopter'],
  ['glider', 'glider'],
  ['balloon', 'balloon'],
  ['military', 'military jet'],
  ['ground', 'ground vehicle'],
  ['unknown', 'type unknown'],
];

export function legendControl(map: L.Map): void {
  const band = (colour: string, text: string) => el('span', { class: 'band' }, el('span', { class: 'swatch', style: `background:${colour}` }), text);
  const shapes = el(
    'details',
    { class: 'shapes' },
    el('summary', {}, 'Silhouettes'),
    el('div', {}, ...SHAPE_NAMES.map(([s, name]) => el('span', { class: 'shape' }, icon(s, bandColour(bandOf(30_000))), name))),
  );
  const body = el(
    'div',
    { class: 'legend-body' },
    el(
      'div',
      { class: 'bands' },
      band(bandColour(bandOf('ground')), 'ground'),
      ...[0, 10_000, 20_000, 30_000, 40_000].map((ft) => band(bandColour(bandOf(ft)), ft ? `${ft / 1000}k` : '0')),
      ' ft',
    ),
    shapes,
    el(
      'div',
      {},
      el('span', { class: 'swatch estimate' }),
      'estimate (hollow, dashed): not an observation; the dashed line leads back to where it was last heard',
    ),
    el('div', { class: 'accuracy' }),
  );
  const toggle = el('button', { type: 'button', class: 'legend-toggle', 'aria-expanded': 'true' }, 'Legend');
  toggle.addEventListener('click', () => {
    body.hidden = !body.hidden;
    toggle.setAttribute('aria-expanded', String(!body.hidden));
  });
  const box = el('div', { class: 'legend leaflet-bar' }, toggle, body);
  const C = L.Control.extend({ onAdd: () => box });
  new C({ position: 'bottomleft' }).addTo(map);
}

/** the buttons: the list beside the map and dark mode; each names its key */
export function buttonsControl(map: L.Map, on: { list: () => void; theme: () => void }): void {
  const b = (label: string, title: string, f: () => void) => {
    const x = el('button', { type: 'button', title, 'aria-label': title }, label);
    x.addEventListener('click', (e) => {
      e.stopPropagation();
      f();
    });
    return x;
  };
  const box = el('div', { class: 'buttons leaflet-bar' }, b('☰', 'aircraft list (L)', on.list), b('◐', 'dark mode (D)', on.theme));
  L.DomEvent.disableClickPropagation(box);
  const C = L.Control.extend({ onAdd: () => box });
  new C({ position: 'topleft' }).addTo(map);
}
