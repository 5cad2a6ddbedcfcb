// the fields the feed's followers read (the trace store, the estimator), as columns made on the
// ingest thread beside the snapshot's parts, and a view that reads one record out of them. the
// serving thread then takes a 12k snapshot without parsing JSON or making an object per aircraft
// (reading the records back with JSON.parse cost ~43 ms a snapshot and most of the GC pauses).
import type { AircraftRecord } from '../feed/record.ts';
import { asBuffer, ownUtf8 } from '../../lib/bytes.ts';

/**
 * one text field of every record: record i's value is text[off[i], off[i+1]) in UTF-8; empty is
 * absent. bytes, not a string: transferred, they stay out of the receiving thread's heap (as the
 * search tables do: search-index.ts)
 */
interface TextColumn {
  text: Uint8Array;
  off: Int32Array;
}

export interface RecordColumns {
  /** feet; NaN absent, -Infinity on the ground */
  alt: Float64Array;
  /** NaN absent */
  gs: Float64Array;
  track: Float64Array;
  baroRate: Float64Array;
  seen: Float64Array;
  seenPos: Float64Array;
  flight: TextColumn;
  t: TextColumn;
  r: TextColumn;
  category: TextColumn;
  emergency: TextColumn;
}

const GROUND = -Infinity;

function numbers(list: readonly AircraftRecord[], get: (a: AircraftRecord) => number | undefined): Float64Array {
  const out = new Float64Array(list.length);
  for (let i = 0; i < list.length; i++) out[i] = get(list[i]!) ?? NaN;
  return out;
}

function texts(list: readonly AircraftRecord[], get: (a: AircraftRecord) => string | undefined): TextColumn {
  const off = new Int32Array(list.length + 1);
  const parts: string[] = new Array(list.length);
  let at = 0;
  for (let i = 0; i < list.length; i++) {
    off[i] = at;
    parts[i] = get(list[i]!) ?? '';
    at += Buffer.byteLength(parts[i]!);
  }
  off[list.length] = at;
  return { text: ownUtf8(parts.join('')), off };
}

export function recordColumns(list: readonly AircraftRecord[]): RecordColumns {
  return {
    alt: numbers(list, (a) => (a.alt_baro === 'ground' ? GROUND : a.alt_baro)),
    gs: numbers(list, (a) => a.gs),
    track: numbers(list, (a) => a.track),
    baroRate: numbers(list, (a) => a.baro_rate),
    seen: numbers(list, (a) => a.seen),
    seenPos: numbers(list, (a) => a.seen_pos),
    flight: texts(list, (a) => a.flight),
    t: texts(list, (a) => a.t),
    r: texts(list, (a) => a.r),
    category: texts(list, (a) => a.category),
    emergency: texts(list, (a) => a.emergency),
  };
}

/** the typed arrays of the columns (to transfer them) */
export const columnArrays = (c: RecordColumns) => [
  c.alt,
  c.gs,
  c.track,
  c.baroRate,
  c.seen,
  c.seenPos,
  ...[c.flight, c.t, c.r, c.category, c.emergency].flatMap((t) => [t.text, t.off]),
];

const num = (a: Float64Array, i: number) => {
  const v = a[i]!;
  return Number.isNaN(v) ? undefined : v;
};
/** a text column read as strings: its bytes wrapped once, as a Buffer */
interface TextReader {
  bytes: Buffer;
  off: Int32Array;
}
const reader = (c: TextColumn): TextReader => ({ bytes: asBuffer(c.text), off: c.off });
const str = (c: TextReader, i: number) => (c.off[i] === c.off[i + 1] ? undefined : c.bytes.toString('utf8', c.off[i]!, c.off[i + 1]!));

/**
 * One record read out of the columns, as the followers see a record: move it with at(i). The view
 * is reused for every record, so a follower must copy what it keeps, never the view itself.
 */
export class RecordView {
  private i = 0;
  private readonly flightText: TextReader;
  private readonly tText: TextReader;
  private readonly rText: TextReader;
  private readonly categoryText: TextReader;
  private readonly emergencyText: TextReader;

  constructor(
    private readonly c: RecordColumns,
    private readonly lats: Float64Array,
    private readonly lons: Float64Array,
    private readonly hexOf: (i: number) => string,
  ) {
    this.flightText = reader(c.flight);
    this.tText = reader(c.t);
    this.rText = reader(c.r);
    this.categoryText = reader(c.category);
    this.emergencyText = reader(c.emergency);
  }

  /** Point the view at record i; returns it typed as a record. */
  at(i: number): AircraftRecord {
    this.i = i;
    return this as unknown as AircraftRecord;
  }

  get hex(): string {
    return this.hexOf(this.i);
  }
  get lat(): number | undefined {
    return num(this.lats, this.i);
  }
  get lon(): number | undefined {
    return num(this.lons, this.i);
  }
  get alt_baro(): number | 'ground' | undefined {
    const v = this.c.alt[this.i]!;
    return v === GROUND ? 'ground' : Number.isNaN(v) ? undefined : v;
  }
  get gs(): number | undefined {
    return num(this.c.gs, this.i);
  }
  get track(): number | undefined {
    return num(this.c.track, this.i);
  }
  get baro_rate(): number | undefined {
    return num(this.c.baroRate, this.i);
  }
  get seen(): number | undefined {
    return num(this.c.seen, this.i);
  }
  get seen_pos(): number | undefined {
    return num(this.c.seenPos, this.i);
  }
  get flight(): string | undefined {
    return str(this.flightText, this.i);
  }
  get t(): string | undefined {
    return str(this.tText, this.i);
  }
  get r(): string | undefined {
    return str(this.rText, this.i);
  }
  get category(): string | undefined {
    return str(this.categoryText, this.i);
  }
  get emergency(): string | undefined {
    return str(this.emergencyText, this.i);
  }
}
