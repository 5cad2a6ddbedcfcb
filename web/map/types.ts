// what the map reads from the API, as the browser sees it (spec 2.1, 2.3, 2.4; the schemas in
// schemas/ are the contract, these are the fields the map uses).
import type { AircraftRecord, EstimatedAircraft } from '../../lib/live-records.ts';

/** a live record in the 2.1 wire dialect (/v1/aircraft, /v1/stream), the server's own type */
export type Aircraft = AircraftRecord;

/** an entry of /v1/estimated: an estimate, never an observation */
export type Estimate = EstimatedAircraft;

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

/** [iata, icao or null, lat, lon, kind, name] (/v1/map/airports; kind and name '' when unknown) */
export type MapAirport = [string, string | null, number, number, string, string];

/** what a point drawn on the sky layer stands for (hit tests, the tests' drawn lists) */
export type HitKind = 'aircraft' | 'estimate' | 'airport';
