// the search keys of one snapshot (readsb's /v2 hex, callsign, reg, type and squawk searches),
// built once when the snapshot is prepared (on the ingest thread) as flat sorted tables that
// cross to the serving thread as a few byte arrays, not 12,000 objects: a request is a binary
// search and a byte copy per hit. keys are upper-case (hex lower-case), so every search is
// case-insensitive, as the peers' are. the keys travel as UTF-8 bytes, not strings: a transferred
// buffer stays outside the receiving thread's heap, where ~400 KB of key strings a snapshot had
// filled a serving worker's old generation and set off a full collection every 2.4 s.
import type { AircraftRecord } from '../feed/record.ts';
import { asBuffer, ownUtf8 } from '../../lib/bytes.ts';

export type SearchField = 'hex' | 'callsign' | 'reg' | 'type' | 'squawk';
const FIELDS: readonly SearchField[] = ['hex', 'callsign', 'reg', 'type', 'squawk'];

/** one field's keys, sorted as strings (then by record): key k is keys[off[k], off[k+1]) in UTF-8, of record ids[k] */
interface KeyTable {
  keys: Uint8Array;
  off: Int32Array;
  ids: Int32Array;
}

export interface SearchParts {
  /** every record's hex in feed order, UTF-8, each in a slot of `hexWidth` bytes padded with spaces */
  hexes: Uint8Array;
  hexWidth: number;
  tables: Record<SearchField, KeyTable>;
}

function keyOf(a: AircraftRecord, field: SearchField): string | undefined {
  switch (field) {
    case 'hex':
      return a.hex;
    case 'callsign':
      return a.flight?.toUpperCase() || undefined;
    case 'reg':
      return a.r?.toUpperCase() || undefined;
    case 'type':
      return a.t?.toUpperCase() || undefined;
    case 'squawk':
      return a.squawk || undefined;
  }
}

function table(list: readonly AircraftRecord[], field: SearchField): KeyTable {
  const pairs: [string, number][] = [];
  for (let i = 0; i < list.length; i++) {
    const k = keyOf(list[i]!, field);
    if (k !== undefined) pairs.push([k, i]);
  }
  pairs.sort((x, y) => (x[0] < y[0] ? -1 : x[0] > y[0] ? 1 : x[1] - y[1]));
  const off = new Int32Array(pairs.length + 1);
  const ids = new Int32Array(pairs.length);
  const keys = ownUtf8(pairs.map((p) => p[0]).join(''));
  let at = 0;
  for (let k = 0; k < pairs.length; k++) {
    off[k] = at;
    at += Buffer.byteLength(pairs[k]![0]);
    ids[k] = pairs[k]![1];
  }
  off[pairs.length] = at;
  return { keys, off, ids };
}

/** The search tables of a snapshot's records (feed order). */
export function searchParts(list: readonly AircraftRecord[]): SearchParts {
  const hexWidth = list.reduce((w, a) => Math.max(w, Buffer.byteLength(a.hex)), 1);
  const hexes = ownUtf8(list.map((a) => a.hex + ' '.repeat(hexWidth - Buffer.byteLength(a.hex))).join(''));
  const tables = {} as Record<SearchField, KeyTable>;
  for (const f of FIELDS) tables[f] = table(list, f);
  return { hexes, hexWidth, tables };
}

export class SearchIndex {
  private readonly hexText: Buffer;
  private readonly keyText: Record<SearchField, Buffer>;

  constructor(readonly parts: SearchParts) {
    this.hexText = asBuffer(parts.hexes);
    this.keyText = Object.fromEntries(FIELDS.map((f) => [f, asBuffer(parts.tables[f].keys)])) as Record<SearchField, Buffer>;
  }

  static of(list: readonly AircraftRecord[]): SearchIndex {
    return new SearchIndex(searchParts(list));
  }

  /** records in the snapshot */
  get size(): number {
    return this.parts.hexes.byteLength / this.parts.hexWidth;
  }

  /** Record i's hex. */
  hexOf(i: number): string {
    const w = this.parts.hexWidth;
    return this.hexText.toString('utf8', i * w, i * w + w).trimEnd();
  }

  /** record indexes with this key, feed order; the key as normalised by the caller */
  find(field: SearchField, key: string): readonly number[] {
    const t = this.parts.tables[field];
    const text = this.keyText[field];
    // compared as strings, as the table was sorted
    const keyAt = (k: number) => text.toString('utf8', t.off[k]!, t.off[k + 1]!);
    let lo = 0;
    let hi = t.ids.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (keyAt(mid) < key) lo = mid + 1;
      else hi = mid;
    }
    const out: number[] = [];
    for (let k = lo; k < t.ids.length && keyAt(k) === key; k++) out.push(t.ids[k]!);
    return out;
  }
}
