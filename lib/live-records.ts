// the live records as they go over the wire, shared by the server that sends them and the map
// (web/map/) that draws them: types only.

/** spec 2.1: exactly the wire fields, already validated; optional fields are absent when unknown, never null */
export interface AircraftRecord {
  hex: string;
  flight?: string;
  t?: string;
  r?: string;
  lat?: number;
  lon?: number;
  alt_baro?: number | 'ground';
  gs?: number;
  track?: number;
  category?: string;
  squawk?: string;
  seen?: number;
  seen_pos?: number;
  baro_rate?: number;
  emergency?: string;
}

/** One entry of /v1/estimated (spec 2.3). */
export interface EstimatedAircraft {
  hex: string;
  flight?: string;
  t?: string;
  r?: string;
  category?: string;
  lat: number;
  lon: number;
  track: number;
  alt_baro: number;
  gs: number;
  estimated: true;
  last_seen: { at: number; lat: number; lon: number };
  destination?: string;
  eta?: number;
}
