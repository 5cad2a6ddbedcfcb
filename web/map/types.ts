// what the map reads from the API, as the browser sees it (spec 2.1, 2.3, 2.4; the schemas in
// schemas/ are the contract, these are the fields the map uses).

/** a live record in the 2.1 wire dialect (/v1/aircraft, /v1/stream) */
export interface Aircraft {
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

/** an entry of /v1/estimated: an estimate, never an observation */
export interface Estimate {
  hex: string;
  flight?: string;
  t?: string;
  r?: string;
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

export interface EstimatedEnvelope {
  generated_at: number;
  method: string;
  accuracy: { day: string; n: number; median_km: number } | null;
  aircraft: Estimate[];
}

export interface Trace {
  hex: string;
  /** [t, lat, lon, alt_baro, track] */
  points: [number, number, number, number | 'ground' | null, number | null][];
  departure?: { at: number; lat: number; lon: number; alt_ft: number } | null;
  arrival?: { at: number; lat: number; lon: number } | null;
}

/** [iata, icao or null, lat, lon] (/v1/map/airports) */
export type MapAirport = [string, string | null, number, number];
