// the messages between the page's sky layer (sky-layer.ts) and the sky worker (sky-worker.ts),
// docs/ARCHITECTURE.md "The map's sky worker". the stream's messages cross as the text they came
// as (a string is copied, not walked); what comes back is small: the stream's control messages
// without their aircraft, and per frame what it drew, the list's first rows in its order and the
// selected aircraft's record: the page never holds the whole sky on this path.
import type { Filters } from './filters.ts';
import type { ListRow, SortKey } from './list.ts';
import type { StreamControl } from './live.ts';
import type { ShapeId } from './shapes.ts';
import type { Drawn, Looks, View } from './sky-scene.ts';
import type { Palette } from './theme.ts';
import type { Aircraft, Estimate, MapAirport } from './types.ts';

export type ToWorker =
  | { t: 'canvas'; canvas: OffscreenCanvas }
  /** `gen` numbers the page's connections: what the worker says back about an older one is dropped */
  | { t: 'stream'; gen: number; text: string }
  | { t: 'reset'; gen: number }
  /** polling's picture, or a picture the page holds (the fallback never reaches here) */
  | { t: 'aircraft'; aircraft: Aircraft[] }
  | { t: 'estimates'; estimates: Estimate[] }
  | { t: 'airports'; airports: MapAirport[] }
  /** `types` only when it changed */
  | { t: 'rules'; types: [string, ShapeId | null][] | null; military: string[]; filters: Filters }
  | { t: 'looks'; looks: Looks }
  /** `corner`: the canvas's layer point for this view, echoed with the frame so the page places it */
  | { t: 'view'; view: View; corner: [number, number]; palette: Palette; centre: [number, number] }
  /** the list's order (list.ts): the frame's `top` rows follow it */
  | { t: 'order'; key: SortKey; descending: boolean }
  /** one held record by hex (a click on an aircraft past the list's first rows) */
  | { t: 'record'; id: number; hex: string };

export type { StreamControl };

export type FromWorker =
  | { t: 'msg'; gen: number; m: StreamControl }
  /** a frame drawn; `end` when an update's `end` caused it (its records are then the update's) */
  | {
      t: 'frame';
      drawn: Drawn;
      /** the first ROWS of the aircraft drawn in the list's order, and how many were drawn */
      top: ListRow[];
      inView: number;
      selected: Aircraft | null;
      corner: [number, number];
      end: { gen: number; now: number } | null;
      busyMs: number;
    }
  | { t: 'record'; id: number; a: Aircraft | null }
  /** a stream message that was not JSON: dropped, said here */
  | { t: 'bad'; gen: number; detail: string };
