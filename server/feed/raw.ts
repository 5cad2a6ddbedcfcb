// the fields of one decoder record that the 2.1 rules (normalize.ts) read, as the byte scanner
// hands them over: one object of a fixed shape, reset and reused for every record, so scanning
// 12,000 records makes no per-record garbage. values are what JSON.parse would give, except
// that any object or array value is the one OTHER object (the rules only ask "is it null, a
// string, a number?", and an object is none of them).
import { WIRE_FIELDS } from './record.ts';
import { ALT } from './wire.ts';

export const OTHER: object = Object.freeze({});

/** raw key id -> name: the wire field index for a 2.1 name, index + ALT for its mutability name */
export const NAMES: string[] = [...WIRE_FIELDS];
NAMES[WIRE_FIELDS.indexOf('alt_baro') + ALT] = 'altitude';
NAMES[WIRE_FIELDS.indexOf('gs') + ALT] = 'speed';
NAMES[WIRE_FIELDS.indexOf('baro_rate') + ALT] = 'vert_rate';

// the fields, named as the feed names them
export class Raw {
  hex: unknown = undefined;
  flight: unknown = undefined;
  t: unknown = undefined;
  r: unknown = undefined;
  lat: unknown = undefined;
  lon: unknown = undefined;
  alt_baro: unknown = undefined;
  gs: unknown = undefined;
  track: unknown = undefined;
  category: unknown = undefined;
  squawk: unknown = undefined;
  seen: unknown = undefined;
  seen_pos: unknown = undefined;
  baro_rate: unknown = undefined;
  emergency: unknown = undefined;
  altitude: unknown = undefined;
  speed: unknown = undefined;
  vert_rate: unknown = undefined;

  reset(): void {
    this.hex = this.flight = this.t = this.r = this.lat = this.lon = this.alt_baro = this.gs = this.track = undefined;
    this.category = this.squawk = this.seen = this.seen_pos = this.baro_rate = this.emergency = undefined;
    this.altitude = this.speed = this.vert_rate = undefined;
  }

  /** id: see NAMES */
  set(id: number, v: unknown): void {
    switch (id) {
      case 0:
        this.hex = v;
        break;
      case 1:
        this.flight = v;
        break;
      case 2:
        this.t = v;
        break;
      case 3:
        this.r = v;
        break;
      case 4:
        this.lat = v;
        break;
      case 5:
        this.lon = v;
        break;
      case 6:
        this.alt_baro = v;
        break;
      case 7:
        this.gs = v;
        break;
      case 8:
        this.track = v;
        break;
      case 9:
        this.category = v;
        break;
      case 10:
        this.squawk = v;
        break;
      case 11:
        this.seen = v;
        break;
      case 12:
        this.seen_pos = v;
        break;
      case 13:
        this.baro_rate = v;
        break;
      case 14:
        this.emergency = v;
        break;
      case 6 + ALT:
        this.altitude = v;
        break;
      case 7 + ALT:
        this.speed = v;
        break;
      case 13 + ALT:
        this.vert_rate = v;
        break;
      default:
        throw new Error(`no raw field ${id}`);
    }
  }
}
