// what every artifact builder receives. builders query the flight log through DuckDB (the `legs`
// view over LOG/*/legs.parquet, already limited to the window), read the reference data, and
// put documents through the writer (which validates each one against its schema).
import type { DuckDBConnection } from '@duckdb/node-api';
import type { ArtifactWriter } from '../publish/writer.ts';

export interface Progress {
  /** a step starts: name and how many items it expects (0 when unknown) */
  start(step: string, total: number): void;
  /** n more items done in the current step */
  tick(n?: number): void;
  /** the step is over; a one-line summary */
  done(summary: string): void;
}

export const silentProgress: Progress = { start() {}, tick() {}, done() {} };

export interface BuildContext {
  /** DuckDB connection with a view `legs` (flight-log rows inside the window, plus the `day` partition column) */
  db: DuckDBConnection;
  /** the loaded reference data (lib/reference) */
  refdata: import('../../lib/reference/index.ts').Refdata;
  writer: ArtifactWriter;
  /** newest day in the log (ISO date), null when the log is empty */
  archiveThrough: string | null;
  /** first day of the window (ISO date), null when the log is empty */
  windowStart: string | null;
  /** days of history the window covers (0 when the log is empty) */
  windowDays: number;
  /** directory of published timetables (optional input), null when none */
  timetablesDir: string | null;
  /** the build's clock, unix ms (pinned in tests) */
  nowMs: number;
  progress: Progress;
  /** counts per artifact kind, filled by the builders, written to the manifest */
  counts: Record<string, number>;
  /** shared results of earlier builders, e.g. the routes table for airports and alliances */
  shared: Map<string, unknown>;
}

export type Builder = (ctx: BuildContext) => Promise<void>;
