// what every artifact step receives. steps query the flight log through DuckDB (the `legs`
// view over LOG/*/legs.parquet, already limited to the window), read the reference data, and
// put documents through the writer (which validates each one against its schema).
import type { DuckDBConnection } from '@duckdb/node-api';
import type { ArtifactWriter } from '../publish/writer.ts';
import type { Progress } from '../progress.ts';
import type { RefView } from '../../artifacts/reference-view.ts';

export interface BuildContext {
  /** DuckDB connection with a view `legs` (flight-log rows inside the window, plus the `day` partition column) */
  db: DuckDBConnection;
  /** the loaded reference data (lib/reference) */
  refdata: import('../../lib/reference/index.ts').Refdata;
  /** the slice of it the pure artifact code reads, made once per build (artifacts/reference-view-adapter.ts) */
  ref: RefView;
  writer: ArtifactWriter;
  /** newest day in the log (ISO date), null when the log is empty */
  archiveThrough: string | null;
  /** first day of the window (ISO date), null when the log is empty */
  windowStart: string | null;
  /** days of history the window covers (0 when the log is empty) */
  windowDays: number;
  /** the most days the window may cover (the windowDays option): the ring of day bits (day-bits.ts) */
  windowLimit: number;
  /** write v1/route/<callsign> for catalog-only callsigns too (a bucket-only deployment); absent: false, the server answers them (docs/api.md) */
  catalogRouteFiles?: boolean;
  /** directory of published timetables (optional input), null when none */
  timetablesDir: string | null;
  /** the build's clock, unix ms (pinned in tests) */
  nowMs: number;
  progress: Progress;
  /** counts per artifact kind, filled by the builders, written to the manifest */
  counts: Record<string, number>;
  /**
   * the previous version's folder when it was built by the same code from the same reference data
   * and options (build/publish/inputs.ts static_digest): a step may keep its documents whose own
   * inputs it finds unchanged (recorded in the folder's state/) without building them; null: build all
   */
  reuse?: string | null;
  /**
   * with reuse: the log days tonight's window differs by from the reused build's, when every
   * difference is a whole day entering the window or leaving it (a day whose file changed in place
   * gives null); the files of the days that left are still on disk as that build read them.
   * null or absent: not known, so a step that needs it builds everything
   */
  logDays?: LogDays | null;
}

export interface LogDays {
  /** days (YYYY-MM-DD) in tonight's window and not in the reused build's: read them through `legs` */
  added: string[];
  /** days in the reused build's window and not in tonight's, with their legs.parquet */
  dropped: { day: string; file: string }[];
}

// DuckDB objects one step makes for later ones. a step that reads one takes its handle as an
// argument, so it cannot run before the step that made it (build/steps/pipeline.ts).

/** temp table `ref_airports(ident, iata, tz, iso_country)` (duck.ts loadRefAirports) */
export interface RefAirports {
  readonly table: 'ref_airports';
}

/** temp view `legs_routed`: the window's legs with IATA ends, a missing end filled from the routes table (routes/build.ts) */
export interface RoutedLegs {
  readonly view: 'legs_routed';
  /** the temp table it fills ends from: routes_table(callsign, org, dst, org_ident, dst_ident, route_source, org_seen, dst_seen) */
  readonly table: 'routes_table';
}
