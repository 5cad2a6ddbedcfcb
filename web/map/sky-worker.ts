// the sky worker (docs/ARCHITECTURE.md "The map's sky worker"): the push stream's messages parsed
// and kept by the client rule (sky.ts), and the sky layer drawn on the OffscreenCanvas the page
// handed over (sky-scene.ts), so neither the parse nor the silhouettes' paths nor the software
// raster run on the page's main thread. the page sends the view, the rules and the looks; the
// worker sends back per frame what it drew and the records of the aircraft it drew (and the
// selected one), which is all the page reads: counts, list, hit tests, the panel.
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
let view: { view: View; corner: [number, number]; palette: Palette } | null = null;
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
  const records: Aircraft[] = [];
  for (const a of scene.aircraft) if (hexes.has(a.hex) || a.hex === sel) records.push(a);
  scope.postMessage({ t: 'frame', drawn, records, corner: view.corner, end, busyMs: busy + performance.now() - started });
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
  }
}
