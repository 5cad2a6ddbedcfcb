// the sky worker (docs/ARCHITECTURE.md "The map's sky worker"): the push stream's messages parsed
// and kept by the client rule (sky.ts), and the sky layer drawn on the OffscreenCanvas the page
// handed over (sky-scene.ts), so neither the parse nor the silhouettes' paths nor the software
// raster run on the page's main thread. the page sends the view, the rules and the looks; the
// worker sends back per frame what it drew (counts, hit tests), the list's first rows in the list's
// order and the selected aircraft's record (the panel): the page never holds the whole sky.
import { nmBetween, ROWS, sortRows, type ListRow, type SortKey } from './list.ts';
import type { FromWorker, StreamControl, ToWorker } from './sky-protocol.ts';
import { SkyScene, type View } from './sky-scene.ts';
import { Sky } from './sky.ts';
import type { Palette } from './theme.ts';
import type { Aircraft } from './types.ts';

const scope = self as unknown as { onmessage: ((e: MessageEvent<ToWorker>) => void) | null; postMessage(m: FromWorker): void };

const scene = new SkyScene();
const sky = new Sky();
let gen = 0;
let ctx: OffscreenCanvasRenderingContext2D | null = null;
let canvas: OffscreenCanvas | null = null;
let view: { view: View; corner: [number, number]; palette: Palette; centre: [number, number] } | null = null;
/** the list's order: its default is list.ts's */
let order: { key: SortKey; descending: boolean } = { key: 'distance', descending: false };
let types = new Map<string, import('./shapes.ts').ShapeId | null>();
let due: ReturnType<typeof setTimeout> | null = null;
/** ms this worker has spent on messages and frames, sent with each frame (the bench reads it) */
let busy = 0;
let started = 0;

/** draw now, and say what was drawn (with the update's `end` when one caused the frame) */
function frame(end: { gen: number; now: number } | null): void {
  if (due) clearTimeout(due);
  due = null;
  if (!ctx || !canvas || !view) return;
  const v = view.view;
  const w = Math.round(v.width * v.dpr);
  const h = Math.round(v.height * v.dpr);
  if (canvas.width !== w || canvas.height !== h) {
    canvas.width = w;
    canvas.height = h;
  }
  const drawn = scene.draw(ctx, v, view.palette);
  const hexes = new Set<string>();
  for (let i = 0; i < drawn.kind.length; i++) if (drawn.kind[i] === 'aircraft') hexes.add(drawn.id[i]!);
  const sel = scene.looks.selected;
  const [lat, lon] = view.centre;
  const rows: ListRow[] = [];
  let selected: Aircraft | null = null;
  for (const a of scene.aircraft) {
    if (hexes.has(a.hex)) rows.push({ a, nm: nmBetween(lat, lon, a.lat!, a.lon!) });
    if (a.hex === sel) selected = a;
  }
  const top = sortRows(rows, order.key, order.descending).slice(0, ROWS);
  scope.postMessage({ t: 'frame', drawn, top, inView: rows.length, selected, corner: view.corner, end, busyMs: busy + performance.now() - started });
}

/** one frame for a burst of changes */
const schedule = () => void (due ??= setTimeout(() => timed(() => frame(null)), 0));

function timed(f: () => void): void {
  started = performance.now();
  f();
  busy += performance.now() - started;
}

function stream(text: string): void {
  let m: any;
  try {
    m = JSON.parse(text);
  } catch (e) {
    scope.postMessage({ t: 'bad', gen, detail: (e as Error).message });
    return;
  }
  let back: StreamControl | null = null;
  switch (m?.type) {
    case 'subscribed':
      sky.subscribed((m.cells as { cell: string }[]).map((c) => c.cell));
      back = { type: 'subscribed', bbox: m.bbox, cells: m.cells.map((c: { cell: string }) => ({ cell: c.cell })) };
      break;
    case 'full':
      sky.full(m.cell, m.aircraft);
      break;
    case 'diff':
      sky.diff(m.cell, m.upsert, m.gone);
      break;
    case 'end':
      scene.setAircraft(sky.records());
      frame({ gen, now: m.now });
      // a frame that could not be drawn (no view yet) still ends the update for the page
      if (!ctx || !view) back = { type: 'end', now: m.now };
      break;
    default:
      back = { type: String(m?.type), detail: m?.detail };
  }
  if (back) scope.postMessage({ t: 'msg', gen, m: back });
}

scope.onmessage = (e) => timed(() => handle(e.data));

function handle(m: ToWorker): void {
  switch (m.t) {
    case 'canvas':
      canvas = m.canvas;
      ctx = canvas.getContext('2d');
      return schedule();
    case 'stream':
      if (m.gen === gen) stream(m.text);
      return;
    case 'reset':
      gen = m.gen;
      sky.replace([]);
      return;
    case 'aircraft':
      scene.setAircraft(m.aircraft);
      return schedule();
    case 'estimates':
      scene.estimates = m.estimates;
      return schedule();
    case 'airports':
      scene.airports = m.airports;
      return schedule();
    case 'rules':
      if (m.types) types = new Map(m.types);
      scene.setRules({ types, military: new Set(m.military), filters: m.filters });
      return schedule();
    case 'looks':
      scene.looks = m.looks;
      return schedule();
    case 'view':
      view = m;
      return schedule();
    case 'order':
      order = { key: m.key, descending: m.descending };
      return schedule();
    case 'record':
      return scope.postMessage({ t: 'record', id: m.id, a: scene.aircraft.find((a) => a.hex === m.hex) ?? null });
  }
}
