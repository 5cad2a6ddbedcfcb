// the search keys of one snapshot (readsb's /v2 hex, callsign, reg, type and squawk searches),
// built once when the snapshot is prepared: a request is a map lookup and a byte copy per hit.
// keys are upper-case (hex lower-case), so every search is case-insensitive, as the peers' are.
import type { AircraftRecord } from '../feed/record.ts';

export type SearchField = 'hex' | 'callsign' | 'reg' | 'type' | 'squawk';

export class SearchIndex {
  private readonly maps: Record<SearchField, Map<string, number[]>> = { hex: new Map(), callsign: new Map(), reg: new Map(), type: new Map(), squawk: new Map() };
  /** every record's hex, in feed order (the military filter reads them) */
  readonly hexes: string[];

  constructor(list: readonly AircraftRecord[]) {
    this.hexes = new Array(list.length);
    for (let i = 0; i < list.length; i++) {
      const a = list[i]!;
      this.hexes[i] = a.hex;
      this.add('hex', a.hex, i);
      if (a.flight) this.add('callsign', a.flight.toUpperCase(), i);
      if (a.r) this.add('reg', a.r.toUpperCase(), i);
      if (a.t) this.add('type', a.t.toUpperCase(), i);
      if (a.squawk) this.add('squawk', a.squawk, i);
    }
  }

  /** record indexes with this key, feed order; the key as normalised by the caller */
  find(field: SearchField, key: string): readonly number[] {
    return this.maps[field].get(key) ?? [];
  }

  private add(field: SearchField, key: string, i: number): void {
    const m = this.maps[field];
    const hit = m.get(key);
    if (hit) hit.push(i);
    else m.set(key, [i]);
  }
}
