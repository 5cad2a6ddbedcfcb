// the services the composition root (app.ts createServices) wires once per process, as the
// route table (routesOf) and /metrics see them. a file of its own so that what reads them never
// imports the composition root (metrics.ts once did: an import circle).
import type { LiveState } from './live/state.ts';
import type { TraceStore } from './trace/trace-store.ts';
import type { Tracker } from './estimate/tracker.ts';
import type { HistoryStore } from './history/history-store.ts';
import type { Stations } from './stations/open.ts';
import type { FeedSource } from './ingest/source.ts';
import type { IngestThread } from './ingest/ingest-thread.ts';
import type { Followers } from './ingest/followers.ts';
import type { Metrics } from './metrics.ts';
import type { NamedAirport } from '../lib/reference/fields.ts';

export interface Services {
  live: LiveState;
  traces: TraceStore;
  tracker: Tracker;
  history: HistoryStore;
  stations: Stations;
  feed: FeedSource | null;
  /** the ingest thread the feed runs on (its timings feed /metrics) */
  ingest: IngestThread | null;
  /** the trace store and the estimator taking each snapshot in slices (their longest slice feeds /metrics) */
  followers: Followers;
  isKnownHex: (hex: string) => boolean;
  isMilitaryHex: (hex: string) => boolean;
  /** IATA code -> OurAirports kind and name, for the map's airports */
  airportNames: ReadonlyMap<string, NamedAirport>;
  metrics: Metrics;
  clock: () => number;
}
