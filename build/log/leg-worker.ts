// a leg worker (leg-pool.ts starts them): reads, gunzips, parses and cuts the trace files of a
// batch of airframes (airframe-cut.ts, the same code as the in-thread path) and sends back their
// legs. its airfields are rebuilt from the tables the main thread sends once (closures do not
// cross threads): the same airports and runways, so the same idents and field heights.
import { deserialize } from 'node:v8';
import { parentPort, workerData } from 'node:worker_threads';
import { logAirfields } from './airfields.ts';
import type { AirfieldTables } from './airfield-tables.ts';
import { cutAirframe, readBytes, type AirframeCut, type AirframeFiles } from './airframe-cut.ts';
import { DEFAULT_LEG_OPTIONS, type Carry, type LegOptions } from './legs.ts';

export interface LegWorkerData {
  airfields: AirfieldTables;
  carryS: number;
  /** the detector's options but its field lookup, which `airfields` gives */
  detector: Record<string, unknown>;
  /** the detector reads field heights (the in-thread options had a field lookup) */
  fieldHeights: boolean;
}

export interface LegBatch {
  id: number;
  /** unix seconds of the midnight that ends the day */
  dayEnd: number;
  airframes: AirframeFiles[];
  /** each airframe's leg carried into the day, or null */
  carries: (Carry | null)[];
}

export type LegReply =
  | { id: number; ok: true; cuts: AirframeCut[] }
  /** a failure that is not a bad file (those are skips, in the cuts): the build stops, naming the file */
  | { id: number; ok: false; path: string; message: string };

/** the pool sends LegWorkerData serialised (node:v8) in a SharedArrayBuffer, one copy for every worker */
const data = deserialize(Buffer.from(workerData as SharedArrayBuffer)) as LegWorkerData;
const { locate, legs } = logAirfields(data.airfields, data.carryS);
const legOpts: LegOptions = {
  ...DEFAULT_LEG_OPTIONS,
  carryS: data.carryS,
  detector: { ...data.detector, fields: data.fieldHeights ? legs!.detector!.fields! : null },
};

parentPort!.on('message', (b: LegBatch) => {
  void run(b).then((r) => parentPort!.postMessage(r satisfies LegReply));
});

async function run(b: LegBatch): Promise<LegReply> {
  // every file of the batch is asked for at once: the reads go on while the first are cut
  const reads = b.airframes.map((a) => Promise.all(a.files.map(readBytes)));
  const cuts: AirframeCut[] = [];
  for (let i = 0; i < b.airframes.length; i++) {
    const a = b.airframes[i]!;
    const bytes = await reads[i]!;
    try {
      cuts.push(cutAirframe(a, bytes, b.carries[i]!, b.dayEnd, locate, legOpts));
    } catch (e) {
      await Promise.allSettled(reads);
      return { id: b.id, ok: false, path: a.files.map((f) => f.path).join(', '), message: (e as Error).stack ?? String(e) };
    }
  }
  return { id: b.id, ok: true, cuts };
}
